import type { Mention } from '../api/comment-api';
import { segmentsOf } from '../mentions';

/** A comment's text, its line breaks kept and its mentions marked. */
export function CommentText({ text, mentions }: { text: string; mentions: readonly Mention[] }) {
  return (
    <p className="comment-text">
      {segmentsOf(text, mentions).map((segment, index) =>
        segment.mention ? (
          <mark key={index} className="mention" data-user-id={segment.mention.mention_uuid}>
            {segment.text}
          </mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </p>
  );
}
