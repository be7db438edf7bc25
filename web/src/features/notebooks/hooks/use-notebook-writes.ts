import { useQuery } from '@tanstack/react-query';
import { featureQueries } from '../../../lib/queries/feature-queries';

/**
 * Returns whether the user may change notebooks and notes: the server refuses writes without
 * the `notebooks` flag (reads stay allowed), so the page offers none then. Until the flags are
 * known the controls show; the server still has the last word.
 */
export const useNotebookWrites = (): boolean => useQuery(featureQueries.config()).data?.features.notebooks !== false;
