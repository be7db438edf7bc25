import type { ReactNode } from 'react';

/** A calm placeholder for a page or list with nothing to show yet. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <div className="empty-state-mark" aria-hidden="true" />
      <h2>{title}</h2>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}
