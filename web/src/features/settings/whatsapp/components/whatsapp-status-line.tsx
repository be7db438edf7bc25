import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Spinner } from '../../../../components/ui/spinner';
import { PULSE_PATHS } from '../../../../lib/variant';
import { whatsappQueries } from '../api/whatsapp-api';

/**
 * Whether the profile's WhatsApp number is verified ("Verified" or "Not verified"), with the way to
 * verify it, and whether this user must.
 */
export function WhatsappStatusLine() {
  const status = useQuery(whatsappQueries.status());
  if (status.isPending) return <Spinner label="Checking your WhatsApp number" />;
  if (status.isError) {
    return (
      <p className="form-error" role="alert">
        Whether your number is verified could not be loaded.{' '}
        <button type="button" className="button button-quiet" onClick={() => void status.refetch()}>
          Try again
        </button>
      </p>
    );
  }
  const { number, verified, required } = status.data;
  const need = required ? 'You need a verified WhatsApp number to receive updates.' : 'Verifying it is optional.';
  if (!number) return <p className="muted">Add your WhatsApp number above to verify it. {need}</p>;
  return (
    <div className="stack">
      <p className="whatsapp-status" data-testid="whatsapp-status">
        <span className="muted">{number}</span>{' '}
        <strong className={verified ? 'whatsapp-badge whatsapp-badge-verified' : 'whatsapp-badge'}>{verified ? 'Verified' : 'Not verified'}</strong>
      </p>
      {!verified && (
        <p>
          {need}{' '}
          <Link to={PULSE_PATHS.verify} className="button button-primary">
            Verify your number
          </Link>
        </p>
      )}
    </div>
  );
}
