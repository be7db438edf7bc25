/**
 * Every call of custom feeds (the spec's boards) and the shape of every request and answer, in
 * one file so the shapes are easy to adjust to the server (the contract is FEEDS.md). Answers are
 * checked with zod where a component depends on a field; fields the server may leave out (or
 * send as null, as a definition's untouched parts are) get their defaults here, so components
 * never see a half-filled definition.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { DATE_RANGE_SHORTHANDS } from '../../../lib/format';
import { boardKeys } from '../../../lib/queries/board-keys';
import { sentimentField } from '../../../lib/sentiment';

// ---------------------------------------------------------------------------------------------
// The definition, as the builder sends it (the server refuses unknown fields).

export type DateRangeCode = (typeof DATE_RANGE_SHORTHANDS)[number]['shorthand'];
export const DATE_RANGE_CODES: readonly DateRangeCode[] = DATE_RANGE_SHORTHANDS.map((d) => d.shorthand);

export interface FeedKeyword {
  keyword: string;
  valid: boolean;
}

export type KeywordList = 'include' | 'exclude';

/** One source's filter: `filter` includes it, `exclusion_filter` excludes it (never both). */
export interface SourceFilter {
  filter: boolean;
  exclusion_filter: boolean;
  exclusion_rules?: { keywords: string[] };
}

/** A company an AI feed follows: matched by name and aliases as phrases, the codes as words. */
export interface Company {
  name: string;
  isin?: string;
  cin?: string;
  codes?: string[];
  aliases?: string[];
}

export type FeedKind = 'keyword' | 'ai';

export interface FeedDefinition {
  name: string;
  description: string;
  keywords: { include: FeedKeyword[]; exclude: FeedKeyword[] };
  sources: Record<string, SourceFilter>;
  secondary_sources: string[];
  /** Categories kept (`filter: true`); none means every category. */
  common: Record<string, { filter: boolean }>;
  date_range: DateRangeCode | null;
  group: string;
  companies: Company[];
  attributes: string[];
  /** Topic keys (from the builder's choices). */
  topics: string[];
  currentTopic: string | null;
  type: string;
}

export const emptyDefinition = (type: string = 'keyword'): FeedDefinition => ({
  name: '',
  description: '',
  keywords: { include: [], exclude: [] },
  sources: {},
  secondary_sources: [],
  common: {},
  date_range: null,
  group: 'default',
  companies: [],
  attributes: [],
  topics: [],
  currentTopic: null,
  type,
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const keywordList = (value: unknown): FeedKeyword[] =>
  Array.isArray(value)
    ? value
        .map((k) => (typeof k === 'string' ? { keyword: k } : isRecord(k) ? k : {}))
        .filter((k): k is { keyword: string; valid?: unknown } => typeof k.keyword === 'string')
        .map((k) => ({ keyword: k.keyword, valid: k.valid !== false }))
    : [];

/**
 * Returns a definition the builder can edit from whatever the server or a template holds: every
 * part present, unknown parts dropped (the server refuses them).
 */
export function normalizeDefinition(raw: unknown): FeedDefinition {
  const d = isRecord(raw) ? raw : {};
  const base = emptyDefinition(typeof d.type === 'string' ? d.type : 'keyword');
  const keywords = isRecord(d.keywords) ? d.keywords : {};
  const sources: Record<string, SourceFilter> = {};
  if (isRecord(d.sources)) {
    for (const [id, value] of Object.entries(d.sources)) {
      if (!isRecord(value)) continue;
      const rules = isRecord(value.exclusion_rules) ? strings(value.exclusion_rules.keywords) : [];
      sources[id] = {
        filter: value.filter === true,
        exclusion_filter: value.exclusion_filter === true,
        ...(rules.length > 0 ? { exclusion_rules: { keywords: rules } } : {}),
      };
    }
  }
  const common: Record<string, { filter: boolean }> = {};
  if (isRecord(d.common)) {
    for (const [key, value] of Object.entries(d.common)) {
      if (isRecord(value) && value.filter === true) common[key] = { filter: true };
    }
  }
  const companies = Array.isArray(d.companies)
    ? d.companies.filter(isRecord).filter((c) => typeof c.name === 'string').map((c) => ({
        name: c.name as string,
        ...(typeof c.isin === 'string' ? { isin: c.isin } : {}),
        ...(typeof c.cin === 'string' ? { cin: c.cin } : {}),
        ...(Array.isArray(c.codes) ? { codes: strings(c.codes) } : {}),
        ...(Array.isArray(c.aliases) ? { aliases: strings(c.aliases) } : {}),
      }))
    : [];
  const topics = Array.isArray(d.topics)
    ? d.topics.map((t) => (typeof t === 'string' ? t : isRecord(t) && typeof t.key === 'string' ? t.key : null)).filter((t): t is string => t !== null)
    : [];
  return {
    ...base,
    name: typeof d.name === 'string' ? d.name : '',
    description: typeof d.description === 'string' ? d.description : '',
    keywords: { include: keywordList(keywords.include), exclude: keywordList(keywords.exclude) },
    sources,
    secondary_sources: strings(d.secondary_sources),
    common,
    date_range: (DATE_RANGE_CODES as readonly string[]).includes(d.date_range as string) ? (d.date_range as DateRangeCode) : null,
    group: typeof d.group === 'string' && d.group ? d.group : 'default',
    companies,
    attributes: strings(d.attributes),
    topics,
    currentTopic: typeof d.currentTopic === 'string' ? d.currentTopic : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Answers.

const definitionSchema = z.unknown().transform(normalizeDefinition);

export const PRIORITIES = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const ALERT_MODES = ['off', 'immediate', 'digest'] as const;
export type AlertMode = (typeof ALERT_MODES)[number];

const channelRef = z.object({ id: z.string(), name: z.string() });
export type ChannelRef = z.infer<typeof channelRef>;

const summarySchema = z.object({
  board_id: z.string(),
  board_name: z.string(),
  description: z.string().nullish().transform((d) => d ?? ''),
  created_at: z.string(),
  updated_at: z.string().nullish(),
  enabled: z.boolean(),
  isNew: z.boolean().optional().default(false),
  kind: z.enum(['keyword', 'ai']).catch('keyword'),
  priority: z.enum(PRIORITIES).catch('MEDIUM'),
  alerts: z.enum(ALERT_MODES).catch('off'),
  channels: z.array(channelRef).nullish().transform((c) => c ?? []),
  can_undo: z.boolean().optional().default(false),
});

/** A feed as the list shows it. */
export type BoardSummary = z.infer<typeof summarySchema>;

const boardSchema = summarySchema.extend({ definition: definitionSchema });
/** A feed with its definition. */
export type Board = z.infer<typeof boardSchema>;

const storySchema = z.object({
  id: z.string(),
  size: z.number(),
  sources: z.array(z.string()).catch([]),
});

/** A document of a feed: the search card plus its read status and its story cluster. */
const feedDocumentSchema = z.looseObject({
  id: z.string().optional(),
  deeplink: z.string(),
  source: z.string(),
  title: z.string().catch('Untitled'),
  link: z.string().nullish().transform((l) => l ?? null),
  summary: z.string().nullish().transform((s) => s ?? null),
  author: z.string().nullish().transform((a) => a ?? null),
  published_at: z.string().nullish().transform((p) => p ?? null),
  ingested_at: z.string().nullish().transform((i) => i ?? ''),
  metadata: z.record(z.string(), z.unknown()).nullish().transform((m) => (m ?? {}) as Record<string, string>),
  read: z.boolean().optional(),
  status: z.enum(['read', 'unread']).optional(),
  access_key: z.string().optional(),
  source_label: z.string().nullish(),
  category_tab: z.string().nullish(),
  story: storySchema.nullish().transform((s) => s ?? null),
  sentiment: sentimentField,
});

export type FeedDocument = z.infer<typeof feedDocumentSchema> & { read: boolean };

/** The card reads its source's name from the metadata when the user does not follow the source. */
const toFeedDocument = (doc: z.infer<typeof feedDocumentSchema>): FeedDocument => ({
  ...doc,
  metadata: doc.source_label && !doc.metadata.source_label ? { ...doc.metadata, source_label: doc.source_label } : doc.metadata,
  read: doc.read ?? doc.status === 'read',
});

/**
 * One page of a feed's documents. The answer carries the feed too (`Board & {documents, ...}`);
 * only the page is read here, so the list does not break on a change to the feed's own fields.
 */
const boardPageSchema = z.object({
  documents: z.array(feedDocumentSchema).transform((docs) => docs.map(toFeedDocument)),
  count: z.number().optional().default(0),
  page: z.number(),
  has_more: z.boolean(),
});

export type BoardPage = z.infer<typeof boardPageSchema>;

const previewSchema = z.object({
  count: z.number(),
  results: z.array(feedDocumentSchema).transform((docs) => docs.map(toFeedDocument)),
});
export type FeedPreview = z.infer<typeof previewSchema>;

const choicesSchema = z.object({
  sources: z.array(z.object({ source_id: z.string(), label: z.string(), category: z.string().nullish() })).catch([]),
  categories: z.array(z.object({ key: z.string(), label: z.string() })).catch([]),
  date_ranges: z.array(z.object({ code: z.string(), label: z.string() })).catch([]),
  topics: z.array(z.object({ key: z.string(), label: z.string(), description: z.string().nullish() })).catch([]),
});
export type FeedChoices = z.infer<typeof choicesSchema>;

const boardSourceSchema = z.object({
  source_id: z.string(),
  label: z.string(),
  category: z.string().nullish(),
  mode: z.enum(['include', 'exclude', 'secondary']),
});
export type BoardSource = z.infer<typeof boardSourceSchema>;

const templateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish().transform((d) => d ?? ''),
  /** `organization`: saved by an administrator of this instance; `builtin`: one per finance topic. */
  kind: z.enum(['organization', 'builtin']).catch('builtin'),
  definition: definitionSchema,
});
export type FeedTemplate = z.infer<typeof templateSchema>;

const suggestionSchema = z.object({
  id: z.string(),
  name: z.string(),
  reason: z.string().nullish().transform((r) => r ?? ''),
  definition: definitionSchema,
});
export type FeedSuggestion = z.infer<typeof suggestionSchema>;

const questionsSchema = z.object({
  results: z.array(z.object({ category: z.string(), questions: z.array(z.string()) })),
});

const listAnswer = z.object({ results: z.array(summarySchema) });
const boardAnswer = z.object({ results: boardSchema });
const boardsAnswer = z.object({ results: z.array(boardSchema) });
const pageAnswer = z.object({ results: boardPageSchema });
const channelsAnswer = z.object({ results: z.array(channelRef) });
const sourcesAnswer = z.object({ results: z.array(boardSourceSchema) });
const templatesAnswer = z.object({ results: z.array(templateSchema) });
const suggestionsAnswer = z.object({ results: z.array(suggestionSchema) });

// ---------------------------------------------------------------------------------------------
// Queries.

/** How long the feed list stays fresh (the spec: navigation feeds, 15 s). */
export const BOARD_LIST_STALE_MS = 15_000;
/** Documents a feed page asks for at a time. */
export const BOARD_PAGE_SIZE = 20;

const at = (boardId: string, rest = '') => `/boards/${encodeURIComponent(boardId)}${rest}`;

export const boardQueries = {
  /** The user's feeds, newest first (with `is_pricing`, the server sends only enabled ones). */
  list: () =>
    queryOptions({
      queryKey: boardKeys.list(),
      queryFn: async ({ signal }) => listAnswer.parse(await api.get<unknown>('/boards/v2', { signal })).results,
      staleTime: BOARD_LIST_STALE_MS,
    }),
  /** One feed with its definition; the builder shows a failure itself. */
  definition: (boardId: string) =>
    queryOptions({
      queryKey: boardKeys.definition(boardId),
      queryFn: async ({ signal }) => boardAnswer.parse(await api.get<unknown>(at(boardId), { signal })).results,
      meta: { toast: false },
    }),
  channels: (boardId: string) =>
    queryOptions({
      queryKey: boardKeys.channels(boardId),
      queryFn: async ({ signal }) => channelsAnswer.parse(await api.get<unknown>(at(boardId, '/channels'), { signal })).results,
    }),
  sources: (boardId: string) =>
    queryOptions({
      queryKey: boardKeys.sources(boardId),
      queryFn: async ({ signal }) => sourcesAnswer.parse(await api.get<unknown>(at(boardId, '/sources'), { signal })).results,
    }),
  /** The builder's choices; they change rarely. */
  choices: () =>
    queryOptions({
      queryKey: boardKeys.choices(),
      queryFn: async ({ signal }) => choicesSchema.parse(await api.get<unknown>('/boards/feed_choices', { signal })),
      staleTime: 5 * 60_000,
    }),
  templates: () =>
    queryOptions({
      queryKey: boardKeys.templates(),
      queryFn: async ({ signal }) => templatesAnswer.parse(await api.get<unknown>('/connect/getFeedTemplates', { signal })).results,
      staleTime: 5 * 60_000,
    }),
  suggestions: () =>
    queryOptions({
      queryKey: boardKeys.suggestions(),
      queryFn: async ({ signal }) => suggestionsAnswer.parse(await api.get<unknown>('/boards/suggestions', { signal })).results,
    }),
  /** A draft's matches: the count and the first results. Shown inline, so no toast. */
  preview: (definition: FeedDefinition) => {
    const draft = JSON.stringify(definition);
    return queryOptions({
      queryKey: boardKeys.preview(draft),
      queryFn: async ({ signal }) =>
        previewSchema.parse(await api.post<unknown>('/boards/preview', { body: { definition }, signal })),
      staleTime: 30_000,
      retry: false,
      meta: { toast: false },
    });
  },
  /** Suggested questions for the assistant over one feed, grouped by category; never cached. */
  questions: (boardId: string) =>
    queryOptions({
      queryKey: boardKeys.questions(boardId),
      queryFn: async ({ signal }) =>
        questionsSchema.parse(await api.get<unknown>(`/reports/questions?${new URLSearchParams({ board_id: boardId })}`, { signal }))
          .results,
      gcTime: 0,
      staleTime: 0,
    }),
};

/**
 * A feed's documents for the documents feature's list (which the app hands them to): the key,
 * the call (paged with `page` and `limit`), and how an answer becomes a page of cards. `tab`
 * narrows to one sub-tab (links, media, webclips) by category tab; null is every document.
 */
export const boardListings = {
  documents: (boardId: string, tab: string | null = null) => ({
    queryKey: boardKeys.documents(boardId, tab),
    path: at(boardId, tab ? `/v2?${new URLSearchParams({ category_tab: tab })}` : '/v2'),
    toPage: (answer: unknown) => {
      const { documents, page, has_more, count } = pageAnswer.parse(answer).results;
      return { results: documents, page, has_more, count };
    },
  }),
};

const ownedChannelsAnswer = z.object({
  channels: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
});

/** The groups a feed can be shared into: those the user owns. */
export const channelChoiceQueries = {
  owned: () =>
    queryOptions({
      queryKey: [...boardKeys.all(), 'owned-channels'] as const,
      queryFn: async ({ signal }) =>
        ownedChannelsAnswer
          .parse(await api.get<unknown>('/channels', { signal }))
          .channels.filter((c) => c.role === 'owner')
          .map(({ id, name }) => ({ id, name })),
      staleTime: 15_000,
    }),
};

// ---------------------------------------------------------------------------------------------
// Changes.

export const createBoard = async (definition: FeedDefinition, enabled?: boolean): Promise<Board> =>
  boardAnswer.parse(await api.post<unknown>('/boards/v2', { body: enabled === undefined ? { definition } : { definition, enabled } }))
    .results;

/** Saves a whole definition; the server re-evaluates the feed's history and allows one undo. */
export const updateBoard = async (boardId: string, definition: FeedDefinition): Promise<Board> =>
  boardAnswer.parse(await api.put<unknown>(at(boardId), { body: { definition } })).results;

export const undoBoard = async (boardId: string): Promise<Board> =>
  boardAnswer.parse(await api.post<unknown>(at(boardId, '/undo'))).results;

export const enableBoard = async (boardId: string, enabled: boolean): Promise<Board> =>
  boardAnswer.parse(await api.put<unknown>(`/boards/enable/${encodeURIComponent(boardId)}`, { body: { enabled } })).results;

export const duplicateBoard = async (boardId: string): Promise<Board> =>
  boardAnswer.parse(await api.post<unknown>(at(boardId, '/duplicate'))).results;

export const deleteBoard = (boardId: string) => api.delete<void>(at(boardId));

export const setBoardAlerts = async (boardId: string, alerts: AlertMode, priority: Priority): Promise<Board> =>
  boardAnswer.parse(await api.put<unknown>(at(boardId, '/alerts'), { body: { alerts, priority } })).results;

/** Shares a feed into groups the user owns. */
export const shareBoardToChannels = (boardId: string, channelIds: string[]) =>
  api.post<unknown>(at(boardId, '/channels'), { body: { channel_ids: channelIds } });

/** One template as an administrator saves it: without `id`, a new one. */
export interface TemplateInput {
  id?: string;
  name?: string;
  description?: string;
  definition: FeedDefinition;
}

/** Replaces the instance's own templates (administrators only); answers every template. */
export const setFeedTemplates = async (templates: TemplateInput[]): Promise<FeedTemplate[]> =>
  templatesAnswer.parse(await api.post<unknown>('/connect/setFeedTemplates', { body: { templates } })).results;

export const acceptSuggestions = async (suggestionIds: string[]): Promise<Board[]> =>
  boardsAnswer.parse(await api.post<unknown>('/boards/suggestions/accept', { body: { suggestion_ids: suggestionIds } })).results;

const feedbackAnswer = z.object({ results: z.object({ document_id: z.string(), more: z.boolean(), applied: z.boolean() }) });

/** "More like this" (`more`) or "less like this" on a document of an AI feed: refines its topics. */
export const giveTopicFeedback = async (boardId: string, documentId: string, more: boolean) =>
  feedbackAnswer.parse(await api.post<unknown>(at(boardId, '/feedback'), { body: { document_id: documentId, more } })).results;
