import { ErrorBoundary } from './error-screen';
import { NativeBridge } from './native-bridge';
import { Providers } from './providers';
import { AppRoutes } from './router';
import { SessionEffects } from './session/session-effects';
import { VariantSync } from './session/variant-sync';

export function App() {
  return (
    <Providers>
      <ErrorBoundary>
        <SessionEffects />
        <VariantSync />
        <NativeBridge />
        <AppRoutes />
      </ErrorBoundary>
    </Providers>
  );
}
