import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { serverMessage } from '../../../lib/api-client';
import { GENERIC_FAILURE } from '../../../lib/query-client';
import { boardQueries, type FeedTemplate } from '../api/feeds-api';
import type { BuilderNav } from '../builder-pages';
import { useCreateBoard } from '../hooks/use-feed-mutations';
import { DefinitionSummary } from './definition-summary';

/** One template by id, with loading, error and not-available states around `children`. */
export function OneTemplate({ templateId, children }: { templateId?: string; children: (template: FeedTemplate) => ReactNode }) {
  const templates = useQuery(boardQueries.templates());
  return (
    <ListState
      query={templates}
      loadingLabel="Loading the template"
      errorTitle="Templates could not be loaded"
      isEmpty={(list) => !list.some((t) => t.id === templateId)}
      emptyTitle="This template is not available"
    >
      {(list) => children(list.find((t) => t.id === templateId)!)}
    </ListState>
  );
}

/** feed-template-readonly: a template as it is; create it as is, or customize it first. */
export function TemplateReadonlyPage({ templateId, nav }: { templateId?: string; nav: BuilderNav }) {
  const create = useCreateBoard();
  return (
    <OneTemplate templateId={templateId}>
      {(t) => {
        return (
          <section className="stack" aria-labelledby="template-heading">
            <h2 id="template-heading">{t.name}</h2>
            {t.description && <p className="muted">{t.description}</p>}
            <DefinitionSummary definition={t.definition} />
            {create.error && (
              <p className="form-error" role="alert">
                {serverMessage(create.error) ?? GENERIC_FAILURE}
              </p>
            )}
            <div className="feed-builder-actions">
              <button type="button" className="button" onClick={() => nav.go('feed-template-customize', { 'template-id': t.id })}>
                Customize
              </button>
              <button
                type="button"
                className="button button-primary"
                disabled={create.isPending}
                onClick={() =>
                  create.mutate(
                    { definition: { ...t.definition, name: t.definition.name || t.name } },
                    { onSuccess: (board) => nav.done(board.board_id) },
                  )
                }
              >
                Create this feed
              </button>
            </div>
          </section>
        );
      }}
    </OneTemplate>
  );
}

