import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { landingRoute, landsOnMyData, myDataSuffix } from '../../lib/landing-route';
import { carryOverlayParams } from '../../lib/overlay/overlay-params';
import { featureQueries } from '../../lib/queries/feature-queries';
import { libraryQueries, myDataSubCategories } from '../../lib/queries/library-queries';

/**
 * Sends `/` to the landing route the user's features decide; when that is My Data, to its first
 * connected source type (the category index says which). If the index cannot be had, My Data
 * itself is the landing route.
 */
export function LandingRedirect() {
  const features = useQuery(featureQueries.config());
  const flags = features.data?.features ?? {};
  const needsCategories = !features.isPending && landsOnMyData(flags);
  const categories = useQuery({ ...libraryQueries.categories(), enabled: needsCategories });
  const { search } = useLocation();
  if (features.isPending || (needsCategories && categories.isPending)) return <FullPageSpinner />;
  const suffix = myDataSuffix(myDataSubCategories(categories.data));
  return <Navigate to={carryOverlayParams(landingRoute(flags, suffix), search)} replace />;
}
