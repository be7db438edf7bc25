import { useQuery } from '@tanstack/react-query';
import { featureQueries } from '../../../lib/queries/feature-queries';

/** The assistant's feature flags; `loading` until the user's flags arrive. */
export function useAskFlags() {
  const features = useQuery(featureQueries.config());
  const flags = features.data?.features ?? {};
  return {
    loading: features.isPending,
    copilot: features.isPending ? undefined : Boolean(flags.ask_needl_copilot),
    pro: Boolean(flags.ask_needl_pro),
    history: Boolean(flags.ask_needl_history),
    upload: Boolean(flags.ask_needl_upload),
    webScope: Boolean(flags.ask_needl_dataset_selection_needl_universe),
    notebooks: Boolean(flags.notebooks),
  };
}
