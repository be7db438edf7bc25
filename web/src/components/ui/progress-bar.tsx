export interface ProgressBarProps {
  /** 0 to 100; values past 100 show a full bar in the warning colour. */
  value: number;
  label: string;
  /** Read out instead of the percentage ("1.5 GB of 5 GB"). */
  valueText?: string;
}

/** A horizontal bar exposed as a progressbar with its value. */
export function ProgressBar({ value, label, valueText }: ProgressBarProps) {
  const percent = Math.max(0, Math.round(value));
  const shown = Math.min(100, percent);
  return (
    <div
      className={`progress-bar${percent >= 90 ? ' progress-bar-high' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={shown}
      aria-valuetext={valueText ?? `${shown}%`}
    >
      <div className="progress-bar-fill" style={{ width: `${shown}%` }} />
    </div>
  );
}
