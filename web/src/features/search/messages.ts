/** Texts of the search feature that come from no server answer. */

/** Shown when a search failed for a reason the user cannot fix (the server or the network). */
export const GENERIC_SEARCH_FAILURE = 'Something went wrong. Please try again';
