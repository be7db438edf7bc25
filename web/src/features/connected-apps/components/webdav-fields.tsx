import { TextField } from '../../../components/ui/text-field';
import type { FieldErrors } from '../credentials';
import type { WebdavDraft } from '../webdav-account';
import { CredentialFields } from './credential-fields';

export interface WebdavFieldsProps {
  draft: WebdavDraft;
  errors: FieldErrors<WebdavDraft>;
  onChange: (field: keyof WebdavDraft, value: string) => void;
}

/** Which folder and whose it is: the folder's web address, the account and its password. */
export function WebdavFields({ draft, errors, onChange }: WebdavFieldsProps) {
  return (
    <>
      <TextField
        label="Folder address"
        name="url"
        type="url"
        inputMode="url"
        value={draft.url}
        onChange={(e) => onChange('url', e.target.value)}
        placeholder="https://cloud.example.com/remote.php/dav/files/ann/Reports/"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint="The folder’s WebDAV address. Nextcloud and ownCloud show it in Files, under Settings; a NAS in its WebDAV settings. Plain http:// works only towards networks this server’s operator allowed."
        error={errors.url}
      />
      <CredentialFields
        credentials={draft}
        errors={errors}
        onChange={onChange}
        usernameHint="The name you sign in to the drive with."
        passwordHint="Nextcloud and ownCloud want an app password here, made in your personal settings, under Security."
      />
    </>
  );
}
