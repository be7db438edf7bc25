import { useQuery } from '@tanstack/react-query';
import { askNeedlQueries } from '../api/ask-api';
import { AskNeedlChat } from '../chat-context';
import { suggestionSlot } from '../scope';
import { FollowUps } from './follow-ups';

/** An empty conversation's suggested questions: four over everything, two over a feed, none over a document. */
export function Suggestions() {
  const scope = AskNeedlChat.useSelector((s) => s.context.scope);
  const slot = suggestionSlot(scope);
  const suggestions = useQuery({ ...askNeedlQueries.suggestions(), enabled: slot.count > 0 });
  const questions = (suggestions.data?.[slot.key] ?? []).slice(0, slot.count).map((s) => s.question);
  return <FollowUps questions={questions} label="Suggested questions" />;
}
