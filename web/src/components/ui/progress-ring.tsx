export interface ProgressRingProps {
  /** 0 to 100. */
  value: number;
  /** What is progressing, for screen readers ("Uploading report.pdf"). */
  label: string;
  size?: number;
}

const STROKE = 3;

/** A small circular progress indicator, exposed as a progressbar with its value. */
export function ProgressRing({ value, label, size = 28 }: ProgressRingProps) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  const radius = (size - STROKE) / 2;
  const circumference = 2 * Math.PI * radius;
  return (
    <span
      className="progress-ring"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}%`}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden="true">
        <circle className="progress-ring-track" cx={size / 2} cy={size / 2} r={radius} strokeWidth={STROKE} fill="none" />
        <circle
          className="progress-ring-value"
          cx={size / 2}
          cy={size / 2}
          r={radius}
          strokeWidth={STROKE}
          fill="none"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - percent / 100)}
          transform={`rotate(-90 ${size / 2} ${size / 2})`}
        />
      </svg>
    </span>
  );
}
