import { useCallback, useMemo, useState } from 'react';
import { MAX_BULK_SOURCES } from '../messages';

/** The state of a bulk selection against the spec's 1-to-50 rule. */
export function bulkSelectionState(count: number, max = MAX_BULK_SOURCES) {
  return { count, canApply: count >= 1 && count <= max, overLimit: count > max };
}

/**
 * Tracks which rows are checked. Ids that are no longer in `available` (an unfollowed source)
 * drop out of the selection. `max` is the most one action takes.
 */
export function useBulkSelection(available: string[], max = MAX_BULK_SOURCES) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const selected = useMemo(() => available.filter((id) => picked.has(id)), [available, picked]);

  const toggle = useCallback((id: string) => {
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const allSelected = available.length > 0 && selected.length === available.length;
  const toggleAll = useCallback(() => setPicked(allSelected ? new Set() : new Set(available)), [allSelected, available]);
  const clear = useCallback(() => setPicked(new Set()), []);

  return { selected, isSelected: (id: string) => picked.has(id), toggle, toggleAll, allSelected, clear, ...bulkSelectionState(selected.length, max) };
}
