/**
 * The spec's rules for a group's name, checked before the server is asked (the server checks
 * them again, and alone knows whether a name is taken): required, only letters (a-z), digits,
 * hyphen, underscore and spaces with at least one letter or digit, at most 100 characters.
 */
import { GROUP_NAME_INVALID, GROUP_NAME_REQUIRED, GROUP_NAME_TOO_LONG } from './messages';

export const MAX_GROUP_NAME_CHARS = 100;

/** Returns the name as the server keeps it: trimmed, inner runs of spaces made one. */
export const cleanGroupName = (name: string): string => name.trim().replace(/\s+/g, ' ');

/** Returns what is wrong with a group name, or null when it may be sent. */
export function groupNameError(name: string): string | null {
  const clean = cleanGroupName(name);
  if (!clean) return GROUP_NAME_REQUIRED;
  if (!/^[A-Za-z0-9 _-]+$/.test(clean) || !/[A-Za-z0-9]/.test(clean)) return GROUP_NAME_INVALID;
  if (clean.length > MAX_GROUP_NAME_CHARS) return GROUP_NAME_TOO_LONG;
  return null;
}
