/** The user's organization and onboarding flags. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api';

export interface Organization {
  id: string;
  name: string;
  domain: string;
  permissions: { canPublishChannels: boolean };
}

export interface OnboardingFlags {
  show_attributes_form: boolean;
  show_search_modal: boolean;
}

export const organizationQueries = {
  all: () => ['organization'] as const,
  self: () =>
    queryOptions({
      queryKey: [...organizationQueries.all(), 'self'] as const,
      queryFn: () => api.get<Organization>('/organizations/self'),
      staleTime: Infinity,
    }),
};

export const onboardingQueries = {
  all: () => ['onboarding'] as const,
  flags: () =>
    queryOptions({
      queryKey: [...onboardingQueries.all(), 'flags'] as const,
      queryFn: () => api.get<OnboardingFlags>('/onboarding/flags'),
      staleTime: 20_000,
    }),
};
