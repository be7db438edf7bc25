/** The custom-feed builder's pages (the `page` parameter) and their titles. */
export const BUILDER_PAGES = {
  'select-feed-type': 'New feed',
  'feed-template-readonly': 'Feed template',
  'feed-template-customize': 'Customize template',
  'create-feed': 'Create feed',
  'edit-feed': 'Edit feed',
  'create-ai-feed': 'Create AI feed',
  'edit-ai-feed': 'Edit AI feed',
  'select-ai-feed-type': 'Select AI feed type',
  'feed-suggestion': 'Feed suggestions',
  'review-feed-suggestion': 'Review feed suggestions',
} as const;

export type BuilderPage = keyof typeof BUILDER_PAGES;

export const isBuilderPage = (page: string): page is BuilderPage => Object.hasOwn(BUILDER_PAGES, page);

/** The builder's optional parameters, as the address spells them. */
export const BUILDER_PARAMS = ['template-id', 'board-id', 'search-template', 'suggestion-ids'] as const;
export type BuilderParamName = (typeof BUILDER_PARAMS)[number];

export interface BuilderParams {
  page: string;
  templateId?: string;
  boardId?: string;
  searchTemplate?: string;
  suggestionIds?: string[];
}

/** Reads the builder's parameters from a record of address values (without any prefix). */
export function builderParams(values: Record<string, string | undefined>): BuilderParams {
  const ids = values['suggestion-ids']?.split(',').map((s) => s.trim()).filter(Boolean);
  return {
    page: values.page || 'select-feed-type',
    templateId: values['template-id'] || undefined,
    boardId: values['board-id'] || undefined,
    searchTemplate: values['search-template'] || undefined,
    suggestionIds: ids?.length ? ids : undefined,
  };
}

/** How the builder moves: to another of its pages, or out once a feed is saved (or on cancel). */
export interface BuilderNav {
  go: (page: BuilderPage, extra?: Partial<Record<BuilderParamName, string>>) => void;
  /** Leaves the builder; with a feed id, for that feed's page. */
  done: (boardId: string | null) => void;
}
