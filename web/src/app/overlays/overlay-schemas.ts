/** The parameter schemas of the overlay kinds, checked against the `overlay-` query parameters. */
import { z } from 'zod';
import { BUILDER_PAGES } from '../../features/feeds';

const required = z.string().min(1);
const optional = z.string().optional();

export const previewParamsSchema = z.object({
  type: z.literal('preview'),
  source: required,
  category: required,
  deeplink: required,
  access_key: optional,
  comments: optional,
  comment_id: optional,
  board_id: optional,
  channel_id: optional,
  global_channel_id: optional,
  category_tab: optional,
  preview_askneedl: optional,
});

export const askNeedlParamsSchema = z.object({ type: z.literal('ask-needl'), session_id: optional });

export const portfolioParamsSchema = z.object({ type: z.literal('portfolio') });

/** The dashboard opens a report as `overlay-report-id`. */
export const reportParamsSchema = z.object({ type: z.literal('report'), 'report-id': required });

/** The builder's pages (the feeds feature owns them). */
export const CUSTOM_FEED_PAGES = BUILDER_PAGES;

/** An unknown page passes: the builder logs it and shows nothing (the spec). */
export const customFeedParamsSchema = z.object({
  type: z.literal('custom-feed'),
  page: z.string().default('select-feed-type'),
  'template-id': optional,
  'board-id': optional,
  'search-template': optional,
  'suggestion-ids': optional,
});

export type PreviewParams = z.infer<typeof previewParamsSchema>;
export type ReportParams = z.infer<typeof reportParamsSchema>;
export type CustomFeedParams = z.infer<typeof customFeedParamsSchema>;
