import { formatRelative } from '../../../lib/format';
import { exactTime } from '../audit-format';

/** An instant as a person reads it ("5 mins ago"), with the exact time on hover and for machines. */
export function When({ instant, now }: { instant: string; now?: Date }) {
  const exact = exactTime(instant);
  return (
    <time dateTime={instant} title={exact}>
      {formatRelative(instant, now)}
      <span className="visually-hidden">, {exact}</span>
    </time>
  );
}
