/**
 * The Tiptap extensions a note is written and shown with: StarterKit's blocks and marks
 * (headings 1 to 3, bullet and ordered lists, block quotes, bold, italic, ...) and links,
 * configured here rather than through StarterKit so their addresses can be limited to the web
 * and to this app's own pages. The body is kept as Tiptap's JSON.
 */
import { Link } from '@tiptap/extension-link';
import { StarterKit } from '@tiptap/starter-kit';
import { isSafeHref } from './links';

export const HEADING_LEVELS = [1, 2, 3] as const;

/** The extensions of an editable note (links do not open on click) or of a read-only one. */
export const noteExtensions = ({ editable }: { editable: boolean }) => [
  StarterKit.configure({ link: false, heading: { levels: [...HEADING_LEVELS] } }),
  Link.configure({
    openOnClick: !editable,
    autolink: true,
    linkOnPaste: true,
    defaultProtocol: 'https',
    isAllowedUri: (url) => isSafeHref(url),
  }),
];
