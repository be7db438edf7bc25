/** The words the feeds feature shows, where the spec gives them. */
export const NO_FEEDS = 'No feeds found!';
export const UNKNOWN_PAGE = 'Unknown CustomFeed overlay page';
export const FEED_CREATED = 'Feed created';
export const FEED_SAVED = 'Feed saved';
export const FEED_DELETED = 'Feed deleted';
export const FEED_DUPLICATED = 'Feed duplicated';
export const FEED_SHARED = 'Feed shared to the group';
export const FEED_RESTORED = 'The previous definition is back';
/** What a draft that would match everything needs (the server's refusal says the same). */
export const NOTHING_TO_FOLLOW = 'Add a keyword, a company or a source so the feed has something to follow.';
