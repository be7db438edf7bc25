/** What the channels feature says; the spec's texts verbatim. */
export const GROUP_NAME_REQUIRED = 'Group Name is required';
export const GROUP_NAME_INVALID = 'Sorry, only letters (a-z), numbers (0-9), hyphen (-) and underscore (_) are allowed.';
export const GROUP_NAME_TAKEN = 'Group Name already exists in your organization!';
export const GROUP_NAME_TOO_LONG = 'Group Name must be at most 100 characters';
export const COMMENT_PLACEHOLDER = 'Add your comment';
/** The server's words for an empty comment; the editor says them before it asks. */
export const COMMENT_EMPTY = 'comment cannot be empty';
export const CHAT_CARD_NOT_COMMENTABLE = 'Cards originating from chats cannot be commented upon';
export const MENTIONS_ONLY_UNPUBLISHED = 'Mentions with @ are allowed only in groups not published to the organization.';
export const SOMETHING_WENT_WRONG = 'Something went wrong. Please try again';
