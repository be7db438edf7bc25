import { useMutation, useQueryClient } from '@tanstack/react-query';
import { boardKeys } from '../../../lib/queries/board-keys';
import { GENERIC_FAILURE, type ToastMeta } from '../../../lib/query-client';
import { boardQueries, updateBoard, type FeedDefinition } from '../api/feeds-api';
import { builderReducer, initialBuilderState } from '../builder-state';

/** Returns `definition` with `sourceId` included (`on`) or its filter taken away. */
export function withSource(definition: FeedDefinition, sourceId: string, on: boolean): FeedDefinition {
  return builderReducer(initialBuilderState(definition), { type: 'source.mode', sourceId, mode: on ? 'include' : 'none' }).definition;
}

/**
 * Add to Feeds: includes a card's source in a feed (or takes it out), saving the feed's whole
 * definition. The caller shows the choice at once; on failure it puts it back, and the generic
 * error toast shows (the spec).
 */
export function useAddToFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: GENERIC_FAILURE } satisfies ToastMeta,
    mutationFn: async ({ boardId, sourceId, on }: { boardId: string; sourceId: string; on: boolean }) => {
      const board = await queryClient.fetchQuery(boardQueries.definition(boardId));
      return updateBoard(boardId, withSource(board.definition, sourceId, on));
    },
    onSuccess: (board) => {
      queryClient.setQueryData(boardKeys.definition(board.board_id), board);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: boardKeys.list() }),
        queryClient.invalidateQueries({ queryKey: boardKeys.documents(board.board_id).slice(0, 4) }),
      ]);
    },
  });
}
