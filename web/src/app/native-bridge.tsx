import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { startNativeBridge } from '../lib/native-bridge';
import { useToast } from './toast-context';

/**
 * Mounts the native-app bridge (src/lib/native-bridge.ts) once, inside the router and the toasts:
 * the host's messages navigate, go back and show download toasts. It listens for the app's
 * life; the router's latest location and navigate are read through refs.
 */
export function NativeBridge() {
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const latest = useRef({ navigate, address: '', toast });
  latest.current = { navigate, address: `${location.pathname}${location.search}${location.hash}`, toast };

  useEffect(
    () =>
      startNativeBridge({
        navigate: (path) => void latest.current.navigate(path),
        back: () => void latest.current.navigate(-1),
        address: () => latest.current.address,
        notify: (kind, message) => void latest.current.toast[kind](message),
      }),
    [],
  );
  return null;
}
