import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubApi } from '../../test/render';
import { NeedlboxSourcePage } from './needlbox-page';

describe('NeedlboxSourcePage', () => {
  const renderNeedlbox = (route: string) =>
    renderWithProviders(
      <Routes>
        <Route path="/needlbox/:source/*" element={<NeedlboxSourcePage drive={<p>the drive</p>} />} />
      </Routes>,
      { route },
    );
  const needlbox = () => json(200, { results: [{ key: 'needldrive', label: 'Needl Drive', count: 2, connected: true }] });

  it('opens the drive the personal store lists', async () => {
    stubApi({ 'GET /api/source/needlbox': needlbox });
    renderNeedlbox('/needlbox/needldrive/documents');
    expect(await screen.findByText('the drive')).toBeInTheDocument();
  });

  it('keeps the coming-soon page for what the store does not hold', async () => {
    stubApi({ 'GET /api/source/needlbox': needlbox });
    renderNeedlbox('/needlbox/gmail');
    expect(await screen.findByRole('heading', { name: 'Gmail is coming soon' })).toBeInTheDocument();
  });
});
