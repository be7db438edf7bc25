import { useId, type Dispatch, type FormEvent, type ReactNode } from 'react';
import { TextField } from '../../../components/ui/text-field';
import type { FeedDefinition } from '../api/feeds-api';
import type { BuilderAction } from '../builder-state';
import { FeedPreview } from './feed-preview';

export interface BuilderFormProps {
  heading: string;
  definition: FeedDefinition;
  dispatch: Dispatch<BuilderAction>;
  /** What Save says ("Create feed", "Save changes"). */
  submitLabel: string;
  onSubmit: () => void;
  pending: boolean;
  /** The server's refusal, shown above the button. */
  error: string | null;
  children: ReactNode;
}

/**
 * The frame of the builder's edit pages: name and description, the page's own fields, a live
 * preview of the matches, and the save button with the server's refusal beside it. On a wide
 * panel the preview sits to the right; on a phone it follows the fields.
 */
export function BuilderForm({ heading, definition, dispatch, submitLabel, onSubmit, pending, error, children }: BuilderFormProps) {
  const descriptionId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="feed-builder-form" onSubmit={submit} aria-label={heading} noValidate>
      <div className="feed-builder-fields stack">
        <h2>{heading}</h2>
        <TextField label="Feed name" value={definition.name} maxLength={100} required onChange={(e) => dispatch({ type: 'name.set', name: e.target.value })} />
        <div className="field">
          <label className="field-label" htmlFor={descriptionId}>
            Description
          </label>
          <textarea
            id={descriptionId}
            className="input"
            rows={2}
            maxLength={1000}
            value={definition.description}
            onChange={(e) => dispatch({ type: 'description.set', description: e.target.value })}
          />
        </div>
        {children}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="feed-builder-actions">
          <button type="submit" className="button button-primary" disabled={pending || !definition.name.trim()}>
            {pending ? 'Saving…' : submitLabel}
          </button>
        </div>
      </div>
      <FeedPreview definition={definition} />
    </form>
  );
}
