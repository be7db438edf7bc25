import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { usePlanCheck } from '../../../lib/pricing';
import { boardQueries } from '../api/feeds-api';
import { useUndoBoard } from '../hooks/use-feed-mutations';
import { useOpenBuilder } from '../hooks/use-open-builder';
import { PlanNotice } from './plan-notice';

/** A feed's sub-tabs: its documents (all), links, media, web clips, and its comments. */
export const FEED_TABS = [
  { key: 'documents', label: 'Documents' },
  { key: 'links', label: 'Links' },
  { key: 'media', label: 'Media' },
  { key: 'webclips', label: 'Web clips' },
  { key: 'comments', label: 'Comments' },
] as const;

export type FeedTab = (typeof FEED_TABS)[number]['key'];

export const feedTabOf = (subCategory: string | undefined): FeedTab =>
  FEED_TABS.find((t) => t.key === subCategory)?.key ?? 'documents';

const enc = encodeURIComponent;

/**
 * A feed's pages around their content: its name and description, Edit (the builder on
 * edit-feed), Undo after a definition change, and the sub-tabs. The plan must include viewing
 * feeds.
 */
export function FeedFrame({ boardId, children }: { boardId: string; children: ReactNode }) {
  const boards = useQuery(boardQueries.list());
  const openBuilder = useOpenBuilder();
  const undo = useUndoBoard();
  const plan = usePlanCheck('view_myfeeds');
  if (plan.status === 'ineligible') return <PlanNotice prompt={plan} what="Viewing your feeds" />;
  if (boards.isPending || plan.status === 'checking') return <Spinner label="Loading the feed" />;
  const board = boards.data?.find((b) => b.board_id === boardId);
  if (!board) {
    return (
      <EmptyState title="Feed not found">
        <p>It does not exist, or it is not yours.</p>
      </EmptyState>
    );
  }
  const base = `/feeds/${enc(boardId)}`;
  return (
    <div className="page-narrow stack-lg feed-page">
      <div className="channel-bar feed-bar">
        <div className="feed-facts">
          {board.description && <p className="muted">{board.description}</p>}
          {!board.enabled && <p className="small muted">This feed is off: it is not listed or alerted on.</p>}
        </div>
        <div className="feed-bar-actions">
          {board.can_undo && (
            <button type="button" className="button button-quiet" disabled={undo.isPending} onClick={() => undo.mutate(boardId)}>
              Undo last change
            </button>
          )}
          <button
            type="button"
            className="button"
            onClick={() => openBuilder(board.kind === 'ai' ? 'edit-ai-feed' : 'edit-feed', { 'board-id': boardId })}
          >
            Edit feed<span className="visually-hidden"> {board.board_name}</span>
          </button>
        </div>
      </div>
      <nav className="tabs" aria-label="Feed views">
        <ul className="tabs-list">
          {FEED_TABS.map((tab) => (
            <li key={tab.key}>
              <NavLink end to={tab.key === 'documents' ? base : `${base}/${tab.key}`} className="tab-link">
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </div>
  );
}
