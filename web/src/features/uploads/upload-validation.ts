/** The browser's checks of picked files against the source's limits (the server checks again). */
import type { UploadConfig } from './api/upload-api';
import { sizeExceeded, suffixRequired, tooManyFiles, typeNotAllowed } from './messages';

/** Returns the lower-case extension of a file name, without the dot ('' when none). */
export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/**
 * Returns the file's mime type; a file the browser gave none gets one from its extension
 * (md is text/markdown, anything else application/octet-stream).
 */
export function mimeTypeOf(file: Pick<File, 'name' | 'type'>): string {
  if (file.type) return file.type;
  return extensionOf(file.name) === 'md' ? 'text/markdown' : 'application/octet-stream';
}

/** Returns whether the file's type is allowed: by extension when the config lists extensions (as the server decides), else by mime type. */
function typeAllowed(file: Pick<File, 'name'>, type: string, config: UploadConfig): boolean {
  if (config.file_types.length > 0) return config.file_types.map((t) => t.toLowerCase()).includes(extensionOf(file.name));
  return config.mime_types.length === 0 || config.mime_types.includes(type);
}

/** Returns the refusal for one file (the spec's text), or null. */
export function checkFile(file: Pick<File, 'name' | 'type' | 'size'>, config: UploadConfig): string | null {
  const type = mimeTypeOf(file);
  if (!typeAllowed(file, type, config)) return typeNotAllowed(file.name, type);
  if (file.size > config.file_size_limit) return sizeExceeded(file.name, config.file_size_limit);
  const suffixes = config.file_name_suffixes;
  if (suffixes.length > 0 && !suffixes.some((suffix) => file.name.replace(/\.pdf$/i, '').endsWith(suffix))) {
    return suffixRequired(file.name, suffixes);
  }
  return null;
}

export interface FileCheck<F> {
  accepted: F[];
  /** One message per refused file, or the count message alone. */
  errors: string[];
}

/** Splits picked files into those to upload and the messages for the rest. */
export function validateFiles<F extends Pick<File, 'name' | 'type' | 'size'>>(files: F[], config: UploadConfig): FileCheck<F> {
  if (files.length > config.file_count_limit) return { accepted: [], errors: [tooManyFiles(config.file_count_limit)] };
  const accepted: F[] = [];
  const errors: string[] = [];
  for (const file of files) {
    const error = checkFile(file, config);
    if (error) errors.push(error);
    else accepted.push(file);
  }
  return { accepted, errors };
}

/** Returns the file input's `accept` value for the allowed types ('' allows any). */
export function acceptAttribute(config: UploadConfig | undefined): string {
  if (!config) return '';
  return [...config.file_types.map((t) => `.${t.replace(/^\./, '')}`), ...config.mime_types].join(',');
}
