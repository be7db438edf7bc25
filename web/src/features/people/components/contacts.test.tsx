import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CardScopeProvider } from '../../../lib/card-details';
import { json, renderWithProviders, stubApi } from '../../../test/render';
import type { Person } from '../api/people-api';
import { CardContact } from './card-contact';
import { ContactDetail } from './contact-detail';
import { ContactsManager } from './contacts-manager';

const jane: Person = {
  people_id: 'p1',
  people_name: 'Jane Doe',
  people_priority: 'MEDIUM',
  contacts: [{ contact_id: 'jane@wire.example.com', contact_name: 'Jane Doe', contact_source: 'rss_news' }],
};

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('ContactsManager', () => {
  it('shows a new priority at once and puts it back with the server’s reason when refused', async () => {
    const answer = deferred<Response>();
    const calls = stubApi({
      'GET /api/people?page=0&limit=20': () => json(200, { results: [jane], page: 0, has_more: false }),
      'POST /api/people/edit/p1': () => answer.promise,
    });
    renderWithProviders(<ContactsManager />, { route: '/settings/contacts' });
    expect(await screen.findByRole('link', { name: 'Jane Doe' })).toHaveAttribute('href', '/settings/contacts/p1');
    const select = screen.getByRole('combobox', { name: 'Priority of Jane Doe' });
    await userEvent.selectOptions(select, 'HIGH');
    expect(select).toHaveValue('HIGH');
    expect(calls.find((c) => c.key === 'POST /api/people/edit/p1')?.body).toEqual({ priority: 'HIGH' });

    answer.resolve(json(500, { code: 'internal', message: 'something went wrong on our side; please try again' }));
    expect(await screen.findByText('something went wrong on our side; please try again')).toBeInTheDocument();
    await waitFor(() => expect(select).toHaveValue('MEDIUM'));
  });

  it('says so when there are no contacts', async () => {
    stubApi({ 'GET /api/people?page=0&limit=20': () => json(200, { results: [], page: 0, has_more: false }) });
    renderWithProviders(<ContactsManager />, { route: '/settings/contacts' });
    expect(await screen.findByText('No contacts yet')).toBeInTheDocument();
  });
});

describe('ContactDetail', () => {
  it('renames at once, refusing a blank name without asking the server', async () => {
    let person = jane;
    const calls = stubApi({
      'GET /api/people/p1': () => json(200, { results: person }),
      'POST /api/people/edit/p1': () => {
        person = { ...jane, people_name: 'Jane Q. Doe' };
        return json(200, { results: person });
      },
    });
    renderWithProviders(<ContactDetail peopleId="p1" />, { route: '/settings/contacts/p1' });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, '   {Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Jane Q. Doe{Enter}');
    expect(await screen.findByRole('heading', { name: 'Jane Q. Doe' })).toBeInTheDocument();
    expect(calls.filter((c) => c.key === 'POST /api/people/edit/p1').map((c) => c.body)).toEqual([{ name: 'Jane Q. Doe' }]);
  });

  it('says a contact of someone else is not found', async () => {
    stubApi({ 'GET /api/people/p9': () => json(404, { code: 'person_not_found', message: 'person not found' }) });
    renderWithProviders(<ContactDetail peopleId="p9" />, { route: '/settings/contacts/p9' });
    expect(await screen.findByText('This contact was not found.')).toBeInTheDocument();
  });
});

describe('CardContact', () => {
  const target = { deeplink: 'd1', source: 'rss_news', title: 'T', link: null, excerpt: null, previewPath: '/p', author: 'Jane Doe' };

  it('opens the person behind the author with a Manage Contact link', async () => {
    const calls = stubApi({
      [`GET /api/people/contact_info?${new URLSearchParams({
        contacts: JSON.stringify([{ contact_id: 'Jane Doe', contact_name: 'Jane Doe' }]),
        source: 'rss_news',
      })}`]: () => json(200, { results: jane }),
    });
    renderWithProviders(<CardContact target={target} />, { route: '/feeds/home' });
    expect(calls).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Contact: Jane Doe' }));
    expect(await screen.findByRole('link', { name: 'Manage Contact' })).toHaveAttribute('href', '/settings/contacts/p1');
    expect(screen.getByText('Priority: Medium')).toBeInTheDocument();
  });

  it('is hidden for shared data and for cards without an author', () => {
    stubApi({});
    const { container } = renderWithProviders(
      <CardScopeProvider value={{ channelId: 'c1' }}>
        <CardContact target={target} />
        <CardContact target={{ ...target, author: null }} />
      </CardScopeProvider>,
      { route: '/feeds/home' },
    );
    expect(container.querySelector('button')).toBeNull();
  });
});
