import { Modal } from '../../../components/ui/modal';

/** Shown when the session is lost and cannot be refreshed; reloading leads to sign-in. */
export function SignInRequiredModal({ onReload = () => window.location.reload() }: { onReload?: () => void }) {
  return (
    <Modal
      title="Sign-In Required"
      actions={
        <button type="button" className="button button-primary" onClick={onReload}>
          Reload
        </button>
      }
    >
      <p>
        You have been logged out of your account. To sign in to the product again, please click the &apos;Reload&apos;
        button
      </p>
    </Modal>
  );
}
