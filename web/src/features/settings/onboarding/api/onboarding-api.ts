/** Completing onboarding: the attributes form's call. The flags are read through src/lib/queries. */
import { api } from '../../../../lib/api';
import type { UserStatus } from '../../../../lib/queries/user-queries';

export interface OnboardingAttributes {
  industry: string;
  profession: string;
}

/**
 * Records the user's industry and profession (both required) and completes onboarding; resolves
 * to the user's new status (`active`). Refusal (422): `invalid_attributes` when one is blank.
 */
export const completeOnboarding = (attributes: OnboardingAttributes) =>
  api.post<UserStatus>('/onboarding/attributes', { body: attributes });
