import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Switch } from '../../../../components/ui/switch';
import { TextField } from '../../../../components/ui/text-field';
import { organizationQueries } from '../../../../lib/queries/organization-queries';
import { CREATE_GROUP, type Person } from '../../api/channel-api';
import { failureText } from '../../failure-text';
import { cleanGroupName, groupNameError } from '../../group-name';
import { useCreateChannel } from '../../hooks/use-channel-mutations';
import { publishLabel } from '../../publish';
import { PeoplePicker } from './people-picker';

/**
 * The group settings page for the pseudo group `create group`: a name (the spec's rules, checked
 * here and again by the server, whose refusal shows as it says it), publishing to the
 * organisation when the user may, and the first members. The user becomes the owner.
 */
export function CreateGroupForm() {
  const navigate = useNavigate();
  const organization = useQuery(organizationQueries.self()).data;
  const create = useCreateChannel();
  const [name, setName] = useState('');
  const [publish, setPublish] = useState(false);
  const [members, setMembers] = useState<Person[]>([]);
  const [touched, setTouched] = useState(false);
  const localError = touched ? groupNameError(name) : null;
  const error = localError ?? (create.error ? failureText(create.error) : undefined);
  const canPublish = organization?.permissions.canPublishChannels === true;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (groupNameError(name)) return;
    create.mutate(
      { name: cleanGroupName(name), publish: canPublish && publish, members: members.map((m) => m.user_id) },
      { onSuccess: (channel) => navigate(`/settings/channels/${encodeURIComponent(channel.id)}/members`) },
    );
  };

  return (
    <form className="stack-lg settings-card card" onSubmit={submit} noValidate aria-label="Create a group">
      <h2>Create a group</h2>
      <TextField
        label="Group Name"
        value={name}
        maxLength={120}
        autoFocus
        onChange={(e) => {
          setName(e.target.value);
          create.reset();
        }}
        onBlur={() => setTouched(name.length > 0)}
        error={error ?? undefined}
      />
      {canPublish && organization && (
        <Switch
          label={`Publish to ${publishLabel(organization)}`}
          description="Everyone in the organization sees a published group and its documents."
          checked={publish}
          onChange={setPublish}
        />
      )}
      <fieldset className="stack">
        <legend className="field-label">Members</legend>
        <PeoplePicker channelId={CREATE_GROUP} chosen={members} onChange={setMembers} />
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create group'}
        </button>
      </div>
    </form>
  );
}
