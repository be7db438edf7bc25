import { ErrorBoundary } from './error-screen';
import { Providers } from './providers';
import { AppRoutes } from './router';
import { SessionEffects } from './session/session-effects';

export function App() {
  return (
    <Providers>
      <ErrorBoundary>
        <SessionEffects />
        <AppRoutes />
      </ErrorBoundary>
    </Providers>
  );
}
