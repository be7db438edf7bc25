import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { PlanPromptHost } from '../app/plan-prompt-host';
import { QueryProvider } from '../app/providers';
import { ToastContext } from '../app/toast-context';
import { Toaster } from '../app/toaster';

/**
 * Renders `ui` at `route` with the app's providers and the pricing prompt's host; other paths
 * render their name, to assert navigation.
 */
export function renderWithProviders(ui: ReactElement, { route = '/', path = '*' } = {}) {
  return render(
    <ToastContext.Provider>
      <QueryProvider retry={false}>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path={path} element={ui} />
            <Route path="/" element={<p>at home</p>} />
          </Routes>
          <PlanPromptHost />
        </MemoryRouter>
      </QueryProvider>
      <Toaster />
    </ToastContext.Provider>,
  );
}

type Handler = (init: RequestInit) => Response | Promise<Response>;

/** Stubs `fetch` with handlers keyed by "METHOD /api/path"; returns the recorded calls. */
export function stubApi(routes: Record<string, Handler>) {
  const calls: Array<{ key: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${String(url)}`;
      calls.push({ key, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const handler = routes[key];
      if (!handler) return json(404, { code: 'not_found', message: `no stub for ${key}` });
      return handler(init);
    }),
  );
  return calls;
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
