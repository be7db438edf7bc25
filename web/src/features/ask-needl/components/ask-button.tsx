import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LAPTOP_QUERY, MOBILE_QUERY, useMediaQuery } from '../../../lib/media';
import { readOverlayParams, withOverlay } from '../../../lib/overlay/overlay-params';
import { askButtonState } from '../ask-button-rules';
import { useAskFlags } from '../hooks/use-ask-flags';

/** The floating Ask button, bottom right: opens the assistant overlay (the full page below laptop size) where the spec allows it. */
export function AskButton() {
  const { pathname } = useLocation();
  const [search, setSearch] = useSearchParams();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const laptop = useMediaQuery(LAPTOP_QUERY);
  const navigate = useNavigate();
  const { copilot } = useAskFlags();
  const overlayOpen = readOverlayParams(search).type === 'ask-needl';
  const state = askButtonState({ pathname, mobile, copilot, overlayOpen });
  if (state === 'hidden') return null;
  return (
    <button
      type="button"
      className="ask-fab button button-primary"
      data-testid="ask-button"
      disabled={state === 'disabled'}
      title={state === 'disabled' ? 'AskNeedl is not available on this page' : undefined}
      // Overlays show on laptop-size screens; a tablet gets the full page instead.
      onClick={() => (laptop ? setSearch(withOverlay(search, 'ask-needl')) : navigate('/ask-needl/full'))}
    >
      Ask
    </button>
  );
}
