import { useStarChannel } from '../hooks/use-channel-mutations';
import { StarIcon } from '../../../components/ui/icons';

/** Stars or unstars a group for the user (starred groups come first in the lists). */
export function StarToggle({ channelId, name, starred }: { channelId: string; name: string; starred: boolean }) {
  const star = useStarChannel(channelId);
  return (
    <button
      type="button"
      className="button button-quiet star-toggle"
      aria-pressed={starred}
      aria-label={`Star ${name}`}
      title={starred ? 'Starred' : 'Star this group'}
      onClick={() => star.mutate(!starred)}
    >
      <StarIcon size={18} fill={starred ? 'currentColor' : 'none'} />
    </button>
  );
}
