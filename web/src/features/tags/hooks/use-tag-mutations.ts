/** The writes to tags: create, tag a document, rename, delete; each keeps the caches in step. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tagKeys } from '../../../lib/queries/tag-keys';
import {
  createTag,
  deleteTags,
  renameTag,
  tagDocument,
  type DocumentTagIndex,
  type Tag,
  type TagDocumentRequest,
} from '../api/tag-api';
import { TAGS_SAVE_FAILED } from '../messages';
import { withoutDeletedTags, withoutTags, withRenamedTag, withTag } from '../tag-cache';

/** Creates a tag and adds it to the user's tags. The picker shows a failure itself. */
export function useCreateTag() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false },
    mutationFn: (name: string) => createTag(name),
    onSuccess: (tag) => {
      queryClient.setQueryData<Tag[]>(tagKeys.userTags(), (tags) => withTag(tags, tag));
      return queryClient.invalidateQueries({ queryKey: tagKeys.userTags() });
    },
  });
}

/**
 * Sets a document's tags from the picker. The answer is the document's index after the change,
 * so the card shows it at once; lists chosen by tag are fetched again.
 */
export function useSaveDocumentTags() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast: TAGS_SAVE_FAILED },
    mutationFn: (request: TagDocumentRequest) => tagDocument(request),
    onSuccess: (index, { deeplink, channelId }) => {
      queryClient.setQueryData<DocumentTagIndex>(tagKeys.index(deeplink, channelId ?? null), index);
      return queryClient.invalidateQueries({ queryKey: tagKeys.listings() });
    },
  });
}

/** Renames one of the user's tags; every card showing it takes the new name. The page shows a failure. */
export function useRenameTag() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false },
    mutationFn: ({ tagId, name }: { tagId: string; name: string }) => renameTag(tagId, name),
    onSuccess: (tag) => {
      queryClient.setQueryData<Tag[]>(tagKeys.userTags(), (tags) => withTag(tags, tag));
      queryClient.setQueriesData<DocumentTagIndex>({ queryKey: tagKeys.indexes() }, (index) => withRenamedTag(index, tag));
      return queryClient.invalidateQueries({ queryKey: tagKeys.all() });
    },
  });
}

/** Deletes tags of the user; they come off every card, and lists chosen by tag are fetched again. */
export function useDeleteTags() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { toast: false },
    mutationFn: (tagIds: string[]) => deleteTags(tagIds),
    onSuccess: (_answer, tagIds) => {
      queryClient.setQueryData<Tag[]>(tagKeys.userTags(), (tags) => withoutTags(tags, tagIds));
      queryClient.setQueriesData<DocumentTagIndex>({ queryKey: tagKeys.indexes() }, (index) => withoutDeletedTags(index, tagIds));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: tagKeys.all() }),
        queryClient.invalidateQueries({ queryKey: tagKeys.listings() }),
      ]);
    },
  });
}
