/**
 * WhatsApp verification, a part of the settings feature for the pulse variant: the profile page
 * pulse lands on (the profile form with the WhatsApp number, and whether that number is
 * verified) and the page that verifies the number with a six-digit code. Server data lives in
 * React Query under `whatsappQueries` (keyed under the user's, so a profile change refreshes it);
 * verified, it fires the app's `whatsapp number verified` event (lib/app-events). This file is the
 * entry the app loads on demand.
 * Depends on: src/lib, src/components/ui, and the settings feature's profile form.
 */
export { PulseProfilePage } from './components/pulse-profile-page';
export { WhatsappVerificationPage } from './components/whatsapp-verification-page';
