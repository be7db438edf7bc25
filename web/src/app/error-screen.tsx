import { Component, type ErrorInfo, type ReactNode } from 'react';

export const SUPPORT_EMAIL: string = import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@needl.ai';

/** True for the error a stale deployment gives when a lazily loaded chunk is gone: reloading fixes it. */
export const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error && /failed to fetch dynamically imported module/i.test(error.message);

export interface ErrorScreenProps {
  error: unknown;
  onContinue: () => void;
}

/** The generic error screen: the message, whom to contact, and a way back. */
export function ErrorScreen({ error, onContinue }: ErrorScreenProps) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <main className="full-page-center">
      <div className="error-card" role="alert">
        <h1>Something went wrong</h1>
        <p className="error-message">{message}</p>
        <p>
          Please contact us at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
        </p>
        <button type="button" className="button button-primary" onClick={onContinue}>
          Go back
        </button>
        <p className="muted small">click to continue</p>
      </div>
    </main>
  );
}

interface BoundaryState {
  error: unknown;
}

/** Catches render errors below it and shows the error screen; a missing chunk reloads the page. */
export class ErrorBoundary extends Component<{ children: ReactNode; reload?: () => void }, BoundaryState> {
  state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isChunkLoadError(error)) (this.props.reload ?? (() => window.location.reload()))();
    else console.error('render failed', error, info.componentStack);
  }

  private readonly goBack = () => {
    this.setState({ error: null });
    window.history.back();
  };

  render() {
    if (this.state.error === null) return this.props.children;
    return <ErrorScreen error={this.state.error} onContinue={this.goBack} />;
  }
}
