/**
 * Which tags a card shows, in what order (the spec): shared and user tags, 2 of each first, then
 * the rest; 5 visible on desktop and 1 on mobile, the others in an overflow popup.
 */
import type { Tag } from './api/tag-api';

/** How many of each kind (shared, user) lead the card's tags. */
export const TAGS_PER_KIND = 2;
export const VISIBLE_TAGS_DESKTOP = 5;
export const VISIBLE_TAGS_MOBILE = 1;

export type TagKind = 'shared' | 'user';

export interface CardTag extends Tag {
  kind: TagKind;
}

/**
 * Returns a card's tags in order: up to 2 shared tags, up to 2 of the user's, then the remaining
 * shared and user tags. A tag that is both shared and the user's shows once, as shared.
 */
export function orderCardTags(shared: readonly Tag[], user: readonly Tag[], perKind = TAGS_PER_KIND): CardTag[] {
  const ordered = [
    ...shared.slice(0, perKind).map((t) => ({ ...t, kind: 'shared' as const })),
    ...user.slice(0, perKind).map((t) => ({ ...t, kind: 'user' as const })),
    ...shared.slice(perKind).map((t) => ({ ...t, kind: 'shared' as const })),
    ...user.slice(perKind).map((t) => ({ ...t, kind: 'user' as const })),
  ];
  const seen = new Set<string>();
  return ordered.filter((t) => !seen.has(t.id) && seen.add(t.id));
}

/** Returns how many tags a card shows before the overflow. */
export const visibleTagCount = (mobile: boolean): number => (mobile ? VISIBLE_TAGS_MOBILE : VISIBLE_TAGS_DESKTOP);

/** Splits ordered tags into those shown on the card and those in the overflow popup. */
export function splitTags<T>(tags: readonly T[], visible: number): { shown: T[]; overflow: T[] } {
  const at = Math.max(0, visible);
  return { shown: tags.slice(0, at), overflow: tags.slice(at) };
}
