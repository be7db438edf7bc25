import { useQuery } from '@tanstack/react-query';
import { useReducer } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { serverMessage } from '../../../lib/api-client';
import { GENERIC_FAILURE } from '../../../lib/query-client';
import { boardQueries, emptyDefinition, type Board, type FeedDefinition } from '../api/feeds-api';
import type { BuilderNav } from '../builder-pages';
import { builderReducer, initialBuilderState } from '../builder-state';
import { useCreateBoard, useUpdateBoard } from '../hooks/use-feed-mutations';
import { AiFeedFields } from './ai-feed-fields';
import { BuilderForm } from './builder-form';
import type { AiFocus } from './feed-builder';
import { KeywordEditor } from './keyword-editor';
import { SourceFilters } from './source-filters';
import { OneTemplate } from './template-pages';

const failureText = (error: unknown) => (error ? (serverMessage(error) ?? GENERIC_FAILURE) : null);
const isAi = (definition: FeedDefinition) => definition.type !== 'keyword';

interface EditorProps {
  title: string;
  initial: FeedDefinition;
  submitLabel: string;
  onSave: (definition: FeedDefinition) => void;
  pending: boolean;
  error: unknown;
  aiFocus?: AiFocus;
}

/** The builder's editor over one draft: keyword feeds get keywords and sources, AI feeds companies and topics too. */
function Editor({ title, initial, submitLabel, onSave, pending, error, aiFocus }: EditorProps) {
  const [state, dispatch] = useReducer(builderReducer, initial, initialBuilderState);
  const { definition } = state;
  const ai = isAi(definition);
  const keywords = <KeywordEditor definition={definition} view={state.keywordView} dispatch={dispatch} />;
  return (
    <BuilderForm
      heading={title}
      definition={definition}
      dispatch={dispatch}
      submitLabel={submitLabel}
      onSubmit={() => onSave(definition)}
      pending={pending}
      error={failureText(error)}
    >
      {ai && aiFocus !== 'topics' && <AiFeedFields definition={definition} dispatch={dispatch} />}
      {keywords}
      {ai && aiFocus === 'topics' && <AiFeedFields definition={definition} dispatch={dispatch} />}
      <details className="feed-advanced" open={Object.keys(definition.sources).length > 0 || definition.date_range !== null}>
        <summary>Sources and dates</summary>
        <SourceFilters definition={definition} dispatch={dispatch} />
      </details>
    </BuilderForm>
  );
}

/** create-feed and create-ai-feed: a new draft (a search may seed its first keyword). */
export function CreatePage({ kind, seed, aiFocus, nav, title }: { kind: 'keyword' | 'ai'; seed?: string; aiFocus?: AiFocus; nav: BuilderNav; title: string }) {
  const create = useCreateBoard();
  const initial = emptyDefinition(kind);
  if (seed?.trim()) initial.keywords.include.push({ keyword: seed.trim(), valid: true });
  return (
    <Editor
      title={title}
      initial={initial}
      submitLabel="Create feed"
      aiFocus={aiFocus}
      pending={create.isPending}
      error={create.error}
      onSave={(definition) => create.mutate({ definition }, { onSuccess: (board) => nav.done(board.board_id) })}
    />
  );
}

/** edit-feed and edit-ai-feed: the feed's saved definition; saving re-evaluates its history. */
export function EditPage({ boardId, nav, title }: { boardId?: string; nav: BuilderNav; title: string }) {
  const board = useQuery({ ...boardQueries.definition(boardId ?? ''), enabled: Boolean(boardId) });
  const update = useUpdateBoard();
  if (!boardId) return <p className="form-error" role="alert">No feed was named to edit.</p>;
  return (
    <ListState query={board} loadingLabel="Loading the feed" errorTitle="The feed could not be loaded">
      {(data: Board) => (
        <Editor
          key={data.board_id}
          title={title}
          initial={data.definition}
          submitLabel="Save changes"
          pending={update.isPending}
          error={update.error}
          onSave={(definition) => update.mutate({ boardId, definition }, { onSuccess: () => nav.done(boardId) })}
        />
      )}
    </ListState>
  );
}

/** feed-template-customize: a template's definition as a new draft. */
export function TemplateCustomizePage({ templateId, nav, title }: { templateId?: string; nav: BuilderNav; title: string }) {
  const create = useCreateBoard();
  return (
    <OneTemplate templateId={templateId}>
      {(template) => {
        return (
          <Editor
            key={template.id}
            title={title}
            initial={{ ...template.definition, name: template.definition.name || template.name }}
            submitLabel="Create feed"
            pending={create.isPending}
            error={create.error}
            onSave={(definition) => create.mutate({ definition }, { onSuccess: (board) => nav.done(board.board_id) })}
          />
        );
      }}
    </OneTemplate>
  );
}
