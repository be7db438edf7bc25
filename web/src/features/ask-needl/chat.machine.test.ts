import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { AskRequest } from './api/ask-api';
import { chatMachine, chatStatus, type ChatEvent, type SaveInput } from './chat.machine';
import type { AnswerData, BotMessage } from './types';

/** A fake stream: records each request, lets the test send events back, and notes aborts. */
function fakeStream() {
  const runs: { request: AskRequest; send: (e: ChatEvent) => void; aborted: boolean }[] = [];
  const actor = fromCallback<ChatEvent, AskRequest>(({ input, sendBack }) => {
    const run = { request: input, send: sendBack, aborted: false };
    runs.push(run);
    return () => {
      run.aborted = true;
    };
  });
  return { runs, actor };
}

const answer = (over: Partial<AnswerData> = {}): AnswerData => ({
  answer_type: 'ANSWER',
  generated_answer: { answer: 'Revenue grew [1].', sentences: [{ sentence: 'Revenue grew.', citations: [1] }] },
  retrieved_results: [],
  followup_questions: ['Why?'],
  answer_quality: 'HIGH',
  pro: false,
  message_id: 'm1',
  session_id: 's1',
  ...over,
});

function start(options: { save?: (input: SaveInput) => Promise<unknown>; history?: boolean } = {}) {
  const stream = fakeStream();
  const saves: SaveInput[] = [];
  const machine = chatMachine.provide({
    actors: {
      askStream: stream.actor,
      saveSession: fromPromise<unknown, SaveInput>(({ input }) => {
        saves.push(input);
        return options.save ? options.save(input) : Promise.resolve(null);
      }),
    },
    actions: { notifySyncFailed: () => {}, logError: () => {} },
  });
  const actor = createActor(machine, { input: { historyEnabled: options.history ?? true } }).start();
  return { actor, stream, saves };
}

const lastBot = (messages: unknown[]) => messages.at(-1) as BotMessage;

describe('the chat machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks, streams steps and chunks, and stores the answer', () => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.send', prompt: '  What grew?  ' });
    expect(chatStatus(actor.getSnapshot())).toBe('loading');
    expect(actor.getSnapshot().context.messages.map((m) => m.type)).toEqual(['user', 'bot']);
    expect(stream.runs[0].request).toMatchObject({ prompt: 'What grew?', stream: true, pro: false, session_id: null });

    stream.runs[0].send({ type: 'stream.step', text: 'Searching' });
    stream.runs[0].send({ type: 'stream.step', text: 'Reading' });
    let bot = lastBot(actor.getSnapshot().context.messages);
    expect(bot.intermediateSteps).toEqual([
      { text: 'Searching', loading: false },
      { text: 'Reading', loading: true },
    ]);
    expect(chatStatus(actor.getSnapshot())).toBe('loading');

    stream.runs[0].send({ type: 'stream.chunk', text: 'Revenue ' });
    stream.runs[0].send({ type: 'stream.chunk', text: 'grew [1].' });
    expect(chatStatus(actor.getSnapshot())).toBe('streaming');
    bot = lastBot(actor.getSnapshot().context.messages);
    expect(bot.streamingAnswer).toBe('Revenue grew [1].');
    expect(bot.intermediateSteps.every((s) => !s.loading)).toBe(true);

    stream.runs[0].send({ type: 'stream.done', data: answer() });
    expect(chatStatus(actor.getSnapshot())).toBe('done');
    bot = lastBot(actor.getSnapshot().context.messages);
    expect(bot.data?.message_id).toBe('m1');
    expect(bot.streamingAnswer).toBe('');
    expect(actor.getSnapshot().context.sessionId).toBe('s1');
    expect(stream.runs[0].aborted).toBe(true);
  });

  it('sends the session id with a follow-up question and saves the session after each answer', async () => {
    const { actor, stream, saves } = start();
    actor.send({ type: 'chat.send', prompt: 'First' });
    stream.runs[0].send({ type: 'stream.done', data: answer() });
    await vi.runAllTimersAsync();
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({ sessionId: 's1', title: 'First' });
    expect(saves[0].state.messages).toHaveLength(2);

    actor.send({ type: 'chat.send', prompt: 'Second' });
    expect(stream.runs[1].request.session_id).toBe('s1');
  });

  it('does not save sessions when history is off, and tells when saving failed', async () => {
    const off = start({ history: false });
    off.actor.send({ type: 'chat.send', prompt: 'Q' });
    off.stream.runs[0].send({ type: 'stream.done', data: answer() });
    await vi.runAllTimersAsync();
    expect(off.saves).toHaveLength(0);

    const notify = vi.fn();
    const stream = fakeStream();
    const actor = createActor(
      chatMachine.provide({
        actors: { askStream: stream.actor, saveSession: fromPromise(() => Promise.reject(new Error('500'))) },
        actions: { notifySyncFailed: () => notify(), logError: () => {} },
      }),
      { input: {} },
    ).start();
    actor.send({ type: 'chat.send', prompt: 'Q' });
    stream.runs[0].send({ type: 'stream.done', data: answer() });
    await vi.runAllTimersAsync();
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('aborts the running question when a new one is asked', () => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.send', prompt: 'One' });
    stream.runs[0].send({ type: 'stream.chunk', text: 'Partial' });
    actor.send({ type: 'chat.send', prompt: 'Two' });
    expect(stream.runs[0].aborted).toBe(true);
    expect(stream.runs).toHaveLength(2);
    expect(stream.runs[1].request.prompt).toBe('Two');
    const bots = actor.getSnapshot().context.messages.filter((m): m is BotMessage => m.type === 'bot');
    expect(bots[0].generatingStopped).toBe(true);
    expect(chatStatus(actor.getSnapshot())).toBe('loading');
  });

  it('stops: aborts the request and marks the answer stopped', () => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.send', prompt: 'One' });
    stream.runs[0].send({ type: 'stream.chunk', text: 'Partial' });
    actor.send({ type: 'chat.stop' });
    expect(chatStatus(actor.getSnapshot())).toBe('stopped');
    expect(stream.runs[0].aborted).toBe(true);
    expect(lastBot(actor.getSnapshot().context.messages).generatingStopped).toBe(true);
  });

  it('shows an error for an error event or a stream that ends without an answer', () => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.send', prompt: 'One' });
    stream.runs[0].send({ type: 'stream.error', message: '[ERROR] engine down' });
    expect(chatStatus(actor.getSnapshot())).toBe('error');
    expect(lastBot(actor.getSnapshot().context.messages).error).toBe(true);

    actor.send({ type: 'chat.send', prompt: 'Two' });
    stream.runs[1].send({ type: 'stream.end' });
    expect(chatStatus(actor.getSnapshot())).toBe('error');
  });

  it('ignores an empty question', () => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.send', prompt: '   ' });
    expect(chatStatus(actor.getSnapshot())).toBe('idle');
    expect(stream.runs).toHaveLength(0);
  });

  it('starts a new chat: aborts and clears messages and session', () => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.send', prompt: 'One' });
    stream.runs[0].send({ type: 'stream.done', data: answer() });
    actor.send({ type: 'chat.send', prompt: 'Two' });
    actor.send({ type: 'chat.new' });
    expect(stream.runs[1].aborted).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ messages: [], sessionId: null });
    expect(chatStatus(actor.getSnapshot())).toBe('idle');
  });

  it('toggles web search and Pro only while the conversation is empty', () => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.toggleWeb' });
    actor.send({ type: 'chat.togglePro' });
    expect(actor.getSnapshot().context).toMatchObject({ webSearch: true, pro: true, scope: { id: 'needl_universe' } });

    actor.send({ type: 'chat.send', prompt: 'Q' });
    expect(stream.runs[0].request).toMatchObject({ source: 'needl_universe', pro: true });
    actor.send({ type: 'chat.toggleWeb' });
    actor.send({ type: 'chat.togglePro' });
    expect(actor.getSnapshot().context).toMatchObject({ webSearch: true, pro: true });

    actor.send({ type: 'chat.new' });
    actor.send({ type: 'chat.toggleWeb' });
    expect(actor.getSnapshot().context).toMatchObject({ webSearch: false, scope: { id: 'home' } });
  });

  it('counts thinking ticks every 500 ms while loading, and stops once the answer streams', () => {
    const stream = fakeStream();
    const actor = createActor(chatMachine.provide({ actors: { askStream: stream.actor } }), { input: {} }).start();
    actor.send({ type: 'chat.send', prompt: 'Q' });
    vi.advanceTimersByTime(1_500);
    expect(actor.getSnapshot().context.ticks).toBe(3);
    stream.runs[0].send({ type: 'stream.chunk', text: 'A' });
    vi.advanceTimersByTime(5_000);
    expect(actor.getSnapshot().context.ticks).toBe(3);
  });

  it('loads a saved session from history', () => {
    const { actor, stream } = start();
    actor.send({
      type: 'chat.load',
      session: { sessionId: 'old', messages: [{ type: 'user', id: 'u', botMessageId: 'b', prompt: 'Earlier' }], pro: true },
    });
    expect(actor.getSnapshot().context).toMatchObject({ sessionId: 'old', pro: true });
    actor.send({ type: 'chat.send', prompt: 'More' });
    expect(stream.runs[0].request.session_id).toBe('old');
  });
});
