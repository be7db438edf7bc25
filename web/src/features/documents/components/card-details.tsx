import { useCardDetails } from '../../../lib/card-details';
import type { DocumentCard } from '../api/document-api';
import { previewPath } from '../document-display';

/** What other features show under a card's text (src/lib/card-details: its tags); nothing when none. */
export function CardDetails({ doc, category }: { doc: DocumentCard; category?: string }) {
  const added = useCardDetails();
  if (added.length === 0) return null;
  const target = {
    deeplink: doc.deeplink,
    source: doc.source,
    title: doc.title,
    link: doc.link,
    excerpt: doc.summary,
    previewPath: previewPath(doc, category),
    author: doc.author,
  };
  return (
    <>
      {added.map((Detail, index) => (
        <Detail key={index} target={target} />
      ))}
    </>
  );
}
