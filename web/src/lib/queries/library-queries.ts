/**
 * The category index (`GET /categories`), the personal store's sources (`GET
 * /source/needlbox`) and the user's private sources (`GET /source/private`). Shared: the documents feature draws My Data's tabs from the index, the
 * app lands on its first connected sub-category and opens the needlbox's sources. Answers are
 * parsed, so a server that drifts from docs/api.md fails here rather than in a component.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api';
import { libraryKeys } from './library-keys';

const subCategorySchema = z.object({
  key: z.string(),
  label: z.string(),
  /** Documents the user can read in it. */
  count: z.number().int().nonnegative(),
  /** Whether the user has a source of this kind. */
  connected: z.boolean(),
});

export type SubCategory = z.infer<typeof subCategorySchema>;

const categoryIndexSchema = z.object({
  results: z.array(z.object({ key: z.string(), label: z.string(), sources: z.array(subCategorySchema) })),
});

export type CategoryIndex = z.infer<typeof categoryIndexSchema>;

const sourceListSchema = z.object({ results: z.array(subCategorySchema) });

/** The category of the index that holds My Data's sub-categories. */
export const MY_DATA_CATEGORY = 'feeds';

/** Returns My Data's sub-categories, in the order the server gives (the tabs' order). */
export const myDataSubCategories = (index: CategoryIndex | undefined): SubCategory[] =>
  index?.results.find((c) => c.key === MY_DATA_CATEGORY)?.sources ?? [];

export const libraryQueries = {
  /**
   * Cached for the life of the page, as the spec says; the live socket refreshes it when
   * documents or sources change, and follows and uploads refresh it themselves.
   */
  categories: () =>
    queryOptions({
      queryKey: libraryKeys.categories(),
      queryFn: async ({ signal }) => categoryIndexSchema.parse(await api.get<unknown>('/categories', { signal })),
      staleTime: Infinity,
    }),
  needlbox: () =>
    queryOptions({
      queryKey: libraryKeys.needlbox(),
      queryFn: async ({ signal }) => sourceListSchema.parse(await api.get<unknown>('/source/needlbox', { signal })),
      staleTime: 15_000,
    }),
  /** The drive and, once the user has any, their AskNeedl attachments, with counts (the apps page). */
  privateSources: () =>
    queryOptions({
      queryKey: libraryKeys.privateSources(),
      queryFn: async ({ signal }) => sourceListSchema.parse(await api.get<unknown>('/source/private', { signal })),
      staleTime: 15_000,
    }),
};
