import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { topicQueries } from '../api/topic-api';
import { TopicSection } from './topic-section';

/** /connect/rssTopics: feeds suggested by topic, to follow with one click. */
export function RssTopicsPage() {
  const topics = useQuery(topicQueries.list());
  return (
    <div className="page-narrow stack-lg">
      <p className="muted">
        Follow a suggested feed and its items arrive in My Data. Know the address of another?{' '}
        <Link to="/connect/rss">Add it yourself</Link>.
      </p>
      {topics.isPending && <Spinner label="Loading topics" />}
      {topics.isError && (
        <EmptyState title="The topics could not be loaded">
          <button type="button" className="button" onClick={() => void topics.refetch()}>
            Try again
          </button>
        </EmptyState>
      )}
      {topics.data?.results.length === 0 && <EmptyState title="No suggested feeds yet" />}
      {topics.data?.results.map((topic) => <TopicSection key={topic.key} topic={topic} />)}
    </div>
  );
}
