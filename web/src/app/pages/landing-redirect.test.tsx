import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../test/render';
import { LandingRedirect } from './landing-redirect';

function Where() {
  const { pathname, search } = useLocation();
  return <p>at {`${pathname}${search}`}</p>;
}

const categories = (connected: string[]) =>
  json(200, {
    results: [
      {
        key: 'feeds',
        label: 'My Data',
        sources: ['rss_news', 'exchanges', 'drives'].map((key) => ({ key, label: key, count: 0, connected: connected.includes(key) })),
      },
    ],
  });

/** The redirect is mounted at /landing here: the test renderer keeps `/` for itself. */
const renderLanding = (route = '/landing') =>
  renderWithProviders(
    <Routes>
      <Route path="/landing" element={<LandingRedirect />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route },
  );

describe('LandingRedirect', () => {
  it('lands on the first connected sub-category of My Data, keeping overlay parameters', async () => {
    stubApi({
      'GET /api/feature/config': () => json(200, { features: { my_data: true, search: true } }),
      'GET /api/categories': () => categories(['exchanges', 'drives']),
    });
    renderLanding('/landing?overlay-type=ask-needl');
    expect(await screen.findByText('at /feeds/home/exchanges?overlay-type=ask-needl')).toBeInTheDocument();
  });

  it('lands on My Data itself when nothing is connected', async () => {
    stubApi({
      'GET /api/feature/config': () => json(200, { features: { my_data: true } }),
      'GET /api/categories': () => categories([]),
    });
    renderLanding();
    expect(await screen.findByText('at /feeds/home')).toBeInTheDocument();
  });

  it('does not ask for the categories when another feature comes first', async () => {
    const calls = stubApi({ 'GET /api/feature/config': () => json(200, { features: { my_data: false, search: true } }) });
    renderLanding();
    expect(await screen.findByText('at /search')).toBeInTheDocument();
    expect(calls.map((c) => c.key)).not.toContain('GET /api/categories');
  });
});
