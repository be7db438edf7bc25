import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ListState } from '../../../components/ui/list-state';
import { Popover } from '../../../components/ui/popover';
import { Switch } from '../../../components/ui/switch';
import { formatDate } from '../../../lib/format';
import { showPlanPrompt } from '../../../lib/plan-prompts';
import { usePlanCheck } from '../../../lib/pricing';
import { ALERT_MODES, boardQueries, channelChoiceQueries, PRIORITIES, type AlertMode, type BoardSummary, type Priority } from '../api/feeds-api';
import {
  useDeleteBoard,
  useDuplicateBoard,
  useEnableBoard,
  useRenameBoard,
  useSetBoardAlerts,
  useShareBoard,
} from '../hooks/use-feed-mutations';

const ALERT_LABEL: Record<AlertMode, string> = { off: 'Off', immediate: 'Immediately', digest: 'Daily digest' };
const PRIORITY_LABEL: Record<Priority, string> = { HIGH: 'High', MEDIUM: 'Medium', LOW: 'Low' };

/** One feed in the settings list with everything the user can do to it. */
export function FeedSettingsRow({ board }: { board: BoardSummary }) {
  const enable = useEnableBoard();
  const canEnable = usePlanCheck('enable_feed');
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const duplicate = useDuplicateBoard();
  const remove = useDeleteBoard();
  const name = board.board_name;

  const toggle = (on: boolean) => {
    if (on && canEnable.status === 'ineligible') return showPlanPrompt(canEnable);
    enable.mutate({ boardId: board.board_id, enabled: on });
  };

  return (
    <li className="feed-settings-row card" data-testid="feed-settings-row">
      <div className="feed-settings-main">
        {renaming ? (
          <RenameForm board={board} onDone={() => setRenaming(false)} />
        ) : (
          <div>
            <Link to={`/feeds/${encodeURIComponent(board.board_id)}`} className="feed-settings-name">
              {name}
            </Link>
            {board.isNew && <span className="badge">New</span>}
            <p className="small muted">
              {board.kind === 'ai' ? 'AI feed' : 'Keyword feed'} · created {formatDate(board.created_at)}
              {board.channels.length > 0 && ` · shared in ${board.channels.map((c) => c.name).join(', ')}`}
            </p>
            {board.description && <p className="small">{board.description}</p>}
          </div>
        )}
        <Switch label={`${name} enabled`} checked={board.enabled} disabled={canEnable.status === 'checking'} onChange={toggle} />
      </div>
      <AlertControls board={board} />
      <div className="feed-settings-actions">
        <button type="button" className="button button-quiet button-small" onClick={() => setRenaming(true)} aria-label={`Rename ${name}`}>
          Rename
        </button>
        <button
          type="button"
          className="button button-quiet button-small"
          disabled={duplicate.isPending}
          onClick={() => duplicate.mutate(board.board_id)}
          aria-label={`Duplicate ${name}`}
        >
          Duplicate
        </button>
        <ShareFeed board={board} />
        <button type="button" className="button button-quiet button-small button-danger-text" onClick={() => setDeleting(true)} aria-label={`Delete ${name}`}>
          Delete
        </button>
      </div>
      {deleting && (
        <ConfirmDialog
          title={`Delete ${name}?`}
          confirmLabel="Delete feed"
          pending={remove.isPending}
          onCancel={() => setDeleting(false)}
          onConfirm={() => remove.mutate(board.board_id, { onSettled: () => setDeleting(false) })}
        >
          <p>The feed and its settings go; the documents it showed stay where they are.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}

function RenameForm({ board, onDone }: { board: BoardSummary; onDone: () => void }) {
  const queryClient = useQueryClient();
  const rename = useRenameBoard();
  const [name, setName] = useState(board.board_name);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = name.trim();
    if (!next || next === board.board_name) return onDone();
    // The name is part of the definition: the whole definition is saved with the new name.
    const full = await queryClient.fetchQuery(boardQueries.definition(board.board_id)).catch(() => null);
    if (!full) return;
    rename.mutate({ board: full, name: next }, { onSuccess: onDone });
  };
  return (
    <form className="feed-rename" onSubmit={(e) => void submit(e)}>
      <label htmlFor={id} className="visually-hidden">
        New name for {board.board_name}
      </label>
      <input
        id={id}
        className="input"
        value={name}
        maxLength={100}
        autoFocus
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      <button type="submit" className="button button-small" disabled={rename.isPending || !name.trim()}>
        Save
      </button>
      <button type="button" className="button button-quiet button-small" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

function AlertControls({ board }: { board: BoardSummary }) {
  const set = useSetBoardAlerts();
  const alertsId = useId();
  const priorityId = useId();
  const change = (alerts: AlertMode, priority: Priority) => set.mutate({ boardId: board.board_id, alerts, priority });
  return (
    <div className="feed-alerts">
      <label htmlFor={alertsId} className="small">
        Alerts
      </label>
      <select id={alertsId} className="input input-small" value={board.alerts} disabled={set.isPending} onChange={(e) => change(e.target.value as AlertMode, board.priority)}>
        {ALERT_MODES.map((m) => (
          <option key={m} value={m}>
            {ALERT_LABEL[m]}
          </option>
        ))}
      </select>
      <label htmlFor={priorityId} className="small">
        Priority
      </label>
      <select id={priorityId} className="input input-small" value={board.priority} disabled={set.isPending} onChange={(e) => change(board.alerts, e.target.value as Priority)}>
        {PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {PRIORITY_LABEL[p]}
          </option>
        ))}
      </select>
    </div>
  );
}

function ShareFeed({ board }: { board: BoardSummary }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="Share to group"
      triggerLabel={`Share ${board.board_name} to a group`}
      triggerClassName="button button-quiet button-small"
      title={`Share ${board.board_name} to a group`}
      open={open}
      onOpenChange={setOpen}
    >
      <ShareChoices board={board} />
    </Popover>
  );
}

function ShareChoices({ board }: { board: BoardSummary }) {
  const owned = useQuery(channelChoiceQueries.owned());
  const share = useShareBoard();
  const sharedIn = new Set(board.channels.map((c) => c.id));
  return (
    <ListState
      query={owned}
      compact
      loadingLabel="Loading groups"
      errorTitle="Groups could not be loaded"
      isEmpty={(list) => list.length === 0}
      emptyTitle="You own no groups yet."
    >
      {(list) => (
        <ul className="group-choices" aria-label="Groups you own">
          {list.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="button button-quiet group-choice"
                disabled={sharedIn.has(c.id) || share.isPending}
                onClick={() => share.mutate({ boardId: board.board_id, channelIds: [c.id] })}
              >
                {c.name}
                {sharedIn.has(c.id) && <span className="small muted"> — shared</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </ListState>
  );
}
