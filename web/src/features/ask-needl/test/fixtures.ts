/** Test data for the assistant's components. */
import type { Citation } from '../types';

const CONTEXT = 'In the year under review the company said that revenue grew by twelve percent to a record high across all regions.';

export const citation = (over: Partial<Citation> = {}): Citation => ({
  id: 1,
  document_id: 'doc-1',
  access_key: 'key-1',
  source: 'needldrive',
  category_tab: 'documents',
  title_label: 'Annual report 2024',
  source_label: 'Needl Drive',
  unix: 1_709_596_800,
  context: CONTEXT,
  highlight_indexes: [[CONTEXT.indexOf('revenue'), CONTEXT.indexOf(' to a record')]],
  document_highlight: { page_number: 3, coordinates: [], lines: [[10, 20, 200, 32], [10, 34, 180, 46]] },
  ...over,
});
