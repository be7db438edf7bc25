/**
 * The changes a user makes to feeds. Each refreshes the feed list and the feed it touched (its
 * definition and documents) from the key factory; the live socket does the same for other tabs.
 * Those that change how many feeds there are, or how many are on, refresh the plan's numbers too.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ToastMeta } from '../../../lib/query-client';
import { GENERIC_FAILURE } from '../../../lib/query-client';
import { serverMessage } from '../../../lib/api-client';
import { refreshPlanUsage } from '../../../lib/pricing';
import { boardKeys } from '../../../lib/queries/board-keys';
import {
  acceptSuggestions,
  createBoard,
  deleteBoard,
  duplicateBoard,
  enableBoard,
  setBoardAlerts,
  setFeedTemplates,
  shareBoardToChannels,
  undoBoard,
  updateBoard,
  type AlertMode,
  type Board,
  type BoardSummary,
  type FeedDefinition,
  type Priority,
  type TemplateInput,
} from '../api/feeds-api';
import { FEED_CREATED, FEED_DELETED, FEED_DUPLICATED, FEED_RESTORED, FEED_SAVED, FEED_SHARED } from '../messages';

/** The server's words when it gave some, else the generic failure. */
const failure: ToastMeta['errorToast'] = (error) => serverMessage(error) ?? GENERIC_FAILURE;

const refresh = (queryClient: QueryClient, boardId?: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: boardKeys.list() }),
    ...(boardId ? [queryClient.invalidateQueries({ queryKey: boardKeys.board(boardId) })] : []),
  ]);

/** Puts a changed feed in the list at once, until the list refetches. */
const storeInList = (queryClient: QueryClient, board: Board) =>
  queryClient.setQueryData<BoardSummary[]>(boardKeys.list(), (list) =>
    list?.map((b) => (b.board_id === board.board_id ? { ...b, ...board } : b)),
  );

/** Puts new feeds at the head of the list (newest first), until the list refetches. */
const addToList = (queryClient: QueryClient, boards: Board[]) =>
  queryClient.setQueryData<BoardSummary[]>(boardKeys.list(), (list) =>
    list ? [...boards, ...list.filter((b) => !boards.some((n) => n.board_id === b.board_id))] : list,
  );

/** Creates a feed; the builder shows a refusal (keyword, name) beside the form, so no toast. */
export function useCreateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false, successToast: FEED_CREATED } satisfies ToastMeta,
    mutationFn: ({ definition, enabled }: { definition: FeedDefinition; enabled?: boolean }) => createBoard(definition, enabled),
    onSuccess: (board) => {
      // Listed at once: the feed's page, reached next, knows its id by the list.
      addToList(queryClient, [board]);
      return Promise.all([refresh(queryClient, board.board_id), refreshPlanUsage(queryClient)]);
    },
  });
}

/** Saves a whole definition (the feed's history is re-evaluated); refusals show beside the form. */
export function useUpdateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false, successToast: FEED_SAVED } satisfies ToastMeta,
    mutationFn: ({ boardId, definition }: { boardId: string; definition: FeedDefinition }) => updateBoard(boardId, definition),
    onSuccess: (board) => {
      storeInList(queryClient, board);
      queryClient.setQueryData(boardKeys.definition(board.board_id), board);
      return refresh(queryClient, board.board_id);
    },
  });
}

/** Renames a feed: its definition with the new name. */
export function useRenameBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure } satisfies ToastMeta,
    mutationFn: ({ board, name }: { board: Board; name: string }) => updateBoard(board.board_id, { ...board.definition, name }),
    onSuccess: (board) => {
      storeInList(queryClient, board);
      return refresh(queryClient, board.board_id);
    },
  });
}

export function useUndoBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure, successToast: FEED_RESTORED } satisfies ToastMeta,
    mutationFn: (boardId: string) => undoBoard(boardId),
    onSuccess: (board) => {
      storeInList(queryClient, board);
      // The editor starts from the cached definition: it must be the one the undo went back to.
      queryClient.setQueryData(boardKeys.definition(board.board_id), board);
      return refresh(queryClient, board.board_id);
    },
  });
}

/** Turns a feed on or off, at once in the list; back as it was when the server refuses. */
export function useEnableBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure } satisfies ToastMeta,
    mutationFn: ({ boardId, enabled }: { boardId: string; enabled: boolean }) => enableBoard(boardId, enabled),
    onMutate: async ({ boardId, enabled }) => {
      await queryClient.cancelQueries({ queryKey: boardKeys.list() });
      const before = queryClient.getQueryData<BoardSummary[]>(boardKeys.list());
      queryClient.setQueryData<BoardSummary[]>(boardKeys.list(), (list) =>
        list?.map((b) => (b.board_id === boardId ? { ...b, enabled } : b)),
      );
      return { before };
    },
    onError: (_error, _vars, context) => {
      if (context?.before) queryClient.setQueryData(boardKeys.list(), context.before);
    },
    onSettled: (_data, _error, { boardId }) => Promise.all([refresh(queryClient, boardId), refreshPlanUsage(queryClient)]),
  });
}

export function useDuplicateBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure, successToast: FEED_DUPLICATED } satisfies ToastMeta,
    mutationFn: (boardId: string) => duplicateBoard(boardId),
    onSuccess: (board) => {
      addToList(queryClient, [board]);
      return Promise.all([refresh(queryClient), refreshPlanUsage(queryClient)]);
    },
  });
}

export function useDeleteBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure, successToast: FEED_DELETED } satisfies ToastMeta,
    mutationFn: (boardId: string) => deleteBoard(boardId),
    onSuccess: (_data, boardId) => {
      queryClient.setQueryData<BoardSummary[]>(boardKeys.list(), (list) => list?.filter((b) => b.board_id !== boardId));
      queryClient.removeQueries({ queryKey: boardKeys.board(boardId) });
      return Promise.all([refresh(queryClient), refreshPlanUsage(queryClient)]);
    },
  });
}

export function useSetBoardAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure } satisfies ToastMeta,
    mutationFn: ({ boardId, alerts, priority }: { boardId: string; alerts: AlertMode; priority: Priority }) =>
      setBoardAlerts(boardId, alerts, priority),
    onSuccess: (board) => {
      storeInList(queryClient, board);
      return refresh(queryClient, board.board_id);
    },
  });
}

export function useShareBoard() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure, successToast: FEED_SHARED } satisfies ToastMeta,
    mutationFn: ({ boardId, channelIds }: { boardId: string; channelIds: string[] }) => shareBoardToChannels(boardId, channelIds),
    onSuccess: (_data, { boardId }) => refresh(queryClient, boardId),
  });
}

export function useAcceptSuggestions() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure } satisfies ToastMeta,
    mutationFn: (suggestionIds: string[]) => acceptSuggestions(suggestionIds),
    onSuccess: (boards) => {
      addToList(queryClient, boards);
      return Promise.all([
        refresh(queryClient),
        queryClient.invalidateQueries({ queryKey: boardKeys.suggestions() }),
        refreshPlanUsage(queryClient),
      ]);
    },
  });
}

/** Saves the instance's own templates as a whole list (administrators); the server's refusal shows as a toast. */
export function useSetFeedTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: failure } satisfies ToastMeta,
    mutationFn: (templates: TemplateInput[]) => setFeedTemplates(templates),
    onSuccess: (templates) => queryClient.setQueryData(boardKeys.templates(), templates),
  });
}
