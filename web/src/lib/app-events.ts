/**
 * The app's custom window events (the spec's list), by which a page tells whatever else listens
 * (another part of the page, a host app around it) that something happened.
 */

/** Fired once the profile's WhatsApp number is verified; `detail` is `{ number }`. */
export const WHATSAPP_VERIFIED_EVENT = 'whatsapp number verified';

export interface WhatsappVerifiedDetail {
  number: string;
}

/** Fires `whatsapp number verified` on `target` (the window). */
export function announceWhatsappVerified(number: string, target: EventTarget = window): void {
  target.dispatchEvent(new CustomEvent<WhatsappVerifiedDetail>(WHATSAPP_VERIFIED_EVENT, { detail: { number } }));
}
