import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LAPTOP_QUERY, useMediaQuery } from '../../../lib/media';
import { readOverlayParams, withOverlay, withoutOverlayParams } from '../../../lib/overlay/overlay-params';
import { askButtonState } from '../ask-button-rules';
import { useAskFlags } from '../hooks/use-ask-flags';

/**
 * The floating Ask button, bottom right, where the spec allows it: opens the assistant overlay
 * (the full page below laptop size, phones included), and while the overlay is open closes it again.
 */
export function AskButton() {
  const { pathname } = useLocation();
  const [search, setSearch] = useSearchParams();
  const laptop = useMediaQuery(LAPTOP_QUERY);
  const navigate = useNavigate();
  const { copilot } = useAskFlags();
  const overlayOpen = laptop && readOverlayParams(search).type === 'ask-needl';
  const state = askButtonState({ pathname, copilot, overlayOpen });
  if (state === 'hidden') return null;
  const onClick = () => {
    if (overlayOpen) setSearch(withoutOverlayParams(search));
    // Overlays show on laptop-size screens; a tablet gets the full page instead.
    else if (laptop) setSearch(withOverlay(search, 'ask-needl'));
    else navigate('/ask-needl/full');
  };
  return (
    <button
      type="button"
      className="ask-fab button button-primary"
      data-testid="ask-button"
      disabled={state === 'disabled'}
      aria-expanded={laptop ? overlayOpen : undefined}
      title={state === 'disabled' ? 'AskNeedl is not available on this page' : overlayOpen ? 'Hide AskNeedl' : undefined}
      onClick={onClick}
    >
      Ask
    </button>
  );
}
