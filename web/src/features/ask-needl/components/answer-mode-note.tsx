import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { assistantQueries } from '../../../lib/queries/assistant-queries';

/** Where administrators set the model server. */
export const ASSISTANT_SETTINGS_PATH = '/settings/assistant';

/**
 * Says plainly how answers are made when no language model is configured: they are quoted from
 * the user's sources, not written by a model. Administrators get a link to set one up. Nothing
 * while a model writes answers (or while that is not known).
 */
export function AnswerModeNote() {
  const mode = useQuery(assistantQueries.mode());
  if (mode.data?.mode !== 'quoted') return null;
  return (
    <p className="ask-mode-note small" role="note" data-testid="answer-mode-note">
      Answers are quoted from your sources, not written by a language model: no model is configured.
      {mode.data.can_configure && (
        <>
          {' '}
          <Link to={ASSISTANT_SETTINGS_PATH}>Set up a model server</Link>
        </>
      )}
    </p>
  );
}
