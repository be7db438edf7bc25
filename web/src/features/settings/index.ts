/**
 * Settings feature: the settings pages — User Settings (profile, the AskNeedl Pro preference,
 * the password, sign-out, and erasing the account, which ends the session here and leaves the
 * sign-in page a notice), Storage (used against the quota, by file type, from /user/storage),
 * Plan (the user's plan, what it includes, usage against its limits, from /user/plan) and, for
 * administrators, Users (each one's plan, a one-time password reset link, and Erase for all but
 * the administrator themselves), Assistant (the model server AskNeedl writes with, checked
 * before it is saved) and Outbox (the messages, such as WhatsApp codes, kept for an administrator
 * to pass on while no messaging provider is set up). Its parts: profile/ (the profile form),
 * portfolios/, storage/, onboarding/, and whatsapp/ (the pulse variant's profile page and WhatsApp
 * verification, each with its own `pages.ts`). Reads user data through the shared query factories in src/lib/queries
 * and the plan through src/lib/pricing.
 * The pages are a second entry, `pages.ts`, which the app loads on demand.
 * Depends on: src/lib, src/components/ui.
 */
/** The tabs between settings pages, for settings pages other features bring (the tags manager). */
export { SettingsNav } from './components/settings-nav';
