/** The user-facing messages of this feature, verbatim from the spec. */
export const MAX_BULK_SOURCES = 50;
export const BULK_LIMIT_TOOLTIP = 'Please select 50 or less sources to proceed';
export const PRIORITY_UPDATED = 'Priority updated successfully.';
export const PRIORITY_FAILED = 'Failed to update priority for the selected sources. Please try again later.';
export const FOLLOW_FAILED = 'Something went wrong. Please try again';
export const FOLLOW_LIMIT_TOOLTIP = 'Select 100 or fewer sources to follow at once';
export const COMPANY_REQUIRED = 'Type a ticker, a CIK or a company name';
export const COMPANY_FOLLOWED = 'Company followed. Its new filings will arrive in My Data under Exchanges (US).';
export const COMPANY_UNFOLLOWED = 'Company unfollowed';
export const CHECK_FAILED = 'The company could not be checked. Please try again.';
