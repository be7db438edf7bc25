import { json } from '../../../test/render';

/** A feed as GET /boards/v2 lists it. */
export const summary = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  board_id: id,
  board_name: name,
  description: '',
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
  enabled: true,
  isNew: false,
  kind: 'keyword',
  priority: 'MEDIUM',
  alerts: 'off',
  channels: [],
  can_undo: false,
  ...extra,
});

/** A feed with its definition, as the server sends it (untouched parts null). */
export const board = (id: string, name: string, definition: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  ...summary(id, name, extra),
  definition: {
    name,
    description: '',
    keywords: { include: [{ keyword: 'inflation', valid: true }], exclude: [] },
    sources: null,
    secondary_sources: null,
    common: null,
    date_range: null,
    group: 'default',
    companies: null,
    attributes: null,
    topics: null,
    currentTopic: null,
    type: 'keyword',
    ...definition,
  },
});

export const flags = (features: Record<string, boolean>) => () => json(200, { features });

export const choices = () =>
  json(200, {
    sources: [
      { source_id: 'src_reuters', label: 'Reuters Markets', category: 'rss_news' },
      { source_id: 'src_bse', label: 'BSE Filings', category: 'india_regulatory_data' },
    ],
    categories: [{ key: 'rss_news', label: 'News' }],
    date_ranges: [],
    topics: [{ key: 'ma', label: 'M&A', description: 'Mergers and acquisitions' }],
  });
