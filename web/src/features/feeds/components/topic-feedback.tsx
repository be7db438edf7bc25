import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { serverMessage } from '../../../lib/api-client';
import type { CardActionTarget } from '../../../lib/card-actions';
import { useCardScope } from '../../../lib/card-details';
import { boardKeys } from '../../../lib/queries/board-keys';
import { GENERIC_FAILURE, type ToastMeta } from '../../../lib/query-client';
import { boardQueries, giveTopicFeedback } from '../api/feeds-api';

/**
 * "More like this / Less like this" on a card of an AI feed that follows topics: the feed's
 * topics are refined by it on the server, so its documents are fetched again. Shown only on the
 * feed's own page (the card scope names the feed).
 */
export function TopicFeedback({ target }: { target: CardActionTarget }) {
  const { feedId } = useCardScope();
  const board = useQuery({ ...boardQueries.definition(feedId ?? ''), enabled: Boolean(feedId) }).data;
  const queryClient = useQueryClient();
  const feedback = useMutation({
    meta: {
      errorToast: (error) => serverMessage(error) ?? GENERIC_FAILURE,
      successToast: 'Thanks: the feed’s topics take it into account.',
    } satisfies ToastMeta,
    mutationFn: (more: boolean) => giveTopicFeedback(feedId!, target.deeplink, more),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKeys.board(feedId!) }),
  });
  if (!feedId || board?.kind !== 'ai' || board.definition.topics.length === 0) return null;
  return (
    <span className="topic-feedback" role="group" aria-label={`Feedback on ${target.title}`}>
      <button type="button" className="button button-quiet" disabled={feedback.isPending} onClick={() => feedback.mutate(true)}>
        More like this
      </button>
      <button type="button" className="button button-quiet" disabled={feedback.isPending} onClick={() => feedback.mutate(false)}>
        Less like this
      </button>
    </span>
  );
}
