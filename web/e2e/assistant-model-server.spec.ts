/**
 * AskNeedl says plainly how answers are made. With no language model configured, the panel says
 * answers are quoted from the sources; an administrator follows its link to the Assistant
 * settings, checks a model server (a chat-completions server this test runs on 127.0.0.1) and
 * saves it, and the next answer is the model's, without a restart. Reloading while an answer
 * streams brings the conversation back with that answer stopped (the model server holds the
 * answer open after its first words). The setting is instance-wide: the test puts it back to
 * quoting before it ends.
 */
import { randomBytes } from 'node:crypto';
import { AskNeedlPage } from './pages/ask-needl-page';
import { serveLocally } from './support/local-server';
import { grantAdmin } from './support/needl-cli';
import { startRssServer } from './support/rss-server';
import { expect, test } from './fixtures';

const KEY = 'sk-e2e-key';
const MODEL_SAYS = 'The model says the harbour reopened [1].';
/** A question holding this word gets the first words of an answer, and then nothing more. */
const HOLD = 'slowly';
const FIRST_WORDS = 'The model begins to answer';

/**
 * A chat-completions server that wants KEY: streamed answers, or one completion for a check. A
 * question with HOLD in it gets FIRST_WORDS and then an open connection, as a slow model would.
 */
async function startModelServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const { base, close } = await serveLocally((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.url !== '/v1/chat/completions' || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      if (request.headers.authorization !== `Bearer ${KEY}`) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
        return;
      }
      if (JSON.parse(body).stream && body.includes(HOLD)) {
        const first = { choices: [{ index: 0, delta: { content: `${FIRST_WORDS}. ` } }] };
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`data: ${JSON.stringify(first)}\n\n`);
        return;
      }
      if (JSON.parse(body).stream) {
        const piece = { choices: [{ index: 0, delta: { content: MODEL_SAYS } }] };
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`data: ${JSON.stringify(piece)}\n\ndata: [DONE]\n\n`);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'OK' } }] }));
    });
  });
  return { url: `${base}/v1`, close };
}

test('without a model answers are said to be quoted; an admin checks and saves a model server and the next answer is its', async ({
  page,
  auth,
  shell,
  user,
  connectRss,
  feeds,
}) => {
  test.setTimeout(120_000);
  const word = `quillon${randomBytes(3).toString('hex')}`;
  const feed = await startRssServer([{ title: `Harbour ${word} reopens`, summary: `The harbour of ${word} reopened after the storm.` }]);
  const model = await startModelServer();
  const ask = new AskNeedlPage(page);
  const note = () => ask.overlay().getByTestId('answer-mode-note');
  const addressField = () => page.getByLabel('Model server address');
  let saved = false;
  try {
    await auth.signUp(user);
    await shell.expectSignedInAt('/feeds/home');
    await connectRss.open();
    await connectRss.follow(feed.url, 'Harbour news');
    await feeds.open('/feeds/home/rss_news');
    await feeds.expectDocument(`Harbour ${word} reopens`, 30_000);

    grantAdmin(user.email);
    await page.reload();
    await ask.openOverlay();
    await expect(note()).toContainText('Answers are quoted from your sources, not written by a language model');
    await note().getByRole('link', { name: 'Set up a model server' }).click();

    await expect(page).toHaveURL(/\/settings\/assistant$/);
    await addressField().fill(model.url);
    await page.getByLabel('Model', { exact: true }).fill('tiny');
    await page.getByLabel('API key').fill('wrong-key');
    await page.getByRole('button', { name: 'Check connection' }).click();
    await expect(page.getByTestId('assistant-check')).toHaveText('Not working: the server refused the key (401): Incorrect API key provided');
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await expect(page.getByTestId('assistant-check')).toContainText('Connected: tiny answered in');
    await page.getByRole('button', { name: 'Save' }).click();
    saved = true;
    await expect(page.getByTestId('assistant-mode')).toContainText(`Answers are written by the language model tiny at ${model.url}.`);
    await expect(page.getByLabel('API key')).toHaveAttribute('placeholder', 'A key is set; leave empty to keep it');

    await page.goto('/feeds/home/rss_news');
    await ask.openOverlay();
    await ask.ask(`What happened to the harbour of ${word}?`);
    await expect(ask.lastAnswer()).toContainText('The model says the harbour reopened');
    await expect(note()).toHaveCount(0);

    // A reload while an answer streams: the conversation comes back, the answer stopped.
    await ask.newChat().click();
    const slow = `Tell me ${HOLD} about the harbour of ${word}`;
    await ask.question().fill(slow);
    await ask.question().press('Enter');
    await expect(ask.lastAnswer()).toContainText(FIRST_WORDS);
    await page.reload();
    await expect(ask.overlay()).toBeVisible();
    await expect(ask.overlay().getByText(slow)).toBeVisible();
    await expect(ask.answers()).toHaveCount(1);
    await expect(ask.lastAnswer()).toContainText('Generation stopped.');
    await expect(ask.lastAnswer()).not.toContainText(FIRST_WORDS);
    // New chat lets it go: the next reload starts empty.
    await expect(ask.question()).toBeEnabled();
    await ask.newChat().click();
    await page.reload();
    await expect(ask.overlay()).toBeVisible();
    await expect(ask.overlay().getByRole('heading', { name: 'What would you like to know?' })).toBeVisible();
  } finally {
    // Back to quoting for the other tests on this server.
    if (saved) {
      await page.goto('/settings/assistant');
      await addressField().fill('');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByTestId('assistant-mode')).toContainText('Answers are quoted from your sources');
    }
    await model.close();
    await feed.close();
  }
});
