import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog';
import { Switch } from '../../../../components/ui/switch';
import { TextField } from '../../../../components/ui/text-field';
import type { Channel } from '../../api/channel-api';
import { failureText } from '../../failure-text';
import { cleanGroupName, groupNameError } from '../../group-name';
import { useLeaveChannel, useUpdateChannel } from '../../hooks/use-channel-mutations';
import { StarToggle } from '../star-toggle';

/**
 * A group's info: its name (owners rename it), publishing to the organisation (shown by the
 * spec's rule, changed by owners who may publish), the user's star, and leaving the group.
 */
export function GroupInfo({ channel }: { channel: Channel }) {
  const owner = channel.role === 'owner';
  return (
    <div className="stack-lg">
      <section className="card settings-card stack" aria-labelledby="group-name-heading">
        <h3 id="group-name-heading">Name</h3>
        {owner ? <RenameForm channel={channel} /> : <p>{channel.name}</p>}
      </section>
      {channel.show_publish_option && <PublishOption channel={channel} />}
      <section className="card settings-card stack" aria-labelledby="group-you-heading">
        <h3 id="group-you-heading">You in this group</h3>
        <p className="small muted">
          {channel.member ? `You are ${owner ? 'an owner' : 'a member'}.` : 'You see this group because it is published to your organization.'}
        </p>
        <div className="row">
          <StarToggle channelId={channel.id} name={channel.name} starred={channel.starred} />
          <span>{channel.starred ? 'Starred' : 'Not starred'}</span>
        </div>
        {channel.member && <LeaveGroup channel={channel} />}
      </section>
    </div>
  );
}

function RenameForm({ channel }: { channel: Channel }) {
  const update = useUpdateChannel(channel.id);
  const [name, setName] = useState(channel.name);
  const [checked, setChecked] = useState(false);
  const local = checked ? groupNameError(name) : null;
  const error = local ?? (update.error ? failureText(update.error) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (groupNameError(name) || cleanGroupName(name) === channel.name) return;
    update.mutate({ name: cleanGroupName(name) });
  };
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <TextField
        label="Group Name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          update.reset();
        }}
        error={error ?? undefined}
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Rename'}
        </button>
        {update.isSuccess && (
          <span className="small muted" role="status">
            Saved
          </span>
        )}
      </div>
    </form>
  );
}

function PublishOption({ channel }: { channel: Channel }) {
  const update = useUpdateChannel(channel.id);
  const title = channel.publish_title === 'your' ? 'your organization' : channel.publish_title;
  return (
    <section className="card settings-card stack" aria-label="Publishing">
      <Switch
        label={`Publish to ${title}`}
        description={
          channel.role === 'owner'
            ? 'Everyone in the organization sees a published group and its documents; mentions are off in published groups.'
            : 'Only an owner can change this.'
        }
        checked={update.isPending ? Boolean(update.variables?.publish) : channel.publish}
        disabled={channel.role !== 'owner' || update.isPending}
        onChange={(publish) => update.mutate({ publish })}
      />
      {update.error && (
        <p className="field-error" role="alert">
          {failureText(update.error)}
        </p>
      )}
    </section>
  );
}

function LeaveGroup({ channel }: { channel: Channel }) {
  const leave = useLeaveChannel(channel.id);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <div>
        <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
          Leave group
        </button>
      </div>
      {leave.error && (
        <p className="field-error" role="alert">
          {failureText(leave.error)}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Leave ${channel.name}?`}
          confirmLabel="Leave"
          pending={leave.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            leave.mutate(undefined, {
              onSuccess: () => navigate('/settings/channels'),
              onSettled: () => setConfirming(false),
            })
          }
        >
          <p>You will no longer see its documents and comments, unless an owner adds you again.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
