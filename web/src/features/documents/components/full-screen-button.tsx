import { useEffect, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router';

export interface FullScreenButtonProps {
  /** The region that fills the screen: the preview. */
  target: RefObject<HTMLElement | null>;
  /** Where the document shows as a full page when the browser cannot fill the screen; null when it already does. */
  fallbackPath: string | null;
}

const canFillScreen = () => typeof document !== 'undefined' && document.fullscreenEnabled === true;

/** Returns whether `target` fills the screen now, following the browser's changes (Escape ends it too). */
function useIsFullScreen(target: RefObject<HTMLElement | null>): boolean {
  const [full, setFull] = useState(false);
  useEffect(() => {
    const follow = () => setFull(Boolean(target.current) && document.fullscreenElement === target.current);
    document.addEventListener('fullscreenchange', follow);
    return () => document.removeEventListener('fullscreenchange', follow);
  }, [target]);
  return full;
}

/**
 * Full screen: the preview fills the screen (the Fullscreen API) and Exit full screen (or Escape)
 * ends it. Where the browser cannot (an iPhone, an embedding page that forbids it), the document
 * opens on its full page instead; when there is none to go to, the action is not offered.
 */
export function FullScreenButton({ target, fallbackPath }: FullScreenButtonProps) {
  const navigate = useNavigate();
  const full = useIsFullScreen(target);
  if (!canFillScreen() && !fallbackPath) return null;
  const toFullPage = () => {
    if (fallbackPath) void navigate(fallbackPath);
  };
  const toggle = () => {
    const region = target.current;
    if (full) {
      void document.exitFullscreen();
    } else if (region && canFillScreen()) {
      region.requestFullscreen().catch(toFullPage);
    } else {
      toFullPage();
    }
  };
  return (
    <button type="button" className="button button-quiet" onClick={toggle}>
      {full ? 'Exit full screen' : 'Full screen'}
    </button>
  );
}
