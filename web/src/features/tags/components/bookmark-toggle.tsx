import { useToggleBookmark } from '../hooks/use-toggle-bookmark';
import { StarIcon } from '../../../components/ui/icons';

export interface BookmarkToggleProps {
  deeplink: string;
  /** Whether the document is bookmarked; undefined while that is not known yet. */
  bookmarked: boolean | undefined;
  /** What the button is about, for screen readers (the document's title). */
  subject: string;
}

/** A toggle button, pressed when the document is bookmarked; the change shows at once. */
export function BookmarkToggle({ deeplink, bookmarked, subject }: BookmarkToggleProps) {
  const toggle = useToggleBookmark(deeplink);
  return (
    <button
      type="button"
      className="button button-quiet bookmark-toggle"
      aria-pressed={bookmarked ?? false}
      disabled={bookmarked === undefined}
      onClick={() => toggle.mutate(!bookmarked)}
    >
      <StarIcon size={16} fill={bookmarked ? 'currentColor' : 'none'} /> Bookmark<span className="visually-hidden"> {subject}</span>
    </button>
  );
}
