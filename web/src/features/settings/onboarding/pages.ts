/**
 * Onboarding, a part of the settings feature: /onboarding shows the attributes form (industry and
 * profession, from POST /onboarding/attributes, which completes onboarding) as a page while the
 * server's flags (GET /onboarding/flags, fresh 20 s) ask for it, and otherwise goes on to its
 * `?redirect=` or home. The user's status and the flags are read through src/lib/queries. This
 * file is the entry the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
export { OnboardingPage } from './components/onboarding-page';
