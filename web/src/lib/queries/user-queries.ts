/** Queries about the signed-in user: profile, status and preferences. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api';

export interface UserProfile {
  id: string;
  email_id: string;
  username: string;
  industry: string | null;
  profession: string | null;
  whatsapp_number: string | null;
}

export type NavStatePreference = 'opened' | 'closed' | null;

export interface UserPreferences {
  nav_state: NavStatePreference;
  askneedl_pro: boolean;
}

export interface UserStatus {
  user_status: string;
}

export const userQueries = {
  all: () => ['user'] as const,
  profile: () =>
    queryOptions({ queryKey: [...userQueries.all(), 'profile'] as const, queryFn: () => api.get<UserProfile>('/user') }),
  status: () =>
    queryOptions({
      queryKey: [...userQueries.all(), 'status'] as const,
      queryFn: () => api.get<UserStatus>('/user/status'),
      staleTime: Infinity,
    }),
  preferences: () =>
    queryOptions({
      queryKey: [...userQueries.all(), 'preferences'] as const,
      queryFn: () => api.get<UserPreferences>('/user/preferences'),
    }),
};

/** Saves some preferences; resolves to the preferences the server now holds. */
export const updatePreferences = (changes: Partial<UserPreferences>) =>
  api.patch<UserPreferences>('/user/preferences', { body: changes });
