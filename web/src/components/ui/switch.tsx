export interface SwitchProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  description?: string;
}

/** An on/off control exposed as role=switch; Space and Enter toggle it like any button. */
export function Switch({ label, checked, onChange, disabled, description }: SwitchProps) {
  return (
    <div className="switch-row">
      <div>
        <span className="switch-label" aria-hidden="true">
          {label}
        </span>
        {description && <p className="muted small">{description}</p>}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        disabled={disabled}
        className="switch"
        onClick={() => onChange(!checked)}
      >
        <span className="switch-thumb" />
      </button>
    </div>
  );
}
