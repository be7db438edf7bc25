import { EmptyState } from '../../../components/ui/empty-state';
import { SEARCH_HELP_LINKS, type HelpTopic } from '../help-links';

/** No results: what to try, and the help page of what was searched. */
export function SearchEmpty({ topic }: { topic: HelpTopic }) {
  const help = SEARCH_HELP_LINKS[topic];
  return (
    <EmptyState title="No search results found">
      <p>Check the spelling, use fewer or other words, or widen the date range.</p>
      <p>
        <a href={help.href} target="_blank" rel="noopener noreferrer" data-topic={topic}>
          {help.label}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
    </EmptyState>
  );
}
