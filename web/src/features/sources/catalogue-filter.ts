/**
 * Narrowing the public source catalogue: the words typed, the group, followed or not, and only
 * the sources this instance fetches. The filter lives in the address (`?q=&group=&show=&fetched=`),
 * so a narrowed catalogue can be bookmarked, shared and returned to with Back.
 */
import type { PublicSource } from './api/catalogue-api';

/** The group filter's value for entries in no group. */
export const NO_GROUP = 'none';

export type FollowFilter = 'all' | 'following' | 'not-following';

export interface CatalogueFilter {
  /** Words every one of which the title, key or group must contain (any case). */
  q: string;
  /** A group label, `NO_GROUP`, or '' for every group. */
  group: string;
  show: FollowFilter;
  /** Only the sources this instance has a feed for. */
  fetchedOnly: boolean;
}

export const EMPTY_FILTER: CatalogueFilter = { q: '', group: '', show: 'all', fetchedOnly: false };

const FOLLOW_FILTERS: readonly FollowFilter[] = ['all', 'following', 'not-following'];

/** Reads the filter from the address's parameters; unknown values mean no narrowing. */
export function readFilter(params: URLSearchParams): CatalogueFilter {
  const show = params.get('show') as FollowFilter | null;
  return {
    q: params.get('q') ?? '',
    group: params.get('group') ?? '',
    show: show && FOLLOW_FILTERS.includes(show) ? show : 'all',
    fetchedOnly: params.get('fetched') === '1',
  };
}

/** Writes the filter as address parameters, leaving out what does not narrow. */
export function filterParams(filter: CatalogueFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.q.trim()) params.set('q', filter.q);
  if (filter.group) params.set('group', filter.group);
  if (filter.show !== 'all') params.set('show', filter.show);
  if (filter.fetchedOnly) params.set('fetched', '1');
  return params;
}

/** Returns whether the filter narrows anything. */
export const isFiltered = (filter: CatalogueFilter) => filterParams(filter).toString() !== '';

const words = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean);

/** Returns whether `source` passes `filter`. */
export function matches(source: PublicSource, filter: CatalogueFilter): boolean {
  const haystack = [source.title, source.key.replace(/[_.-]/g, ' '), source.key, source.group ?? ''].join(' ').toLowerCase();
  if (!words(filter.q).every((word) => haystack.includes(word))) return false;
  if (filter.group === NO_GROUP ? source.group !== null : filter.group && source.group !== filter.group) return false;
  if (filter.show === 'following' && !source.following) return false;
  if (filter.show === 'not-following' && source.following) return false;
  return !filter.fetchedOnly || source.fetchable;
}

/** Returns the entries that pass `filter`, in the catalogue's order (by title). */
export const applyFilter = (sources: readonly PublicSource[], filter: CatalogueFilter) => sources.filter((s) => matches(s, filter));

/** Returns the catalogue's groups by name, for the group filter. */
export const groupsOf = (sources: readonly PublicSource[]): string[] =>
  [...new Set(sources.flatMap((s) => (s.group ? [s.group] : [])))].sort((a, b) => a.localeCompare(b));
