import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  children?: ReactNode;
  /** `alert` when the placeholder reports a failure, so assistive technology announces it. */
  role?: 'alert';
}

/** A calm placeholder for a page or list with nothing to show yet (or nothing it could load). */
export function EmptyState({ title, children, role }: EmptyStateProps) {
  return (
    <div className="empty-state" role={role}>
      <div className="empty-state-mark" aria-hidden="true" />
      <h2>{title}</h2>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}
