/**
 * ISIN checks (ISO 6166), the same the server makes: 12 characters, a two-letter country code,
 * nine letters or digits and a check digit. The check digit is verified by turning letters into
 * numbers (A=10 … Z=35) and taking the Luhn sum of the digit string that makes.
 */

const SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

/** Returns an ISIN as the server stores it: trimmed and upper-cased. */
export const normalizeIsin = (raw: string): string => raw.trim().toUpperCase();

/** Returns whether `isin` (already normalized) has the shape of an ISIN, check digit aside. */
export const hasIsinShape = (isin: string): boolean => SHAPE.test(isin);

/** Returns whether the digits of `digits` pass the Luhn check (the last digit is the check digit). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    // Every second digit from the right, the check digit's neighbour first, is doubled.
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Returns the ISIN with each letter replaced by its number (A=10 … Z=35), digits kept. */
export const isinDigits = (isin: string): string =>
  [...isin].map((c) => (c >= 'A' && c <= 'Z' ? String(c.charCodeAt(0) - 55) : c)).join('');

/** Why an ISIN is refused, or null when it is valid. */
export type IsinProblem = 'shape' | 'check_digit' | null;

/** Returns what is wrong with `raw` as an ISIN (after trimming and upper-casing), or null. */
export function isinProblem(raw: string): IsinProblem {
  const isin = normalizeIsin(raw);
  if (!hasIsinShape(isin)) return 'shape';
  return luhnValid(isinDigits(isin)) ? null : 'check_digit';
}

/** Returns whether `raw` is a valid ISIN once trimmed and upper-cased. */
export const isValidIsin = (raw: string): boolean => isinProblem(raw) === null;
