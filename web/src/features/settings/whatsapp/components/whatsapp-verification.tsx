import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../../../components/ui/empty-state';
import { Spinner } from '../../../../components/ui/spinner';
import { PULSE_PATHS } from '../../../../lib/variant';
import { useWhatsappVerification } from '../hooks/use-whatsapp-verification';
import { CodeForm } from './code-form';
import { SendCode } from './send-code';

const profileLink = (text: string) => <Link to={PULSE_PATHS.profile}>{text}</Link>;

/**
 * Verifying the profile's WhatsApp number: the number, Send code, and once a code is outstanding
 * the field to type it into. Verified, it goes on to the profile page. Without a number it asks
 * for one on the profile page; already verified, it says so.
 */
export function WhatsappVerification() {
  const navigate = useNavigate();
  const flow = useWhatsappVerification({ onVerified: () => void navigate(PULSE_PATHS.profile) });
  const { status, send, verify } = flow;

  if (status.isPending) return <Spinner label="Loading your WhatsApp number" showLabel />;
  if (status.isError) {
    return (
      <EmptyState title="Your WhatsApp number could not be loaded" role="alert">
        <button type="button" className="button" onClick={() => void status.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  const { number, verified, required, code_sent_at } = status.data;
  if (!number) {
    return (
      <div className="stack">
        <p>Add your WhatsApp number to your profile first: the code is sent to it.</p>
        <p>{profileLink('Add your WhatsApp number')}</p>
      </div>
    );
  }
  if (verified) {
    return (
      <div className="stack">
        <p className="form-success" role="status">
          Your WhatsApp number {number} is verified.
        </p>
        <p>{profileLink('Back to your profile')}</p>
      </div>
    );
  }
  return (
    <div className="stack">
      <p>
        We send a 6-digit code to <strong data-testid="whatsapp-number">{number}</strong> on WhatsApp.{' '}
        {profileLink('Change the number')}
      </p>
      {!required && (
        <p className="small muted">
          Verifying your number is optional for your account. {profileLink('Skip for now')}
        </p>
      )}
      <SendCode
        onSend={() => {
          verify.reset();
          send.mutate();
        }}
        pending={send.isPending}
        sent={send.data}
        error={send.error}
        codeSentAt={code_sent_at}
        resendIn={flow.resendIn}
      />
      {flow.codeOutstanding && (
        <CodeForm onVerify={(code) => verify.mutate(code)} pending={verify.isPending} error={verify.error} onEdit={verify.reset} />
      )}
    </div>
  );
}
