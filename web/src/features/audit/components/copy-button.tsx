import { useState } from 'react';
import { CopyIcon } from '../../../components/ui/icons';
import { copyText } from '../../../lib/clipboard';

/** A button that copies `text` (a hash, a signature) and says whether it could. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [result, setResult] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await copyText(text);
      setResult('copied');
    } catch {
      setResult('failed');
    }
  };
  return (
    <>
      <button type="button" className="icon-button audit-copy" aria-label={label} title={label} onClick={() => void copy()}>
        <CopyIcon aria-hidden="true" size={14} />
      </button>
      <span className="small muted" role="status">
        {result === 'copied' ? 'Copied' : result === 'failed' ? 'Could not copy' : ''}
      </span>
    </>
  );
}
