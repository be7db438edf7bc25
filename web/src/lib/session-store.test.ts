import { describe, expect, it } from 'vitest';
import { createSessionStore, SESSION_STORAGE_KEY } from './session-store';

const user = { id: 'u1', email_id: 'ada@example.com', username: 'ada', is_admin: false };

/** Stores `token` as another tab would, and tells this page as the browser would. */
function storeFromAnotherTab(token: string) {
  const value = JSON.stringify({ token, user });
  localStorage.setItem(SESSION_STORAGE_KEY, value);
  window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, newValue: value, storageArea: localStorage }));
}

describe('session store', () => {
  it('adopts the token another tab refreshed to, so its own does not outlive its grace', () => {
    localStorage.clear();
    const store = createSessionStore(localStorage, window);
    store.signIn('old', user);
    const seen: (string | null)[] = [];
    store.subscribe((s) => seen.push(s.token));
    storeFromAnotherTab('new');
    expect(store.get().token).toBe('new');
    expect(seen).toEqual(['new']);
  });

  it('does not sign a signed-out page back in from another tab', () => {
    localStorage.clear();
    const store = createSessionStore(localStorage, window);
    store.signIn('old', user);
    store.signOut();
    storeFromAnotherTab('new');
    expect(store.get().token).toBeNull();
  });
});
