/** The spec's texts for the assistant, verbatim. */
export const DISCLAIMER = 'AskNeedl can make mistakes. Double-check important info.';
export const GENERIC_ERROR = 'Oops! Something Went Wrong. Please Try Again Later :(';
export const ANSWER_FAILED = 'Uh-oh! Something went wrong';
export const SAVED_TO_NOTE = 'Saved to Needl Note!';
export const FEEDBACK_THANKS = 'Thanks for your feedback!';
export const COPIED = 'Copied to clipboard';
export const SESSION_SYNC_FAILED = 'Session sync failed';
export const LOW_QUALITY =
  'We found that the answer may not be satisfactory. Please verify the information or rephrase your question.';
export const GENERATIVE_QUALITY =
  'This seems to be a generative response. If you were expecting facts, please rephrase or clarify in a follow-up.';
export const NO_CONTENT = 'Click the "View Source" button to view the original content.';
export const NO_SEARCH_RESULTS = 'No search results found';
export const DROP_FILES = 'Drop files here';
export const SELECT_MESSAGE = 'Select a message to access this option';
export const PLACEHOLDER_FIRST = 'Ask me anything...';
export const PLACEHOLDER_FOLLOW_UP = 'Ask follow up...';
export const UPLOAD_FAILED = 'File(s) upload failed. Please try again.';
export const FOLDER_NOT_ALLOWED = 'Folder upload is not allowed';
export const tooManyFiles = (n: number) => `You can only upload ${n} files at a time`;
/** The waiting helper's phrases, in order; the last one stays. */
export const THINKING_PHRASES = ['Thinking', 'Exploring insights', 'Finalizing answer'] as const;
