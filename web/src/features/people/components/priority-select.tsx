import { PRIORITIES, type Priority } from '../api/people-api';

/** A labelled select of the three priorities (with "All priorities" when `any` is given). */
export function PersonPrioritySelect({
  label,
  value,
  onChange,
  any,
}: {
  label: string;
  value: Priority | '';
  onChange: (priority: Priority | '') => void;
  any?: string;
}) {
  return (
    <select className="input select" aria-label={label} value={value} onChange={(e) => onChange(e.target.value as Priority | '')}>
      {any !== undefined && <option value="">{any}</option>}
      {PRIORITIES.map((p) => (
        <option key={p.value} value={p.value}>
          {p.label}
        </option>
      ))}
    </select>
  );
}
