import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog';
import { ListState } from '../../../../components/ui/list-state';
import { userQueries } from '../../../../lib/queries/user-queries';
import { channelQueries, type Channel, type Member, type Person, type Role } from '../../api/channel-api';
import { failureText } from '../../failure-text';
import { useAddMembers, useChangeRole, useRemoveMember } from '../../hooks/use-channel-mutations';
import { PeoplePicker } from './people-picker';

/** A group's members, owners first; owners change roles, remove members and add people. */
export function GroupMembers({ channel }: { channel: Channel }) {
  const members = useQuery(channelQueries.members(channel.id));
  const owner = channel.role === 'owner';
  return (
    <div className="stack-lg">
      <section className="card settings-card stack" aria-labelledby="members-heading">
        <h3 id="members-heading">Members</h3>
        <ListState query={members} compact loadingLabel="Loading members" errorTitle="Members could not be loaded">
          {(list) => (
            <ul className="member-list" aria-label="Members">
              {list.map((member) => (
                <MemberRow key={member.user_id} channelId={channel.id} member={member} manage={owner} />
              ))}
            </ul>
          )}
        </ListState>
      </section>
      {owner && <AddMembers channelId={channel.id} />}
    </div>
  );
}

function MemberRow({ channelId, member, manage }: { channelId: string; member: Member; manage: boolean }) {
  const self = useQuery(userQueries.profile()).data?.id;
  const role = useChangeRole(channelId);
  const remove = useRemoveMember(channelId);
  const [confirming, setConfirming] = useState(false);
  const error = role.error ?? remove.error;
  const name = member.username || 'Someone';
  return (
    <li className="member-row" data-testid="member-row">
      <span className="member-name">
        {name}
        {member.user_id === self && <span className="small muted"> (you)</span>}
      </span>
      {manage ? (
        <>
          <label className="visually-hidden" htmlFor={`role-${member.user_id}`}>
            Role of {name}
          </label>
          <select
            id={`role-${member.user_id}`}
            className="input member-role"
            value={role.isPending ? role.variables.role : member.role}
            disabled={role.isPending}
            onChange={(e) => role.mutate({ userId: member.user_id, role: e.target.value as Role })}
          >
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </select>
          <button type="button" className="button button-quiet" onClick={() => setConfirming(true)}>
            Remove<span className="visually-hidden"> {name}</span>
          </button>
        </>
      ) : (
        <span className="small muted">{member.role === 'owner' ? 'Owner' : 'Member'}</span>
      )}
      {error && (
        <p className="field-error member-error" role="alert">
          {failureText(error)}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Remove ${name}?`}
          confirmLabel="Remove"
          pending={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate(member.user_id, { onSettled: () => setConfirming(false) })}
        >
          <p>They will no longer see the group's documents and comments.</p>
        </ConfirmDialog>
      )}
    </li>
  );
}

function AddMembers({ channelId }: { channelId: string }) {
  const add = useAddMembers(channelId);
  const [chosen, setChosen] = useState<Person[]>([]);
  const [role, setRole] = useState<Role>('member');
  return (
    <section className="card settings-card stack" aria-labelledby="add-members-heading">
      <h3 id="add-members-heading">Add members</h3>
      <PeoplePicker channelId={channelId} chosen={chosen} onChange={setChosen} />
      <div className="form-actions">
        <label className="field-label" htmlFor="add-role">
          As
        </label>
        <select id="add-role" className="input member-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
          <option value="member">Members</option>
          <option value="owner">Owners</option>
        </select>
        <button
          type="button"
          className="button button-primary"
          disabled={chosen.length === 0 || add.isPending}
          onClick={() => add.mutate({ userIds: chosen.map((p) => p.user_id), role }, { onSuccess: () => setChosen([]) })}
        >
          {add.isPending ? 'Adding…' : `Add ${chosen.length || ''}`.trim()}
        </button>
      </div>
    </section>
  );
}
