import { useCallback, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { withoutOverlayParams } from '../../../lib/overlay/overlay-params';
import { builderParams, type BuilderNav, type BuilderParamName, type BuilderPage } from '../builder-pages';
import { FeedBuilder } from './feed-builder';

const feedPath = (boardId: string | null) => (boardId ? `/feeds/${encodeURIComponent(boardId)}` : null);

/**
 * /custom-feed?type=custom-feed&page=...: the builder as a page (on phones and tablets, where
 * overlays do not show). Moving between its pages replaces the parameters; saving opens the feed.
 */
export function CustomFeedPage() {
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const params = useMemo(() => builderParams(Object.fromEntries(search)), [search]);
  const go = useCallback(
    (page: BuilderPage, extra: Partial<Record<BuilderParamName, string>> = {}) =>
      setSearch(new URLSearchParams({ type: 'custom-feed', page, ...extra })),
    [setSearch],
  );
  const nav: BuilderNav = { go, done: (boardId) => navigate(feedPath(boardId) ?? '/settings/feeds') };
  return (
    <div className="page-narrow feed-builder-page">
      <FeedBuilder params={params} nav={nav} />
    </div>
  );
}

/**
 * The builder in the overlay (`overlay-type=custom-feed`): its parameters carry the `overlay-`
 * prefix. Saving closes the overlay and opens the feed.
 */
export function CustomFeedOverlayBody({ params: raw, close }: { params: Record<string, string | undefined>; close: () => void }) {
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const params = useMemo(() => builderParams(raw), [raw]);
  const go = useCallback(
    (page: BuilderPage, extra: Partial<Record<BuilderParamName, string>> = {}) => {
      const next = withoutOverlayParams(search);
      Object.entries({ type: 'custom-feed', page, ...extra }).forEach(([k, v]) => next.set(`overlay-${k}`, v));
      setSearch(next);
    },
    [search, setSearch],
  );
  const nav: BuilderNav = {
    go,
    done: (boardId) => {
      const path = feedPath(boardId);
      if (path) navigate(path);
      else close();
    },
  };
  return (
    <div className="overlay-body feed-builder-overlay">
      <FeedBuilder params={params} nav={nav} />
    </div>
  );
}
