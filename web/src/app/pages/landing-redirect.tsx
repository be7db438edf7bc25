import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { landingRoute } from '../../lib/landing-route';
import { carryOverlayParams } from '../../lib/overlay/overlay-params';
import { featureQueries } from '../../lib/queries/feature-queries';

/** Sends `/` to the landing route the user's features decide. */
export function LandingRedirect() {
  const features = useQuery(featureQueries.config());
  const { search } = useLocation();
  if (features.isPending) return <FullPageSpinner />;
  return <Navigate to={carryOverlayParams(landingRoute(features.data?.features ?? {}), search)} replace />;
}
