import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ssoErrorText } from '../sso-errors';

/**
 * Returns the sentence for the organisation sign-in failure the server sent back
 * (`?sso_error=CODE`), or null. The parameter is removed from the address at once, so a reload
 * or a shared link does not say it again; the sentence stays while the page is open.
 */
export function useSsoError(): string | null {
  const [params, setParams] = useSearchParams();
  const [text] = useState(() => ssoErrorText(params.get('sso_error')));

  useEffect(() => {
    if (!params.has('sso_error')) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('sso_error');
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);

  return text;
}
