/**
 * Sign-up, sign-in and sign-out against `/api/auth`, shared by the auth and settings features.
 * Each success updates the session store and tells the other tabs.
 */
import { api } from './api';
import type { AuthResponse } from './api-client';
import { broadcastAuth } from './auth-channel';
import { resetFirstLoad } from './redirect-storage';
import { sessionStore } from './session-store';

export interface SignInInput {
  email: string;
  password: string;
}

export interface SignUpInput extends SignInInput {
  username: string;
}

const accept = (auth: AuthResponse) => {
  sessionStore.signIn(auth.token, auth.user);
  broadcastAuth({ type: 'login' });
  return auth;
};

export const signIn = async (input: SignInInput) => accept(await api.post<AuthResponse>('/auth/signin', { body: input }));

export const signUp = async (input: SignUpInput) => accept(await api.post<AuthResponse>('/auth/signup', { body: input }));

/** Ends the session on the server (best effort) and here, and tells the other tabs. */
export async function signOut(): Promise<void> {
  try {
    await api.post<void>('/auth/signout');
  } catch (error) {
    console.error('sign-out request failed; signing out locally', error);
  }
  endLocalSession();
}

/**
 * Ends the session here and tells the other tabs, without asking the server: for a session the
 * server has already ended (the account was erased), where a sign-out call would only be refused.
 */
export function endLocalSession(): void {
  sessionStore.signOut();
  resetFirstLoad();
  broadcastAuth({ type: 'logout' });
}
