import { Link } from 'react-router';
import type { CardTag } from '../tag-order';

/** Where a user tag leads: its documents, the tag filter passed in the address and as navigation state. */
export const taggedDocumentsPath = (tagId: string) => `/needlbox/tags/all?${new URLSearchParams({ tag_id: tagId })}`;

/** One tag on a card: the user's own lead to their documents; a channel's shared tag is marked as shared. */
export function TagChip({ tag }: { tag: CardTag }) {
  if (tag.kind === 'shared') {
    return (
      <span className="tag-chip tag-chip-shared" title="Shared tag">
        {tag.name}
      </span>
    );
  }
  return (
    <Link className="tag-chip" to={taggedDocumentsPath(tag.id)} state={{ tagId: tag.id }}>
      {tag.name}
    </Link>
  );
}
