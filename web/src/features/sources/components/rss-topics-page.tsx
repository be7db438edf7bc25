import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ListState } from '../../../components/ui/list-state';
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
      <ListState
        query={topics}
        loadingLabel="Loading topics"
        errorTitle="The topics could not be loaded"
        isEmpty={(list) => list.results.length === 0}
        emptyTitle="No suggested feeds yet"
      >
        {(list) => list.results.map((topic) => <TopicSection key={topic.key} topic={topic} />)}
      </ListState>
    </div>
  );
}
