import { ListState } from '../../../components/ui/list-state';
import { serverMessage } from '../../../lib/api-client';
import type { ChainStatus, Checkpoint } from '../api/audit-api';
import { shortHash } from '../audit-format';
import { useChain } from '../hooks/use-chain';
import { CopyButton } from './copy-button';
import { When } from './when';

/** How many checkpoints the panel lists, newest first. */
const RECENT_CHECKPOINTS = 5;

const STATUS_TEXT: Record<ChainStatus['status'], string> = {
  intact: 'Intact',
  broken: 'Broken',
  empty: 'Empty',
};

/**
 * The hash chain over the event log: whether it was intact when last verified, the ways to verify
 * it again and to sign a checkpoint at its head, and the recent checkpoints.
 */
export function ChainPanel() {
  const { chain, verify, checkpoint } = useChain();
  const failure = verify.error ?? checkpoint.error;
  return (
    <section className="card audit-chain" aria-labelledby="audit-chain-heading">
      <h2 id="audit-chain-heading" className="card-title">
        Hash chain
      </h2>
      <ListState query={chain} loadingLabel="Checking the chain" errorTitle="The chain's status could not be loaded" compact>
        {(status) => (
          <div className="stack">
            <ChainSummary status={status} />
            <div className="audit-chain-actions">
              <button type="button" className="button" disabled={verify.isPending} onClick={() => verify.mutate()}>
                {verify.isPending ? 'Verifying…' : 'Verify now'}
              </button>
              <button type="button" className="button" disabled={checkpoint.isPending} onClick={() => checkpoint.mutate()}>
                {checkpoint.isPending ? 'Creating…' : 'Create checkpoint'}
              </button>
              <span className="small muted" role="status">
                {checkpoint.isSuccess ? `Checkpoint created at position ${checkpoint.data.position}.` : ''}
              </span>
            </div>
            {failure && (
              <p className="form-error" role="alert">
                {verify.error ? 'The chain could not be verified.' : 'The checkpoint could not be created.'}{' '}
                {serverMessage(failure) ?? 'Try again in a moment.'}
              </p>
            )}
            <Checkpoints checkpoints={status.checkpoints} />
          </div>
        )}
      </ListState>
    </section>
  );
}

function ChainSummary({ status }: { status: ChainStatus }) {
  return (
    <div className="stack">
      <p className="audit-chain-status">
        <span className="audit-badge" data-status={status.status}>
          {STATUS_TEXT[status.status]}
        </span>{' '}
        {status.status === 'empty' ? (
          'No events yet, so nothing to check.'
        ) : (
          <>
            {status.events_checked.toLocaleString()} {status.events_checked === 1 ? 'event' : 'events'} checked, verified{' '}
            <When instant={status.verified_at} />.
          </>
        )}
      </p>
      {status.first_break && (
        <p className="form-error" role="alert">
          The chain breaks at position {status.first_break.position}: {status.first_break.reason}. Events from there on may have been
          changed outside Needl; compare with a backup or an earlier checkpoint.
        </p>
      )}
      {status.head && (
        <p className="small">
          Head: position {status.head.position}, hash <code title={status.head.hash}>{shortHash(status.head.hash)}</code>{' '}
          <CopyButton text={status.head.hash} label="Copy the head hash" />
        </p>
      )}
    </div>
  );
}

function Checkpoints({ checkpoints }: { checkpoints: Checkpoint[] }) {
  if (!checkpoints.length) return <p className="small muted">No checkpoints yet. A checkpoint signs the chain's head, so later changes show.</p>;
  const recent = [...checkpoints].sort((a, b) => b.position - a.position).slice(0, RECENT_CHECKPOINTS);
  return (
    <table className="table audit-checkpoints">
      <caption className="audit-caption">Recent checkpoints</caption>
      <thead>
        <tr>
          <th scope="col">Position</th>
          <th scope="col">Created</th>
          <th scope="col">Hash</th>
          <th scope="col">Signature</th>
        </tr>
      </thead>
      <tbody>
        {recent.map((c) => (
          <tr key={`${c.position}-${c.hash}`}>
            <td data-label="Position" className="numeric">
              {c.position}
            </td>
            <td data-label="Created">
              <When instant={c.created_at} />
            </td>
            <td data-label="Hash">
              <code title={c.hash}>{shortHash(c.hash)}</code> <CopyButton text={c.hash} label={`Copy the hash at position ${c.position}`} />
            </td>
            <td data-label="Signature">
              {c.signature ? (
                <>
                  <code title={c.public_key ? `Signed with key ${c.public_key}` : c.signature}>{shortHash(c.signature)}</code>{' '}
                  <CopyButton text={c.signature} label={`Copy the signature at position ${c.position}`} />
                </>
              ) : (
                <span className="muted">Not signed</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
