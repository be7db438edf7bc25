import { Link } from 'react-router';
import { PULSE_PATHS } from '../../../../lib/variant';
import { ProfileDetails } from '../../profile/components/profile-details';
import { WhatsappStatusLine } from './whatsapp-status-line';
import '../whatsapp.css';

/**
 * /pulse/settings/user-settings, where the pulse variant lands after sign-in: the profile with
 * the WhatsApp number, whether that number is verified (and the way to verify it), and the way to
 * the portfolio.
 */
export function PulseProfilePage() {
  return (
    <div className="stack-lg">
      <h1 className="pulse-title">Your profile</h1>
      <section className="card" aria-labelledby="pulse-profile-heading">
        <h2 id="pulse-profile-heading" className="card-title">
          Profile
        </h2>
        <ProfileDetails />
      </section>
      <section className="card" aria-labelledby="pulse-whatsapp-heading">
        <h2 id="pulse-whatsapp-heading" className="card-title">
          WhatsApp verification
        </h2>
        <WhatsappStatusLine />
      </section>
      <section className="card stack" aria-labelledby="pulse-portfolio-heading">
        <h2 id="pulse-portfolio-heading" className="card-title">
          Portfolio
        </h2>
        <p className="muted">The companies you hold: your updates are about them.</p>
        <p>
          <Link to={PULSE_PATHS.portfolio} className="button">
            Update your portfolio
          </Link>
        </p>
      </section>
    </div>
  );
}
