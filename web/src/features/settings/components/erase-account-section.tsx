import { useState } from 'react';
import { EraseAccountDialog } from './erase-account-dialog';

/**
 * The settings section that erases the user's own account: what erasing does, said plainly,
 * and the button that opens the dialog asking for the password.
 */
export function EraseAccountSection() {
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="card stack danger-zone" aria-labelledby="erase-heading">
      <h2 id="erase-heading" className="card-title">
        Erase account
      </h2>
      <p>
        Erasing your account removes your name, email, password and the texts of your comments for good: they cannot be
        recovered. Your comments stay in their threads, marked as removed. This cannot be undone.
      </p>
      <div>
        <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
          Erase account…
        </button>
      </div>
      {confirming && <EraseAccountDialog onClose={() => setConfirming(false)} />}
    </section>
  );
}
