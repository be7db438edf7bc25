import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ListState } from '../../../../components/ui/list-state';
import { TextField } from '../../../../components/ui/text-field';
import { formatDate } from '../../../../lib/format';
import { channelQueries, type Board, type Channel } from '../../api/channel-api';
import { failureText } from '../../failure-text';
import { useShareBoard, useUnshareBoard } from '../../hooks/use-channel-mutations';

/** The feeds shared into a group; owners share a keyword feed into it and take feeds out. */
export function GroupFeeds({ channel }: { channel: Channel }) {
  const boards = useQuery(channelQueries.boards(channel.id));
  const owner = channel.role === 'owner';
  return (
    <div className="stack-lg">
      <section className="card settings-card stack" aria-labelledby="feeds-heading">
        <h3 id="feeds-heading">Shared feeds</h3>
        <ListState
          query={boards}
          compact
          loadingLabel="Loading feeds"
          errorTitle="Feeds could not be loaded"
          isEmpty={(list) => list.length === 0}
          emptyTitle="No feeds found!"
        >
          {(list) => (
            <ul className="member-list" aria-label="Shared feeds">
              {list.map((board) => (
                <FeedRow key={board.board_id} channelId={channel.id} board={board} manage={owner} />
              ))}
            </ul>
          )}
        </ListState>
      </section>
      {owner && <ShareFeedForm channelId={channel.id} />}
    </div>
  );
}

function FeedRow({ channelId, board, manage }: { channelId: string; board: Board; manage: boolean }) {
  const unshare = useUnshareBoard(channelId);
  const description = typeof board.definition.description === 'string' ? board.definition.description : '';
  return (
    <li className="member-row" data-testid="feed-row">
      <span className="member-name">
        {board.board_name}
        {board.isNew && <span className="badge">New</span>}
        {description && <span className="small muted"> — {description}</span>}
      </span>
      <span className="small muted">shared {formatDate(board.created_at)}</span>
      {manage && (
        <button type="button" className="button button-quiet" disabled={unshare.isPending} onClick={() => unshare.mutate(board.board_id)}>
          Remove<span className="visually-hidden"> {board.board_name}</span>
        </button>
      )}
    </li>
  );
}

function ShareFeedForm({ channelId }: { channelId: string }) {
  const share = useShareBoard(channelId);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [keywords, setKeywords] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = keywords.split(',').map((k) => k.trim()).filter(Boolean);
    share.mutate(
      { name: name.trim(), description: description.trim(), keywords: list },
      {
        onSuccess: () => {
          setName('');
          setDescription('');
          setKeywords('');
        },
      },
    );
  };
  return (
    <form className="card settings-card stack" onSubmit={submit} aria-labelledby="share-feed-heading" noValidate>
      <h3 id="share-feed-heading">Share a feed into this group</h3>
      <TextField label="Feed name" value={name} onChange={(e) => setName(e.target.value)} required />
      <TextField label="Description" value={description} onChange={(e) => setDescription(e.target.value)} />
      <TextField
        label="Keywords (comma separated)"
        value={keywords}
        onChange={(e) => setKeywords(e.target.value)}
        placeholder='e.g. "interest rates", inflation'
      />
      {share.error && (
        <p className="field-error" role="alert">
          {failureText(share.error)}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={share.isPending}>
          {share.isPending ? 'Sharing…' : 'Share feed'}
        </button>
      </div>
    </form>
  );
}
