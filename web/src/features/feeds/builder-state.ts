/**
 * The feed builder's state as a pure reducer (immer): the draft definition, which keyword list
 * the editor shows, and which modal is open. Every edit the spec names is one action here, so
 * the rules (a keyword moves between lists, a source is in one mode at a time, the first
 * company names an unnamed AI feed) hold wherever the edit comes from.
 */
import { produce } from 'immer';
import { emptyDefinition, type Company, type DateRangeCode, type FeedDefinition, type KeywordList } from './api/feeds-api';
import { keywordKey } from './keywords';

/** Which keywords the editor lists: both lists, or one. */
export type KeywordView = 'all' | KeywordList;

/** How a source is filtered: included, excluded, or neither. */
export type SourceMode = 'include' | 'exclude' | 'none';

export interface BuilderState {
  definition: FeedDefinition;
  keywordView: KeywordView;
  modal: string | null;
}

export type BuilderAction =
  | { type: 'load'; definition: FeedDefinition }
  | { type: 'name.set'; name: string }
  | { type: 'description.set'; description: string }
  | { type: 'keyword.add'; list: KeywordList; keyword: string }
  | { type: 'keyword.remove'; list: KeywordList; keyword: string }
  | { type: 'keyword.edit'; list: KeywordList; from: string; to: string }
  | { type: 'keywords.view'; view: KeywordView }
  | { type: 'source.mode'; sourceId: string; mode: SourceMode }
  | { type: 'category.toggle'; key: string; on: boolean }
  | { type: 'dateRange.set'; range: DateRangeCode | null }
  | { type: 'company.add'; company: Company }
  | { type: 'company.remove'; name: string }
  | { type: 'attributes.set'; attributes: string[] }
  | { type: 'topic.toggle'; topic: string; on: boolean }
  | { type: 'feedType.set'; feedType: string }
  | { type: 'modal.open'; modal: string }
  | { type: 'modal.close' };

export const initialBuilderState = (definition: FeedDefinition = emptyDefinition()): BuilderState => ({
  definition,
  keywordView: 'all',
  modal: null,
});

const other = (list: KeywordList): KeywordList => (list === 'include' ? 'exclude' : 'include');

/** When the list the editor shows has no keyword left, it shows both again. */
function settleView(state: BuilderState) {
  if (state.keywordView !== 'all' && state.definition.keywords[state.keywordView].length === 0) state.keywordView = 'all';
}

export const builderReducer = (state: BuilderState, action: BuilderAction): BuilderState =>
  produce(state, (draft) => {
    const d = draft.definition;
    switch (action.type) {
      case 'load':
        draft.definition = action.definition;
        draft.keywordView = 'all';
        return;
      case 'name.set':
        d.name = action.name;
        return;
      case 'description.set':
        d.description = action.description;
        return;
      case 'keyword.add': {
        const keyword = action.keyword.trim();
        if (!keyword) return;
        const key = keywordKey(keyword);
        // A keyword lives in one list: adding it here drops it from the other, and a duplicate is not added.
        d.keywords[other(action.list)] = d.keywords[other(action.list)].filter((k) => keywordKey(k.keyword) !== key);
        if (!d.keywords[action.list].some((k) => keywordKey(k.keyword) === key)) d.keywords[action.list].push({ keyword, valid: true });
        settleView(draft);
        return;
      }
      case 'keyword.remove': {
        const key = keywordKey(action.keyword);
        d.keywords[action.list] = d.keywords[action.list].filter((k) => keywordKey(k.keyword) !== key);
        settleView(draft);
        return;
      }
      case 'keyword.edit': {
        const keyword = action.to.trim();
        const list = d.keywords[action.list];
        const at = list.findIndex((k) => keywordKey(k.keyword) === keywordKey(action.from));
        if (at < 0) return;
        if (!keyword) {
          list.splice(at, 1);
        } else {
          const key = keywordKey(keyword);
          list[at] = { keyword, valid: true };
          // The edit may now equal another keyword of either list: that one goes.
          d.keywords[action.list] = list.filter((k, i) => i === at || keywordKey(k.keyword) !== key);
          d.keywords[other(action.list)] = d.keywords[other(action.list)].filter((k) => keywordKey(k.keyword) !== key);
        }
        settleView(draft);
        return;
      }
      case 'keywords.view':
        draft.keywordView = action.view;
        settleView(draft);
        return;
      case 'source.mode': {
        const current = d.sources[action.sourceId];
        if (action.mode === 'none') {
          // Exclusion rules for the source's documents stay with it; an empty filter goes.
          if (current?.exclusion_rules?.keywords.length) d.sources[action.sourceId] = { ...current, filter: false, exclusion_filter: false };
          else delete d.sources[action.sourceId];
        } else {
          // Setting one mode takes the source out of the other.
          d.sources[action.sourceId] = { ...current, filter: action.mode === 'include', exclusion_filter: action.mode === 'exclude' };
        }
        if (action.mode === 'exclude') d.secondary_sources = d.secondary_sources.filter((s) => s !== action.sourceId);
        return;
      }
      case 'category.toggle':
        if (action.on) d.common[action.key] = { filter: true };
        else delete d.common[action.key];
        return;
      case 'dateRange.set':
        d.date_range = action.range;
        return;
      case 'company.add': {
        const name = action.company.name.trim();
        if (!name || d.companies.some((c) => c.name.toLowerCase() === name.toLowerCase())) return;
        d.companies.push({ ...action.company, name });
        // The first company names an unnamed feed.
        if (!d.name.trim()) d.name = d.companies[0].name;
        return;
      }
      case 'company.remove':
        d.companies = d.companies.filter((c) => c.name !== action.name);
        return;
      case 'attributes.set':
        d.attributes = [...new Set(action.attributes.map((a) => a.trim()).filter(Boolean))];
        return;
      case 'topic.toggle':
        if (action.on && !d.topics.includes(action.topic)) d.topics.push(action.topic);
        if (!action.on) d.topics = d.topics.filter((t) => t !== action.topic);
        d.currentTopic = d.topics.includes(d.currentTopic ?? '') ? d.currentTopic : (d.topics[0] ?? null);
        return;
      case 'feedType.set':
        d.type = action.feedType;
        return;
      case 'modal.open':
        draft.modal = action.modal;
        return;
      case 'modal.close':
        draft.modal = null;
        return;
    }
  });

/** Returns the mode a source is in within `definition`. */
export function sourceMode(definition: FeedDefinition, sourceId: string): SourceMode {
  const filter = definition.sources[sourceId];
  if (filter?.filter) return 'include';
  if (filter?.exclusion_filter) return 'exclude';
  return 'none';
}

/**
 * Returns whether a definition has something to follow: a keyword, a company, an included
 * source or a category (the server refuses a feed that would match everything).
 */
export function hasSomethingToFollow(definition: FeedDefinition): boolean {
  return (
    definition.keywords.include.length > 0 ||
    definition.companies.length > 0 ||
    definition.topics.length > 0 ||
    Object.values(definition.sources).some((s) => s.filter) ||
    definition.secondary_sources.length > 0 ||
    Object.values(definition.common).some((c) => c.filter)
  );
}
