import { Link, useLocation } from 'react-router';
import { buildBreadcrumbs, type SegmentLabels } from '../../lib/breadcrumbs';

/**
 * The trail from Home to the current page; the current page is bold and not a link. `labels`
 * name segments that are ids (a group's). `current`, when given, is the whole trail after Home (an
 * unknown address has no segments worth naming).
 */
export function Breadcrumbs({ labels, current }: { labels?: SegmentLabels; current?: string }) {
  const { pathname } = useLocation();
  const crumbs = current ? [{ label: 'Home', to: '/' }, { label: current }] : buildBreadcrumbs(pathname, labels);
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={`${index}-${crumb.label}`}>
            {crumb.to ? (
              <Link to={crumb.to}>{crumb.label}</Link>
            ) : (
              <strong aria-current="page">{crumb.label}</strong>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
