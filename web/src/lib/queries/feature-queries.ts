/** Feature flags of the signed-in user; cached for the life of the page unless the server says they changed. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api';

export interface FeatureConfig {
  features: Record<string, boolean>;
}

export const featureQueries = {
  all: () => ['feature'] as const,
  config: () =>
    queryOptions({
      queryKey: [...featureQueries.all(), 'config'] as const,
      queryFn: () => api.get<FeatureConfig>('/feature/config'),
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};
