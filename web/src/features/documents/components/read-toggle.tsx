import { CheckIcon, CircleIcon } from '../../../components/ui/icons';

export interface ReadToggleProps {
  read: boolean;
  onToggle: () => void;
  /** What the button is about, for screen readers (the document's title). */
  subject: string;
}

/** A toggle button: pressed when the document is read. */
export function ReadToggle({ read, onToggle, subject }: ReadToggleProps) {
  return (
    <button type="button" className="button read-toggle" aria-pressed={read} onClick={onToggle}>
      {read ? <CheckIcon size={16} /> : <CircleIcon size={16} />} Read<span className="visually-hidden"> {subject}</span>
    </button>
  );
}
