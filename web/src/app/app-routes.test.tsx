import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { createRoutesFromElements, type RouteObject } from 'react-router';
import listedRoutes from './app-routes.txt?raw';
import { AppRoutes } from './router';

/** Every pattern the router matches, nested paths joined and index routes as their parent's. */
function patterns(routes: RouteObject[], parent = ''): string[] {
  return routes.flatMap((route) => {
    const path = route.path === undefined ? parent : route.path.startsWith('/') ? route.path : `${parent}/${route.path}`;
    // A layout route without a path adds no address of its own.
    const own = route.path !== undefined || route.index ? [path || '/'] : [];
    return [...own, ...patterns(route.children ?? [], path)];
  });
}

/** The list the server answers 200 for (api/src/web.rs reads the same file). */
function listed(): string[] {
  return listedRoutes
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

describe('the server’s list of app routes', () => {
  const routes = createRoutesFromElements((AppRoutes() as ReactElement<{ children: ReactNode }>).props.children);
  const declared = [...new Set(patterns(routes))].sort();

  it('names every route of router.tsx and nothing else, besides the catch-all page', () => {
    expect(isValidElement(AppRoutes())).toBe(true);
    expect(declared).toContain('/*');
    expect(declared.filter((p) => p !== '/*')).toEqual([...new Set(listed())].sort());
  });
});
