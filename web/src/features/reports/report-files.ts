/**
 * Which picked files join a report: each checked against the type's limits (the spec's
 * messages), files already in the list (same name and size) ignored, and the list cut at the
 * type's file count with the spec's message.
 */
import type { ReportTypeConfig } from './api/report-api';
import { sizeExceeded, tooManyReportFiles, typeNotAllowed } from './messages';

type FileLike = Pick<File, 'name' | 'size' | 'type'>;

/** Returns the lower-case extension of a file name, without the dot ('' when none). */
const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** Returns a file's mime type; one the browser gave none gets one from its extension. */
export function mimeTypeOf(file: Pick<File, 'name' | 'type'>): string {
  if (file.type) return file.type;
  return extensionOf(file.name) === 'md' ? 'text/markdown' : 'application/octet-stream';
}

/** Returns the refusal for one file (the spec's text), or null. */
export function checkReportFile(file: FileLike, limits: Pick<ReportTypeConfig, 'file_types' | 'file_size_limit'>): string | null {
  const types = limits.file_types.map((t) => t.toLowerCase().replace(/^\./, ''));
  if (types.length > 0 && !types.includes(extensionOf(file.name))) return typeNotAllowed(file.name, mimeTypeOf(file));
  if (file.size > limits.file_size_limit) return sizeExceeded(file.name, limits.file_size_limit);
  return null;
}

export interface FilePick<F> {
  /** The new files to upload, in the order picked. */
  added: F[];
  /** Messages to show: one per refused file, and the count message when the list was cut. */
  errors: string[];
  /** Whether the list was cut at the limit (its toast stays 2 s). */
  truncated: boolean;
}

/**
 * Splits `picked` into the files to add to a report that holds `existing`: refused files get
 * their message, duplicates (name and size of a file already there or picked before) are
 * dropped silently, and only as many as the type's file count allows are kept.
 */
export function pickReportFiles<F extends FileLike>(
  existing: readonly Pick<File, 'name' | 'size'>[],
  picked: readonly F[],
  limits: Pick<ReportTypeConfig, 'file_types' | 'file_size_limit' | 'file_count_limit'>,
): FilePick<F> {
  const seen = new Set(existing.map((f) => `${f.name}\u0000${f.size}`));
  const errors: string[] = [];
  const fresh: F[] = [];
  for (const file of picked) {
    const key = `${file.name}\u0000${file.size}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const refusal = checkReportFile(file, limits);
    if (refusal) errors.push(refusal);
    else fresh.push(file);
  }
  const room = Math.max(0, limits.file_count_limit - existing.length);
  const truncated = fresh.length > room;
  if (truncated) errors.push(tooManyReportFiles(limits.file_count_limit));
  return { added: fresh.slice(0, room), errors, truncated };
}
