/** The user-facing messages of this feature, verbatim from the spec. */
export const MAX_BULK_SOURCES = 50;
export const BULK_LIMIT_TOOLTIP = 'Please select 50 or less sources to proceed';
export const PRIORITY_UPDATED = 'Priority updated successfully.';
export const PRIORITY_FAILED = 'Failed to update priority for the selected sources. Please try again later.';
export const FOLLOW_FAILED = 'Something went wrong. Please try again';
export const FOLLOW_LIMIT_TOOLTIP = 'Select 100 or fewer sources to follow at once';
