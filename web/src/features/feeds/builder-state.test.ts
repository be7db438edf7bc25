import { emptyDefinition, normalizeDefinition } from './api/feeds-api';
import { builderReducer, hasSomethingToFollow, initialBuilderState, sourceMode, type BuilderAction, type BuilderState } from './builder-state';

const run = (actions: BuilderAction[], state: BuilderState = initialBuilderState()) => actions.reduce(builderReducer, state);
const words = (state: BuilderState) => ({
  include: state.definition.keywords.include.map((k) => k.keyword),
  exclude: state.definition.keywords.exclude.map((k) => k.keyword),
});

describe('the feed builder state', () => {
  it('sets the name and description', () => {
    const state = run([
      { type: 'name.set', name: 'Rates' },
      { type: 'description.set', description: 'Central bank moves' },
    ]);
    expect(state.definition).toMatchObject({ name: 'Rates', description: 'Central bank moves' });
  });

  it('adds keywords to a list once, ignoring case and blanks', () => {
    const state = run([
      { type: 'keyword.add', list: 'include', keyword: 'inflation' },
      { type: 'keyword.add', list: 'include', keyword: ' Inflation ' },
      { type: 'keyword.add', list: 'include', keyword: '   ' },
      { type: 'keyword.add', list: 'include', keyword: '"rate cut"' },
    ]);
    expect(words(state)).toEqual({ include: ['inflation', '"rate cut"'], exclude: [] });
    expect(state.definition.keywords.include.every((k) => k.valid)).toBe(true);
  });

  it('moves a keyword added to the other list out of the first', () => {
    const state = run([
      { type: 'keyword.add', list: 'include', keyword: 'crypto' },
      { type: 'keyword.add', list: 'include', keyword: 'bonds' },
      { type: 'keyword.add', list: 'exclude', keyword: 'CRYPTO' },
    ]);
    expect(words(state)).toEqual({ include: ['bonds'], exclude: ['CRYPTO'] });
  });

  it('removes and edits keywords; an edit that repeats another keyword replaces it', () => {
    const state = run([
      { type: 'keyword.add', list: 'include', keyword: 'a' },
      { type: 'keyword.add', list: 'include', keyword: 'b' },
      { type: 'keyword.add', list: 'exclude', keyword: 'c' },
      { type: 'keyword.edit', list: 'include', from: 'a', to: 'alpha' },
      { type: 'keyword.remove', list: 'include', keyword: 'b' },
    ]);
    expect(words(state)).toEqual({ include: ['alpha'], exclude: ['c'] });
    const merged = run([{ type: 'keyword.edit', list: 'include', from: 'alpha', to: 'c' }], state);
    expect(words(merged)).toEqual({ include: ['c'], exclude: [] });
  });

  it('goes back to showing all keywords when the list on view empties', () => {
    let state = run([
      { type: 'keyword.add', list: 'exclude', keyword: 'sport' },
      { type: 'keyword.add', list: 'include', keyword: 'rates' },
      { type: 'keywords.view', view: 'exclude' },
    ]);
    expect(state.keywordView).toBe('exclude');
    state = run([{ type: 'keyword.remove', list: 'exclude', keyword: 'sport' }], state);
    expect(state.keywordView).toBe('all');
    state = run([{ type: 'keywords.view', view: 'include' }, { type: 'keyword.add', list: 'exclude', keyword: 'rates' }], state);
    expect(state.keywordView).toBe('all');
    expect(run([{ type: 'keywords.view', view: 'exclude' }], state).keywordView).toBe('exclude');
  });

  it('keeps a source in one mode at a time', () => {
    let state = run([{ type: 'source.mode', sourceId: 's1', mode: 'include' }]);
    expect(state.definition.sources.s1).toEqual({ filter: true, exclusion_filter: false });
    state = run([{ type: 'source.mode', sourceId: 's1', mode: 'exclude' }], state);
    expect(state.definition.sources.s1).toEqual({ filter: false, exclusion_filter: true });
    expect(sourceMode(state.definition, 's1')).toBe('exclude');
    state = run([{ type: 'source.mode', sourceId: 's1', mode: 'none' }], state);
    expect(state.definition.sources).toEqual({});
    expect(sourceMode(state.definition, 's1')).toBe('none');
  });

  it('keeps a source’s own exclusion rules when its mode changes', () => {
    const start = initialBuilderState(
      normalizeDefinition({ name: 'x', sources: { s1: { filter: true, exclusion_rules: { keywords: ['sport'] } } } }),
    );
    const state = run([{ type: 'source.mode', sourceId: 's1', mode: 'none' }], start);
    expect(state.definition.sources.s1).toEqual({ filter: false, exclusion_filter: false, exclusion_rules: { keywords: ['sport'] } });
  });

  it('sets each date range shorthand, and clears it', () => {
    for (const range of ['1d', '1w', '1M', '3M', '6M', '1y', '2y', '3y'] as const) {
      expect(run([{ type: 'dateRange.set', range }]).definition.date_range).toBe(range);
    }
    expect(run([{ type: 'dateRange.set', range: '1M' }, { type: 'dateRange.set', range: null }]).definition.date_range).toBeNull();
  });

  it('names an unnamed AI feed after its first company, and leaves a named one alone', () => {
    const state = run([
      { type: 'feedType.set', feedType: 'ai' },
      { type: 'company.add', company: { name: 'Infosys', isin: 'INE009A01021', codes: ['INFY'] } },
      { type: 'company.add', company: { name: 'Wipro' } },
      { type: 'company.add', company: { name: 'infosys' } },
    ]);
    expect(state.definition.name).toBe('Infosys');
    expect(state.definition.companies.map((c) => c.name)).toEqual(['Infosys', 'Wipro']);
    expect(state.definition.type).toBe('ai');
    const named = run([{ type: 'name.set', name: 'IT majors' }, { type: 'company.add', company: { name: 'TCS' } }]);
    expect(named.definition.name).toBe('IT majors');
  });

  it('sets attributes and topics, keeping the current topic one of them', () => {
    const state = run([
      { type: 'attributes.set', attributes: ['guidance', ' guidance ', ''] },
      { type: 'topic.toggle', topic: 'ma', on: true },
      { type: 'topic.toggle', topic: 'ratings', on: true },
      { type: 'topic.toggle', topic: 'ma', on: false },
    ]);
    expect(state.definition).toMatchObject({ attributes: ['guidance'], topics: ['ratings'], currentTopic: 'ratings' });
  });

  it('opens and closes modals', () => {
    const state = run([{ type: 'modal.open', modal: 'sources' }]);
    expect(state.modal).toBe('sources');
    expect(run([{ type: 'modal.close' }], state).modal).toBeNull();
  });

  it('leaves the previous state untouched', () => {
    const before = initialBuilderState();
    run([{ type: 'keyword.add', list: 'include', keyword: 'x' }], before);
    expect(before.definition.keywords.include).toEqual([]);
  });

  it('knows when a draft has nothing to follow', () => {
    expect(hasSomethingToFollow(emptyDefinition())).toBe(false);
    expect(hasSomethingToFollow(run([{ type: 'keyword.add', list: 'exclude', keyword: 'x' }]).definition)).toBe(false);
    expect(hasSomethingToFollow(run([{ type: 'keyword.add', list: 'include', keyword: 'x' }]).definition)).toBe(true);
    expect(hasSomethingToFollow(run([{ type: 'source.mode', sourceId: 's', mode: 'include' }]).definition)).toBe(true);
    expect(hasSomethingToFollow(run([{ type: 'category.toggle', key: 'rss_news', on: true }]).definition)).toBe(true);
  });
});

describe('definitions from the server', () => {
  it('fills the parts the server leaves null and drops what it does not know', () => {
    const definition = normalizeDefinition({
      name: 'Rates',
      keywords: { include: [{ keyword: 'repo' }, 'crr'], exclude: null },
      sources: null,
      secondary_sources: null,
      common: { rss_news: { filter: true }, drives: { filter: false } },
      date_range: '5q',
      companies: null,
      surprise: 1,
    });
    expect(definition).toEqual({
      ...emptyDefinition(),
      name: 'Rates',
      keywords: { include: [{ keyword: 'repo', valid: true }, { keyword: 'crr', valid: true }], exclude: [] },
      common: { rss_news: { filter: true } },
    });
  });
});
