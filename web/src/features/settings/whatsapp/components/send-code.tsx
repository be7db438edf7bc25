import { isApiError, serverMessage } from '../../../../lib/api-client';
import { formatRelative } from '../../../../lib/format';
import { WHATSAPP_REFUSALS, type CodeSent } from '../api/whatsapp-api';

export const SEND_FAILED = 'The code could not be sent just now. Please try again in a moment.';
export const TOO_MANY_CODES = 'You have asked for several codes in a short time.';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Returns a time as the phone's clock shows it (14:05). */
const clockTime = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export interface SendCodeProps {
  onSend: () => void;
  pending: boolean;
  /** What the last ask answered, if it was answered. */
  sent: CodeSent | undefined;
  /** The refusal of the last ask, if it was refused. */
  error: Error | null;
  /** When the outstanding code was sent (it may have been asked for before this page opened). */
  codeSentAt: string | null;
  /** Seconds before another code may be asked for. */
  resendIn: number;
}

/**
 * Send code (Send a new code once one is outstanding): what was sent and until when, the wait
 * before another may be asked for, counted down on the button, and why an ask was refused.
 */
export function SendCode({ onSend, pending, sent, error, codeSentAt, resendIn }: SendCodeProps) {
  const label = codeSentAt || sent ? 'Send a new code' : 'Send code';
  const throttled = isApiError(error) && error.code === WHATSAPP_REFUSALS.tooManyCodes;
  const refusal = error ? (throttled ? TOO_MANY_CODES : capitalised(serverMessage(error) ?? SEND_FAILED)) : null;
  return (
    <div className="stack">
      {sent ? (
        <p className="form-success" role="status">
          Code sent to {sent.sent_to}. It works until {clockTime(sent.expires_at)}.
        </p>
      ) : (
        codeSentAt && <p className="small muted">A code was sent {formatRelative(codeSentAt)}.</p>
      )}
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
      <div className="whatsapp-send">
        <button type="button" className="button" onClick={onSend} disabled={pending || resendIn > 0}>
          {pending ? 'Sending…' : label}
        </button>
        {resendIn > 0 && (
          <span className="small muted" data-testid="resend-countdown">
            You can ask for another code in {resendIn} s.
          </span>
        )}
      </div>
    </div>
  );
}
