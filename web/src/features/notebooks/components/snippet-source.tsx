import { Link } from 'react-router';
import type { SnippetSource as Source } from '../api/notebook-api';
import { appPath, isSafeHref } from '../links';

/**
 * Where a snippet note came from: its title, linking to the original (a web address opens in a
 * new tab, a path of the app in place). Nothing for a note that is not a snippet.
 */
export function SnippetSource({ snippet }: { snippet: Source | null | undefined }) {
  if (!snippet) return null;
  const title = snippet.title || snippet.link || 'the original';
  const link = snippet.link && isSafeHref(snippet.link) ? snippet.link : null;
  // A path of the app is followed as the browser reads it, the very path that was checked.
  const path = link ? appPath(link) : null;
  let target;
  if (!link) target = <span>{title}</span>;
  else if (path) target = <Link to={path}>{title}</Link>;
  else {
    target = (
      <a href={link} target="_blank" rel="noopener noreferrer">
        {title}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    );
  }
  return (
    <p className="snippet-source small" data-testid="snippet-source">
      <span className="muted">Source: </span>
      {target}
    </p>
  );
}
