import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { ListState } from '../../../components/ui/list-state';
import { useSession } from '../../../lib/use-session';
import { boardQueries, type FeedTemplate, type TemplateInput } from '../api/feeds-api';
import { useSetFeedTemplates } from '../hooks/use-feed-mutations';

/** The templates as saved: each keeps its id, so the server records a change, not a new one. */
const asInputs = (templates: FeedTemplate[]): TemplateInput[] =>
  templates.map((t) => ({ id: t.id, definition: t.definition }));

/**
 * For administrators, on /settings/feeds: the templates this instance offers every member in the
 * feed builder ("Start from a template"), above the built-in ones. A feed of the administrator's
 * own becomes a template; templates are ordered and removed here. Members do not see the section.
 */
export function FeedTemplatesSection() {
  const { user } = useSession();
  if (!user?.is_admin) return null;
  return <TemplatesForAdmins />;
}

function TemplatesForAdmins() {
  const templates = useQuery(boardQueries.templates());
  const save = useSetFeedTemplates();
  const own = (templates.data ?? []).filter((t) => t.kind === 'organization');

  const move = (index: number, by: -1 | 1) => {
    const next = [...own];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved);
    save.mutate(asInputs(next));
  };
  const remove = (id: string) => save.mutate(asInputs(own.filter((t) => t.id !== id)));

  return (
    <section className="stack feed-templates-admin" aria-labelledby="feed-templates-heading">
      <header>
        <h2 id="feed-templates-heading">Templates for everyone</h2>
        <p className="small muted">
          Offered to every member of this instance when they make a feed, before the built-in templates.
        </p>
      </header>
      <ListState
        query={templates}
        compact
        loadingLabel="Loading templates"
        errorTitle="Templates could not be loaded"
        isEmpty={() => own.length === 0}
        emptyTitle="No templates of your own yet."
        emptyHint="Offer one of your feeds below."
      >
        {() => (
          <ol className="feed-template-admin-list" aria-label="Templates for everyone">
            {own.map((t, i) => (
              <li key={t.id} className="card feed-template-admin-row">
                <div>
                  <strong>{t.name}</strong>
                  {t.description && <p className="small muted">{t.description}</p>}
                </div>
                <div className="feed-settings-actions">
                  <button
                    type="button"
                    className="button button-quiet button-small"
                    disabled={i === 0 || save.isPending}
                    onClick={() => move(i, -1)}
                    aria-label={`Move ${t.name} up`}
                  >
                    <ArrowUp aria-hidden="true" size={16} />
                  </button>
                  <button
                    type="button"
                    className="button button-quiet button-small"
                    disabled={i === own.length - 1 || save.isPending}
                    onClick={() => move(i, 1)}
                    aria-label={`Move ${t.name} down`}
                  >
                    <ArrowDown aria-hidden="true" size={16} />
                  </button>
                  <button
                    type="button"
                    className="button button-quiet button-small button-danger-text"
                    disabled={save.isPending}
                    onClick={() => remove(t.id)}
                    aria-label={`Stop offering ${t.name}`}
                  >
                    Remove
                  </button>
                </div>
              </li>
            ))}
          </ol>
        )}
      </ListState>
      <OfferFeed own={own} />
    </section>
  );
}

/** Picks one of the administrator's feeds and adds its definition as the last template. */
function OfferFeed({ own }: { own: FeedTemplate[] }) {
  const boards = useQuery(boardQueries.list());
  const queryClient = useQueryClient();
  const save = useSetFeedTemplates();
  const [boardId, setBoardId] = useState('');
  const [failed, setFailed] = useState(false);
  const id = useId();
  const list = boards.data ?? [];
  if (list.length === 0) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailed(false);
    const chosen = boardId || list[0].board_id;
    const full = await queryClient.fetchQuery(boardQueries.definition(chosen)).catch(() => null);
    if (!full) return setFailed(true);
    save.mutate([...asInputs(own), { definition: full.definition }]);
  };

  return (
    <form className="feed-template-offer" onSubmit={(e) => void submit(e)}>
      <label htmlFor={id}>Offer one of your feeds as a template</label>
      <div className="feed-template-offer-row">
        <select id={id} className="input" value={boardId || list[0].board_id} onChange={(e) => setBoardId(e.target.value)}>
          {list.map((b) => (
            <option key={b.board_id} value={b.board_id}>
              {b.board_name}
            </option>
          ))}
        </select>
        <button type="submit" className="button" disabled={save.isPending}>
          Offer as template
        </button>
      </div>
      {failed && (
        <p className="form-error" role="alert">
          That feed could not be read. Try again.
        </p>
      )}
    </form>
  );
}
