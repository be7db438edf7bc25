/**
 * The WhatsApp number rule, the same as the server's (`domain::user::clean_whatsapp_number`): an
 * international number, a `+` and 8 to 15 digits (E.164) whose first digit is not 0, which may be
 * grouped by spaces, hyphens, dots or parentheses. An empty number clears it.
 */

/** The server's sentence for a refused number (code `invalid_whatsapp_number`), as the form shows it. */
export const WHATSAPP_NUMBER_HINT = 'Enter the WhatsApp number with its country code, e.g. +44 7700 900123';

/** The server's error code for a number it refuses. */
export const INVALID_WHATSAPP_NUMBER = 'invalid_whatsapp_number';

const GROUPING = /^[0-9 .()-]*$/;

/** Returns whether `input` is a number the server keeps (blank clears it). */
export function isValidWhatsappNumber(input: string): boolean {
  const trimmed = input.trim();
  if (!trimmed) return true;
  if (!trimmed.startsWith('+')) return false;
  const rest = trimmed.slice(1);
  if (!GROUPING.test(rest)) return false;
  const digits = rest.replace(/[^0-9]/g, '');
  return digits.length >= 8 && digits.length <= 15 && digits[0] !== '0';
}
