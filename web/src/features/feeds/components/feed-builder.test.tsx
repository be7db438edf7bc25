import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import { builderParams, type BuilderNav } from '../builder-pages';
import { KEYWORD_MESSAGES } from '../keywords';
import { board, choices, flags } from '../test/fixtures';
import { FeedBuilder } from './feed-builder';

const nav = (): BuilderNav => ({ go: vi.fn(), done: vi.fn() });

const preview = (count: number) => () =>
  json(200, {
    count,
    results: count
      ? [{ deeplink: 'd1', source: 'src_reuters', title: 'RBI holds the repo rate', source_label: 'Reuters Markets', story: { id: 's', size: 3, sources: ['A', 'B'] } }]
      : [],
  });

const baseRoutes = {
  'GET /api/feature/config': flags({ my_feeds: true }),
  'GET /api/boards/feed_choices': choices,
  'GET /api/connect/getFeedTemplates': () => json(200, { results: [] }),
};

const keywordBox = () => screen.getByRole('textbox', { name: /^(Keyword to (include|exclude)|Edit keyword)$/ });

describe('the feed builder', () => {
  afterEach(() => vi.restoreAllMocks());

  it('adds a keyword on Enter, refuses a bad one with the spec’s message, and previews the matches', async () => {
    const calls = stubApi({ ...baseRoutes, 'POST /api/boards/preview': preview(42) });
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'create-feed' })} nav={nav()} />, { route: '/custom-feed' });

    await userEvent.type(keywordBox(), '"rate cut{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(KEYWORD_MESSAGES.quotes);
    expect(screen.queryByRole('list', { name: 'Included keywords' })).not.toBeInTheDocument();

    await userEvent.clear(keywordBox());
    await userEvent.type(keywordBox(), '"rate cut" OR inflation{Enter}');
    const included = screen.getByRole('list', { name: 'Included keywords' });
    expect(within(included).getByText('"rate cut" OR inflation')).toBeInTheDocument();
    expect(keywordBox()).toHaveValue('');

    expect(await screen.findByTestId('preview-count', {}, { timeout: 3000 })).toHaveTextContent('42 matches');
    expect(screen.getByText('RBI holds the repo rate')).toBeInTheDocument();
    const body = calls.find((c) => c.key === 'POST /api/boards/preview')?.body as { definition: { keywords: unknown } };
    expect(body.definition.keywords).toEqual({ include: [{ keyword: '"rate cut" OR inflation', valid: true }], exclude: [] });
  });

  it('moves a keyword to the excluded list when it is added there, and back to all keywords when that list empties', async () => {
    stubApi({ ...baseRoutes, 'POST /api/boards/preview': preview(0) });
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'create-feed' })} nav={nav()} />, { route: '/custom-feed' });

    await userEvent.type(keywordBox(), 'crypto{Enter}');
    expect(within(screen.getByRole('list', { name: 'Included keywords' })).getByText('crypto')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Exclude' }));
    expect(screen.getByRole('button', { name: 'Exclude' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.type(keywordBox(), 'CRYPTO{Enter}');
    expect(screen.queryByRole('list', { name: 'Included keywords' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Excluded keywords' })).getByText('CRYPTO')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /^Excluded/ }));
    expect(screen.getByRole('button', { name: /^Excluded/ })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Remove CRYPTO' }));
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('says what a draft needs before it asks for a preview', async () => {
    const calls = stubApi({ ...baseRoutes });
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'create-feed' })} nav={nav()} />, { route: '/custom-feed' });
    expect(screen.getByText(/Add a keyword, a company or a source/)).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 700)));
    expect(calls.some((c) => c.key === 'POST /api/boards/preview')).toBe(false);
  });

  it('includes or excludes a source, one mode at a time', async () => {
    const calls = stubApi({ ...baseRoutes, 'POST /api/boards/preview': preview(1) });
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'create-feed' })} nav={nav()} />, { route: '/custom-feed' });
    await userEvent.click(screen.getByText('Sources and dates'));
    const reuters = await screen.findByRole('combobox', { name: 'Reuters Markets' });
    await userEvent.selectOptions(reuters, 'include');
    await userEvent.selectOptions(reuters, 'exclude');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'BSE Filings' }), 'include');
    await waitFor(
      () => {
        const last = calls.filter((c) => c.key === 'POST /api/boards/preview').at(-1)?.body as { definition: { sources: unknown } } | undefined;
        expect(last?.definition.sources).toEqual({
          src_reuters: { filter: false, exclusion_filter: true },
          src_bse: { filter: true, exclusion_filter: false },
        });
      },
      { timeout: 3000 },
    );
  });

  it('creates the feed with the definition built, and leaves for it', async () => {
    const calls = stubApi({
      ...baseRoutes,
      'POST /api/boards/preview': preview(3),
      'POST /api/boards/v2': () => json(200, { results: board('b9', 'Rates') }),
      'GET /api/boards/v2': () => json(200, { results: [] }),
    });
    const n = nav();
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'create-feed', 'search-template': 'repo rate' })} nav={n} />, { route: '/custom-feed' });
    expect(within(screen.getByRole('list', { name: 'Included keywords' })).getByText('repo rate')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Feed name' }), 'Rates');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Published within' }), '1M');
    await userEvent.click(screen.getByRole('button', { name: 'Create feed' }));
    await waitFor(() => expect(n.done).toHaveBeenCalledWith('b9'));
    expect(calls.find((c) => c.key === 'POST /api/boards/v2')?.body).toEqual({
      definition: expect.objectContaining({
        name: 'Rates',
        keywords: { include: [{ keyword: 'repo rate', valid: true }], exclude: [] },
        date_range: '1M',
        group: 'default',
        type: 'keyword',
      }),
    });
  });

  it('shows the server’s refusal beside the form', async () => {
    stubApi({
      ...baseRoutes,
      'POST /api/boards/preview': preview(0),
      'POST /api/boards/v2': () => json(422, { code: 'invalid', message: 'feed name is required' }),
    });
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'create-feed', 'search-template': 'x' })} nav={nav()} />, { route: '/custom-feed' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Feed name' }), ' ');
    await userEvent.type(screen.getByRole('textbox', { name: 'Feed name' }), 'A');
    await userEvent.click(screen.getByRole('button', { name: 'Create feed' }));
    expect(await screen.findByText('feed name is required')).toBeInTheDocument();
  });

  it('edits a saved feed: loads its definition and saves it whole', async () => {
    const calls = stubApi({
      ...baseRoutes,
      'POST /api/boards/preview': preview(2),
      'GET /api/boards/b1': () => json(200, { results: board('b1', 'Rates') }),
      'PUT /api/boards/b1': () => json(200, { results: board('b1', 'Rates', {}, { can_undo: true }) }),
    });
    const n = nav();
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'edit-feed', 'board-id': 'b1' })} nav={n} />, { route: '/custom-feed' });
    expect(await screen.findByRole('textbox', { name: 'Feed name' })).toHaveValue('Rates');
    await userEvent.type(keywordBox(), 'repo{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(n.done).toHaveBeenCalledWith('b1'));
    const sent = calls.find((c) => c.key === 'PUT /api/boards/b1')?.body as { definition: Record<string, unknown> };
    expect(sent.definition.keywords).toEqual({ include: [{ keyword: 'inflation', valid: true }, { keyword: 'repo', valid: true }], exclude: [] });
    // Parts the server sent as null go back as empty values it accepts.
    expect(sent.definition).toMatchObject({ sources: {}, secondary_sources: [], common: {}, companies: [] });
  });

  it('names an AI feed after its first company', async () => {
    stubApi({ ...baseRoutes, 'POST /api/boards/preview': preview(5) });
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'create-ai-feed' })} nav={nav()} />, { route: '/custom-feed' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Company name' }), 'Infosys{Enter}');
    expect(screen.getByRole('textbox', { name: 'Feed name' })).toHaveValue('Infosys');
    expect(within(screen.getByRole('list', { name: 'Companies' })).getByText('Infosys')).toBeInTheDocument();
  });

  it('moves from the feed type to the keyword editor', async () => {
    stubApi(baseRoutes);
    const n = nav();
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'select-feed-type' })} nav={n} />, { route: '/custom-feed' });
    await userEvent.click(screen.getByRole('button', { name: /Keyword feed/ }));
    expect(n.go).toHaveBeenCalledWith('create-feed');
  });

  it('logs an unknown page and shows nothing', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi(baseRoutes);
    const { container } = renderWithProviders(
      <div data-testid="holder">
        <FeedBuilder params={builderParams({ page: 'make-it-so' })} nav={nav()} />
      </div>,
      { route: '/custom-feed' },
    );
    expect(error).toHaveBeenCalledWith('Unknown CustomFeed overlay page', 'make-it-so');
    expect(container.querySelector('[data-testid="holder"]')).toBeEmptyDOMElement();
  });

  it('shows the plan prompt instead of a new feed when the plan does not include adding feeds', async () => {
    stubApi({
      ...baseRoutes,
      'GET /api/feature/config': flags({ my_feeds: true, is_pricing: true }),
      'GET /api/messaging/pricing': () => json(200, { results: { add_feed: { isEligible: false, message: 'Your plan allows 3 feeds.' } } }),
    });
    renderWithProviders(<FeedBuilder params={builderParams({ page: 'create-feed' })} nav={nav()} />, { route: '/custom-feed' });
    expect(await screen.findByText('Your plan allows 3 feeds.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Feed name' })).not.toBeInTheDocument();
  });
});
