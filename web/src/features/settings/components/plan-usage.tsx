import { ProgressBar } from '../../../components/ui/progress-bar';
import { formatFileSize } from '../../../lib/format';
import type { PlanLimits, PlanUsage } from '../../../lib/pricing';

type Counted = keyof PlanUsage;

/** What the Plan page counts, in order, and how each amount is written. */
const COUNTED: ReadonlyArray<{ key: Counted; label: string; amount: (n: number) => string }> = [
  { key: 'feeds', label: 'Feeds', amount: String },
  { key: 'enabled_feeds', label: 'Enabled feeds', amount: String },
  { key: 'notebooks', label: 'Notebooks', amount: String },
  { key: 'storage_bytes', label: 'Storage', amount: formatFileSize },
];

/** Returns "2 of 25", or "2" with no limit (sizes written as "1.5 MB"). */
export function usageOf(used: number, limit: number | null, amount: (n: number) => string = String): string {
  return limit === null ? `${amount(used)} · no limit` : `${amount(used)} of ${amount(limit)}`;
}

/** Returns how full a limit is, in percent (a limit of 0 with something in it is full). */
const percentOf = (used: number, limit: number) => (limit > 0 ? (used / limit) * 100 : used > 0 ? 100 : 0);

/**
 * The user's usage against the plan's limits: a labelled bar for each limit when the plan
 * applies, the bare amounts when it does not; a word when a limit is passed (after a downgrade,
 * which deletes nothing).
 */
export function PlanUsageList({ usage, limits, pricing }: { usage: PlanUsage; limits: PlanLimits; pricing: boolean }) {
  return (
    <ul className="plan-usage" aria-label="Usage">
      {COUNTED.map(({ key, label, amount }) => {
        const used = usage[key];
        const limit = pricing ? limits[key] : null;
        const text = pricing ? usageOf(used, limit, amount) : amount(used);
        return (
          <li key={key} className="plan-usage-row">
            <div className="plan-usage-line">
              <span>{label}</span>
              <span className="muted">{text}</span>
            </div>
            {limit !== null && <ProgressBar value={percentOf(used, limit)} label={`${label} used`} valueText={text} />}
            {limit !== null && used > limit && <p className="small form-error">Over the plan's limit: nothing is removed, but no more can be added.</p>}
          </li>
        );
      })}
    </ul>
  );
}
