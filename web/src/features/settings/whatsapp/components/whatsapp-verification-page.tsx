import { WhatsappVerification } from './whatsapp-verification';
import '../whatsapp.css';

/** /pulse/whatsapp-verification: the profile's WhatsApp number verified by a code sent to it. */
export function WhatsappVerificationPage() {
  return (
    <div className="stack-lg">
      <h1 className="pulse-title">Verify your WhatsApp number</h1>
      <section className="card stack" aria-label="WhatsApp verification">
        <WhatsappVerification />
      </section>
    </div>
  );
}
