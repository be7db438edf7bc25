import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { OverlayPanel } from '../../components/overlay/overlay-panel';
import { LAPTOP_QUERY, useMediaQuery } from '../../lib/media';
import { resolveOverlay, withoutOverlayParams } from '../../lib/overlay/overlay-params';
import { overlayRegistry } from '../../lib/overlay/overlay-registry';
import { featureQueries } from '../../lib/queries/feature-queries';
import { NavContext } from '../nav-context';
import { registerOverlayKinds } from './overlay-kinds';

registerOverlayKinds(overlayRegistry);

/**
 * Shows the overlay the `overlay-` query parameters ask for, tells the side navigation while one
 * is open, and closes it by dropping every `overlay-` parameter. Below laptop width every kind
 * covers the whole screen, a page of its own (issue 18; the spec hides them there, which left
 * a link carrying an overlay showing nothing).
 */
export function OverlayHost() {
  const [search, setSearch] = useSearchParams();
  const isDesktop = useMediaQuery(LAPTOP_QUERY);
  const features = useQuery(featureQueries.config());
  const nav = NavContext.useActorRef();
  const resolution = useMemo(() => resolveOverlay(overlayRegistry, search), [search]);

  const flag = resolution.status === 'open' ? resolution.kind.requiresFlag : undefined;
  const allowed = !flag || Boolean(features.data?.features[flag]);
  const kind = resolution.status === 'open' ? resolution.kind : null;
  const fullScreen = !isDesktop;
  const visible = resolution.status !== 'none' && allowed;
  const startWidth = kind ? (kind.width.start ?? kind.width.min) : 0;

  useEffect(() => {
    if (resolution.status === 'invalid') console.error(resolution.error, resolution.type);
  }, [resolution]);

  useEffect(() => {
    if (!visible) return;
    nav.send({ type: 'overlay.opened', width: startWidth });
    return () => nav.send({ type: 'overlay.closed' });
  }, [nav, visible, startWidth]);

  if (!visible) return null;
  const close = () => setSearch(withoutOverlayParams(search));

  if (resolution.status === 'invalid') {
    return (
      <OverlayPanel title="Overlay" size="small" width={{ min: 30, max: 30 }} onClose={close}>
        <p role="alert" className="form-error">
          {resolution.error}
        </p>
      </OverlayPanel>
    );
  }
  if (!kind || resolution.status !== 'open') return null;
  const Body = kind.Component;
  return (
    <OverlayPanel
      key={kind.type}
      title={kind.title}
      size={kind.size}
      width={kind.width}
      closable={kind.closable}
      docked={kind.docked && !fullScreen}
      fullScreen={fullScreen}
      onClose={close}
      onWidthChange={(width) => nav.send({ type: 'overlay.resized', width })}
    >
      <Body params={resolution.params} close={close} />
    </OverlayPanel>
  );
}
