import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { LAPTOP_QUERY, matches } from '../../../lib/media';
import { withOverlay } from '../../../lib/overlay/overlay-params';
import type { BuilderPage, BuilderParamName } from '../builder-pages';

/**
 * Returns a function that opens the builder on a page: as the overlay on a laptop-size screen
 * or larger (where overlays show), as the /custom-feed page below that.
 */
export function useOpenBuilder() {
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  return useCallback(
    (page: BuilderPage, extra: Partial<Record<BuilderParamName, string>> = {}) => {
      const params = { page, ...extra };
      if (matches(LAPTOP_QUERY)) setSearch(withOverlay(search, 'custom-feed', params));
      else navigate(`/custom-feed?${new URLSearchParams({ type: 'custom-feed', ...params })}`);
    },
    [navigate, search, setSearch],
  );
}
