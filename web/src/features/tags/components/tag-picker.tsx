import { useState } from 'react';
import { Popover } from '../../../components/ui/popover';
import type { Tag } from '../api/tag-api';
import { TagPickerPanel } from './tag-picker-panel';

export interface TagPickerProps {
  deeplink: string;
  /** The document's title, for screen readers. */
  subject: string;
  /** The tags the picker edits as the document has them now (the user's, or in a channel its shared ones). */
  current: Tag[] | undefined;
  channelId?: string | null;
  feedId?: string | null;
}

/**
 * The card's Tags button and its picker. The picker starts from the tags the card shows when it
 * opens; those are sent as the base of the change, so tags someone else puts on or takes off
 * meanwhile are kept.
 */
export function TagPicker({ deeplink, subject, current, channelId = null, feedId = null }: TagPickerProps) {
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger={
        <>
          <span aria-hidden="true">#</span> Tags
        </>
      }
      triggerLabel={`Tags of ${subject}`}
      title={`Tags of ${subject}`}
      open={open}
      onOpenChange={setOpen}
      disabled={current === undefined}
      className="tag-picker"
    >
      {current && (
        <TagPickerPanel
          deeplink={deeplink}
          base={current}
          channelId={channelId}
          feedId={feedId}
          onClose={() => setOpen(false)}
        />
      )}
    </Popover>
  );
}
