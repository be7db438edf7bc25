import { useMutation } from '@tanstack/react-query';
import { copyText } from '../../../lib/clipboard';
import { notify } from '../../../lib/notices';
import { shareDocument, type DocumentCard } from '../api/document-api';
import { shareLink } from '../document-display';

export const LINK_COPIED = 'Link copied to clipboard';
export const COPY_BY_HAND = 'The link could not be copied. Copy it from here:';
/** How long the link stays on screen when it has to be copied by hand. */
export const COPY_BY_HAND_MS = 8000;

export interface ShareTarget {
  doc: Pick<DocumentCard, 'deeplink' | 'source'>;
  /** The preview's category the link opens in. */
  category?: string;
}

/**
 * Makes a shared link for a document (`share=true`), puts it on the clipboard and says so. When
 * the browser refuses to copy, the link is shown for copying by hand. A failed call, or an
 * answer without a key, reaches the generic error toast through the mutation cache.
 */
export function useShareDocument(origin: string = window.location.origin) {
  return useMutation({
    mutationFn: async ({ doc, category }: ShareTarget) => {
      const key = await shareDocument(doc.source, doc.deeplink);
      if (!key) throw new Error('the server gave no public access key');
      const link = shareLink(origin, doc, key, category);
      const copied = await copyText(link).then(
        () => true,
        () => false,
      );
      return { link, copied };
    },
    onSuccess: ({ link, copied }) =>
      notify(
        copied
          ? { type: 'success', message: LINK_COPIED }
          : { type: 'blank', message: `${COPY_BY_HAND} ${link}`, duration: COPY_BY_HAND_MS },
      ),
  });
}
