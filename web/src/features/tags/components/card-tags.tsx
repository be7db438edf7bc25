import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Popover } from '../../../components/ui/popover';
import type { CardActionTarget } from '../../../lib/card-actions';
import { useCardScope } from '../../../lib/card-details';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/media';
import { tagQueries } from '../api/tag-api';
import { useTagFlags } from '../hooks/use-tag-flags';
import { orderCardTags, splitTags, visibleTagCount, type CardTag } from '../tag-order';
import { TagChip } from './tag-chip';

/**
 * A card's tags: shared and the user's, 2 of each first; 5 show on desktop and 1 on mobile, the
 * rest behind a "+N" button. Nothing shows while they load, when the document has none, or on a
 * Needl Web result.
 */
export function CardTags({ target }: { target: CardActionTarget }) {
  const scope = useCardScope();
  return scope.webResult ? null : <TagLine target={target} channelId={scope.channelId ?? null} />;
}

function TagLine({ target, channelId }: { target: CardActionTarget; channelId: string | null }) {
  const flags = useTagFlags();
  const index = useQuery(tagQueries.index(target.deeplink, channelId));
  const mobile = useMediaQuery(MOBILE_QUERY);
  if (!flags.tags || !index.data) return null;
  const ordered = orderCardTags(index.data.shared_tags, index.data.user_tags);
  if (ordered.length === 0) return null;
  const { shown, overflow } = splitTags(ordered, visibleTagCount(mobile));
  return (
    <div className="card-tags" data-testid="card-tags">
      <ul className="tag-chips" aria-label={`Tags of ${target.title}`}>
        {shown.map((tag) => (
          <li key={tag.id}>
            <TagChip tag={tag} />
          </li>
        ))}
      </ul>
      {overflow.length > 0 && <TagOverflow tags={overflow} subject={target.title} />}
    </div>
  );
}

/** The "+N" button and the popup with the tags that did not fit. */
function TagOverflow({ tags, subject }: { tags: CardTag[]; subject: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger={`+${tags.length}`}
      triggerLabel={`${tags.length} more ${tags.length === 1 ? 'tag' : 'tags'}`}
      triggerClassName="tag-chip tag-more"
      title={`More tags of ${subject}`}
      open={open}
      onOpenChange={setOpen}
      className="tag-overflow"
    >
      <ul className="tag-chips">
        {tags.map((tag) => (
          <li key={tag.id}>
            <TagChip tag={tag} />
          </li>
        ))}
      </ul>
    </Popover>
  );
}
