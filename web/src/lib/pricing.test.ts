import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { NOT_IN_PLAN, planCheck, promptForRefusal, UPGRADE_HEADER } from './pricing';
import { json, stubApi } from '../test/render';

describe('planCheck', () => {
  it('allows everything when pricing is off, without asking the server', () => {
    expect(planCheck('add_notebook', false, undefined)).toEqual({ status: 'eligible' });
  });

  it("follows the server's eligibility when pricing is on, with its header, subtext and action", () => {
    expect(planCheck('add_notebook', true, { add_notebook: { isEligible: true } })).toEqual({ status: 'eligible' });
    const limited = {
      isEligible: false,
      header: 'Feed limit reached',
      message: 'Your Free plan includes up to 2 feeds.',
      subtext: 'Turn a feed off or remove one to make room.',
      action: 'feed_manager',
    };
    expect(planCheck('add_feed', true, { add_feed: limited })).toEqual({
      status: 'ineligible',
      header: 'Feed limit reached',
      message: 'Your Free plan includes up to 2 feeds.',
      subtext: 'Turn a feed off or remove one to make room.',
      action: 'feed_manager',
    });
  });

  it('fills in what the server left out: the upgrade header and action, no subtext', () => {
    expect(planCheck('add_notebook', true, { add_notebook: { isEligible: false, message: 'Upgrade to Pro to add notes' } })).toEqual({
      status: 'ineligible',
      header: UPGRADE_HEADER,
      message: 'Upgrade to Pro to add notes',
      subtext: null,
      action: 'upgrade',
    });
    expect(planCheck('add_notebook', true, { add_notebook: { isEligible: false, message: 'x', action: 'teleport' } })).toMatchObject({
      action: 'upgrade',
    });
  });

  it('waits for the answer, and takes a feature missing from it as not eligible', () => {
    expect(planCheck('add_notebook', true, undefined)).toEqual({ status: 'checking' });
    expect(planCheck('add_notebook', true, {})).toEqual({
      status: 'ineligible',
      header: UPGRADE_HEADER,
      message: NOT_IN_PLAN,
      subtext: null,
      action: 'upgrade',
    });
  });

  it('throws on a key the spec does not name', () => {
    expect(() => planCheck('add_spaceship', false, undefined)).toThrow('unknown pricing feature key: add_spaceship');
  });
});

describe('promptForRefusal', () => {
  afterEach(() => vi.unstubAllGlobals());

  const refusal = new ApiError(403, 'plan_required', 'Your Free plan includes up to 2 feeds.');

  it('asks the eligibility map again and takes the words of the entry that refused', async () => {
    const calls = stubApi({
      'GET /api/messaging/pricing': () =>
        json(200, {
          results: {
            add_feed: { isEligible: false, header: 'Feed limit reached', message: refusal.message, subtext: 'Or remove one.', action: 'feed_manager' },
            add_notebook: { isEligible: true, message: null, header: null, subtext: null, action: null },
          },
        }),
    });
    const client = new QueryClient();
    client.setQueryData(['pricing', 'eligibility'], { add_feed: { isEligible: true } });
    expect(await promptForRefusal(client, refusal)).toEqual({
      header: 'Feed limit reached',
      message: refusal.message,
      subtext: 'Or remove one.',
      action: 'feed_manager',
    });
    expect(calls.filter((c) => c.key === 'GET /api/messaging/pricing')).toHaveLength(1);
  });

  it("falls back to the refusal's own words with the upgrade action when the map cannot say", async () => {
    stubApi({ 'GET /api/messaging/pricing': () => json(500, { code: 'internal', message: 'x' }) });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    expect(await promptForRefusal(client, refusal)).toEqual({ header: UPGRADE_HEADER, message: refusal.message, subtext: null, action: 'upgrade' });
  });
});
