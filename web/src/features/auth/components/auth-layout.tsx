import type { ReactNode } from 'react';

/** The centred card that frames the sign-in and sign-up forms. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark">N</span> Needl
        </div>
        <h1 className="auth-title">{title}</h1>
        <p className="muted">{subtitle}</p>
        {children}
      </div>
    </main>
  );
}

export function ServerError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
