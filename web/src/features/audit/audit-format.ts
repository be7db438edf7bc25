/** How the audit log writes events for a person: names instead of ids, words instead of type names. */
import type { StoredEvent } from './api/audit-api';

/** The `user_id` the server records for work it does on its own. */
export const SYSTEM_USER = 'system';

/** What the server writes in place of a secret. */
export const REDACTED = '[redacted]';

/** Returns a type name as words: `TagCreated` → "Tag created", `RSSFeedAdded` → "RSS feed added". */
export function readableEventType(type: string): string {
  const words = type
    .replace(/[_.-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    .map((word, i) => (i > 0 && !/^[A-Z0-9]{2,}$/.test(word) ? word.toLowerCase() : word));
  if (!words.length || !words[0]) return type;
  words[0] = words[0].charAt(0).toUpperCase() + words[0].slice(1);
  return words.join(' ');
}

/** Returns an aggregate type as words: `notebook_shelf` → "Notebook shelf". */
export const readableAggregateType = (type: string): string => readableEventType(type);

/** Returns the aggregate type as a thing in a sentence: "notebook shelf". */
export const aggregateNoun = (type: string): string => readableAggregateType(type).toLowerCase();

/** Returns an event's fields: cqrs-es stores an event as `{"Variant": {fields}}`. */
export function fieldsOf(payload: unknown): Record<string, unknown> {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return {};
  const entries = Object.entries(payload);
  if (entries.length === 1) {
    const [, inner] = entries[0];
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner as Record<string, unknown>;
  }
  return payload as Record<string, unknown>;
}

/** Fields that name the thing an event is about, most telling first. */
const NAME_FIELDS = ['name', 'title', 'username', 'file_name', 'filename', 'label', 'email', 'url', 'link'] as const;

/** Returns a short human label for what the event is about (a notebook's name, a report's title), or null. */
export function subjectLabel(event: Pick<StoredEvent, 'payload'>): string | null {
  const fields = fieldsOf(event.payload);
  for (const name of NAME_FIELDS) {
    const value = fields[name];
    if (typeof value === 'string' && value.trim() && value !== REDACTED) {
      const text = value.trim();
      return text.length > 60 ? `${text.slice(0, 59)}…` : text;
    }
  }
  return null;
}

/** Returns who did it: "System" for the server's own work, else the user's name ("Unknown user" when gone). */
export function actorName(event: Pick<StoredEvent, 'metadata' | 'actor_name'>): string {
  const userId = event.metadata.user_id;
  if (!userId || userId === SYSTEM_USER) return 'System';
  return event.actor_name?.trim() || 'Unknown user';
}

/** Returns an instant to the second in the reader's locale, with its time zone, for titles and details. */
export function exactTime(instant: string): string {
  const d = new Date(instant);
  if (Number.isNaN(d.getTime())) return instant;
  return d.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
}

/** Returns a hash or key shortened for reading (the whole is copied or shown on hover). */
export const shortHash = (hash: string, keep = 12): string => (hash.length > keep + 1 ? `${hash.slice(0, keep)}…` : hash);

/** Returns the file name for an export made at `now`. */
export const exportFileName = (now: Date = new Date()): string =>
  `needl-audit-${now.toISOString().slice(0, 19).replace(/:/g, '-')}.ndjson`;
