/**
 * @mentions in a comment's text: finding the `@name` being typed at the caret, putting a chosen
 * member's name there, working out which chosen members the text still mentions when it is
 * saved, and cutting a saved comment's text into plain runs and mentions for display.
 */
import type { Mention } from './api/comment-api';

/** The `@name` being typed: where its `@` is and what follows it up to the caret. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** A member who can be mentioned. */
export interface Mentionable {
  user_id: string;
  username: string;
}

/** How many members the autocomplete offers at once. */
export const MAX_SUGGESTIONS = 8;

/**
 * Returns the mention being typed at `caret`: an `@` at the start or after a space, followed by
 * no space up to the caret; null otherwise.
 */
export function mentionQueryAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[2].length - 1, query: match[2] };
}

/** Returns the text with the mention being typed replaced by `@username ` and the caret after it. */
export function insertMention(text: string, caret: number, at: MentionQuery, username: string): { text: string; caret: number } {
  const inserted = `@${username} `;
  const next = text.slice(0, at.start) + inserted + text.slice(caret).replace(/^\S*/, '').replace(/^ /, '');
  return { text: next, caret: at.start + inserted.length };
}

/** Returns the members whose name matches what was typed after `@` (starts first), leaving out `selfId`. */
export function suggestMembers<M extends Mentionable>(members: readonly M[], query: string, selfId?: string | null): M[] {
  const q = query.toLowerCase();
  const others = members.filter((m) => m.user_id !== selfId && m.username.toLowerCase().includes(q));
  const starts = others.filter((m) => m.username.toLowerCase().startsWith(q));
  const rest = others.filter((m) => !m.username.toLowerCase().startsWith(q));
  return [...starts, ...rest].slice(0, MAX_SUGGESTIONS);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Returns whether `text` mentions `@username` as a whole name (not the start of a longer one). */
const names = (text: string, username: string) => new RegExp(`(^|\\s)@${escape(username)}(?![^\\s.,;:!?)])`).test(text);

/** Returns the user ids, once each, of the chosen members whose `@name` is still in the text. */
export function mentionedIds(text: string, chosen: readonly Mentionable[]): string[] {
  const ids = chosen.filter((m) => m.username && names(text, m.username)).map((m) => m.user_id);
  return [...new Set(ids)];
}

/** A run of a comment's text: plain, or one of its mentions. */
export type Segment = { text: string; mention?: Mention };

/** Cuts a comment's text into plain runs and the `@name`s of its mentions, in order. */
export function segmentsOf(text: string, mentions: readonly Mention[]): Segment[] {
  const named = mentions.filter((m) => m.mention_value).sort((a, b) => b.mention_value.length - a.mention_value.length);
  if (named.length === 0) return text ? [{ text }] : [];
  const pattern = new RegExp(`@(${named.map((m) => escape(m.mention_value)).join('|')})(?![^\\s.,;:!?)])`, 'g');
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > 0 && !/\s/.test(text[index - 1])) continue;
    if (index > last) segments.push({ text: text.slice(last, index) });
    segments.push({ text: match[0], mention: named.find((m) => m.mention_value === match[1]) });
    last = index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}
