/**
 * Shared formatters for numbers, durations, dates, file sizes and source keys.
 * Pure functions: callers pass `now` where the answer depends on the clock.
 */

const trimDecimals = (value: number, digits: number): string =>
  Number(value.toFixed(digits)).toString();

/** Returns a count for display: 1000 or more becomes `Nk` (one decimal at most). */
export function formatCount(count: number): string {
  if (count < 1000) return String(count);
  return `${trimDecimals(Math.floor(count / 100) / 10, 1)}k`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Returns a duration: seconds under a minute, otherwise days, hours and mins (zero parts left out). */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  if (seconds < 60) return plural(seconds, 'sec', 'secs');
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const mins = Math.floor((seconds % 3_600) / 60);
  const parts: string[] = [];
  if (days) parts.push(plural(days, 'day', 'days'));
  if (hours) parts.push(plural(hours, 'hour', 'hours'));
  if (mins) parts.push(plural(mins, 'min', 'mins'));
  return parts.join(' ');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Returns the date as DD-MM-YYYY in local time. */
export function formatDate(date: Date | string | number): string {
  const d = new Date(date);
  return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()}`;
}

/**
 * Returns how long ago `date` was ('just now', '5 mins ago', '3 hours ago', 'yesterday',
 * '4 days ago'); a month or more ago falls back to DD-MM-YYYY.
 */
export function formatRelative(date: Date | string | number, now: Date = new Date()): string {
  const seconds = Math.floor((now.getTime() - new Date(date).getTime()) / 1000);
  if (seconds < 60) return 'just now';
  const mins = Math.floor(seconds / 60);
  if (mins < 60) return `${plural(mins, 'min', 'mins')} ago`;
  const hours = Math.floor(mins / 60);
  if (hours < 24) return `${plural(hours, 'hour', 'hours')} ago`;
  const days = Math.floor(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 30) return `${days} days ago`;
  return formatDate(date);
}

/**
 * Returns when a document was published as cards show it: DD-MM-YYYY and how long ago, or the
 * date alone when it is old enough that "how long ago" is the date too.
 */
export function dateLine(date: string, now?: Date): string {
  const absolute = formatDate(date);
  const relative = formatRelative(date, now);
  return relative === absolute ? absolute : `${absolute} · ${relative}`;
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** Returns a byte count in binary units, from B up to YB, with at most two decimals. */
export function formatFileSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${trimDecimals(value, 2)} ${SIZE_UNITS[unit]}`;
}

/** How many characters of a file name cards show before the ellipsis. */
export const FILE_NAME_CHARS = 10;

/** Returns a file name cut to `limit` characters plus '…' when it is longer. */
export function shortenFileName(name: string, limit = FILE_NAME_CHARS): string {
  const chars = Array.from(name);
  return chars.length <= limit ? name : `${chars.slice(0, limit).join('')}…`;
}

/** Returns bytes as whole or decimal megabytes (bytes / 1048576), for limits stated in MB. */
export function megabytes(bytes: number): string {
  return trimDecimals(bytes / 1_048_576, 2);
}

/** Returns `text` as a sentence: a capital first and a full stop at the end (server messages are lowercase). */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Returns a title for a source key not in the catalogue: `_` and `.` become spaces, first letter capitalised. */
export function titleFromSourceKey(key: string): string {
  const spaced = key.replace(/[_.]/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** Returns 'x to y of N results' for a page of a list. */
export function formatPagination(from: number, to: number, total: number): string {
  return `${from} to ${to} of ${total} results`;
}

/** The date-range shorthands offered in filters, with their labels. */
export const DATE_RANGE_SHORTHANDS = [
  { shorthand: '1d', label: 'Last 1 day' },
  { shorthand: '1w', label: 'Last 1 week' },
  { shorthand: '1M', label: 'Last 1 month' },
  { shorthand: '3M', label: 'Last 3 months' },
  { shorthand: '6M', label: 'Last 6 months' },
  { shorthand: '1y', label: 'Last 1 year' },
  { shorthand: '2y', label: 'Last 2 years' },
  { shorthand: '3y', label: 'Last 3 years' },
] as const;

export interface DateRange {
  from: Date;
  to: Date;
  label: string;
}

const UNIT_WORDS: Record<string, [string, string]> = {
  d: ['day', 'days'],
  w: ['week', 'weeks'],
  M: ['month', 'months'],
  y: ['year', 'years'],
};

/**
 * Returns the range a shorthand such as `3M` covers, ending at `now`.
 * Throws 'Wrong shorthand' unless it is a digit followed by a unit (d, w, M or y).
 */
export function parseDateShorthand(shorthand: string, now: Date = new Date()): DateRange {
  const match = /^(\d)(\w)$/.exec(shorthand);
  const words = match ? UNIT_WORDS[match[2]] : undefined;
  if (!match || !words) throw new Error('Wrong shorthand');
  const amount = Number(match[1]);
  const from = new Date(now);
  switch (match[2]) {
    case 'd':
      from.setDate(from.getDate() - amount);
      break;
    case 'w':
      from.setDate(from.getDate() - 7 * amount);
      break;
    case 'M':
      from.setMonth(from.getMonth() - amount);
      break;
    default:
      from.setFullYear(from.getFullYear() - amount);
  }
  const known = DATE_RANGE_SHORTHANDS.find((s) => s.shorthand === shorthand);
  const label = known?.label ?? `Last ${plural(amount, words[0], words[1])}`;
  return { from, to: new Date(now), label };
}
