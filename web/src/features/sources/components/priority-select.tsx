import { PRIORITIES, type Priority } from '../api/source-api';

export interface PrioritySelectProps {
  label: string;
  value: Priority | '';
  onChange: (priority: Priority) => void;
  disabled?: boolean;
  placeholder?: string;
}

/** A labelled select of the three priorities. */
export function PrioritySelect({ label, value, onChange, disabled, placeholder }: PrioritySelectProps) {
  return (
    <select
      className="input select"
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as Priority)}
    >
      {placeholder && (
        <option value="" disabled>
          {placeholder}
        </option>
      )}
      {PRIORITIES.map((p) => (
        <option key={p.value} value={p.value}>
          {p.label}
        </option>
      ))}
    </select>
  );
}
