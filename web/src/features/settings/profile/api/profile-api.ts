/** Changes the signed-in user's profile fields (PATCH /user); absent fields stay as they are. */
import { api } from '../../../../lib/api';
import type { UserProfile } from '../../../../lib/queries/user-queries';

export interface ProfileChanges {
  industry?: string;
  profession?: string;
  /** An international number (see whatsapp-number.ts); empty clears it. */
  whatsapp_number?: string;
}

/**
 * Saves `changes` and resolves to the profile the server now holds. Refusals (422):
 * `invalid_whatsapp_number`, and `field_too_long` for a field over 128 characters.
 */
export const updateProfile = (changes: ProfileChanges) => api.patch<UserProfile>('/user', { body: changes });
