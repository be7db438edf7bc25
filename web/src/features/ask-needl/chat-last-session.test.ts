/**
 * The chat machine and the tab's last active session, as an actor with fakes: the stream names
 * the session as it starts, emptying the conversation forgets it, and a chat started after a
 * reload brings it back from the server.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { AskRequest } from './api/ask-api';
import { chatMachine, chatStatus, isRestoring, RESTORE_RECHECK_MS, type ChatEvent, type LoadedSession, type SaveInput } from './chat.machine';
import { readLastSession, rememberLastSession } from './last-session';
import type { AnswerData, BotMessage, ChatMessage } from './types';

function fakeStream() {
  const runs: { request: AskRequest; send: (e: ChatEvent) => void }[] = [];
  const actor = fromCallback<ChatEvent, AskRequest>(({ input, sendBack }) => {
    runs.push({ request: input, send: sendBack });
  });
  return { runs, actor };
}

const done: AnswerData = {
  answer_type: 'ANSWER',
  generated_answer: { answer: 'Costs fell.', sentences: [] },
  retrieved_results: [],
  followup_questions: [],
  answer_quality: 'HIGH',
  pro: false,
  message_id: 'm2',
  session_id: 's1',
};

const turn = (prompt: string, bot: Partial<BotMessage>): ChatMessage[] => [
  { type: 'user', id: `u-${prompt}`, botMessageId: `b-${prompt}`, prompt },
  { type: 'bot', id: `b-${prompt}`, prompt, data: null, streamingAnswer: '', intermediateSteps: [], generatingStopped: false, error: false, ...bot },
];

/** The session as the server has it: the first answer stopped, or still running (no ending yet). */
const saved = (bot: Partial<BotMessage>): LoadedSession => ({
  sessionId: 's1',
  messages: turn('And costs?', bot),
  scope: { type: 'feed', id: 'c1', channel_id: 'c1' },
});

function start(options: { lastSessionId?: string | null; reads?: (() => Promise<LoadedSession>)[]; history?: boolean } = {}) {
  const stream = fakeStream();
  const reads: string[] = [];
  const answers = options.reads ?? [];
  const machine = chatMachine.provide({
    actors: {
      askStream: stream.actor,
      saveSession: fromPromise<unknown, SaveInput>(() => Promise.resolve(null)),
      restoreSession: fromPromise<LoadedSession, { sessionId: string }>(({ input }) => {
        reads.push(input.sessionId);
        const next = answers.shift();
        return next ? next() : Promise.reject(new Error('no fake answer left'));
      }),
    },
    actions: { notifySyncFailed: () => {}, logError: () => {}, logRestoreFailed: () => {} },
  });
  const actor = createActor(machine, { input: { historyEnabled: options.history ?? true, lastSessionId: options.lastSessionId ?? null } }).start();
  return { actor, stream, reads };
}

const lastBot = (messages: ChatMessage[]) => messages.at(-1) as BotMessage;

describe('the last active session', () => {
  beforeEach(() => {
    sessionStorage.clear();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('is the session the stream names as the answer starts, before any answer is done', () => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.send', prompt: 'And costs?' });
    stream.runs[0].send({ type: 'stream.started', sessionId: 's1' });
    expect(readLastSession()).toBe('s1');
    expect(actor.getSnapshot().context.sessionId).toBe('s1');

    // Stopped before the answer, the next question goes on in the same session.
    actor.send({ type: 'chat.stop' });
    actor.send({ type: 'chat.send', prompt: 'And margins?' });
    expect(stream.runs[1].request.session_id).toBe('s1');
  });

  it('is not kept for a report chat, whose stream names no session, nor with history off', () => {
    const report = start();
    report.actor.send({ type: 'report.enable', report: { id: 'r1', name: 'Q3', feed_id: null, sources: [], sections: [] } });
    report.actor.send({ type: 'chat.send', prompt: 'Summarise' });
    report.stream.runs[0].send({ type: 'stream.started', sessionId: null });
    expect(readLastSession()).toBeNull();

    const off = start({ history: false });
    off.actor.send({ type: 'chat.send', prompt: 'Q' });
    off.stream.runs[0].send({ type: 'stream.started', sessionId: 's9' });
    expect(readLastSession()).toBeNull();
  });

  it.each([
    ['New chat', { type: 'chat.new' }],
    ['another scope', { type: 'chat.setScope', scope: { type: 'feed', id: 'b2', board_id: 'b2' } }],
  ] as const)('is forgotten on %s', (_, event) => {
    const { actor, stream } = start();
    actor.send({ type: 'chat.send', prompt: 'Q' });
    stream.runs[0].send({ type: 'stream.started', sessionId: 's1' });
    stream.runs[0].send({ type: 'stream.done', data: done });
    expect(readLastSession()).toBe('s1');
    actor.send(event);
    expect(readLastSession()).toBeNull();
    expect(actor.getSnapshot().context.sessionId).toBeNull();
  });

  it('is a session opened from history', () => {
    const { actor } = start();
    actor.send({ type: 'chat.load', session: saved({ generatingStopped: true }) });
    expect(readLastSession()).toBe('s1');
  });

  it('comes back after a reload, with its question and the stopped answer, in its own scope', async () => {
    rememberLastSession('s1');
    const { actor, reads } = start({ lastSessionId: 's1', reads: [() => Promise.resolve(saved({ generatingStopped: true }))] });
    expect(isRestoring(actor.getSnapshot())).toBe(true);
    // The page's scope, sent while the conversation loads, does not empty it.
    actor.send({ type: 'chat.setScope', scope: { type: 'feed', id: 'home' } });
    await vi.runAllTimersAsync();
    const { context } = actor.getSnapshot();
    expect(reads).toEqual(['s1']);
    expect(chatStatus(actor.getSnapshot())).toBe('done');
    expect(context.messages.map((m) => m.type)).toEqual(['user', 'bot']);
    expect(lastBot(context.messages)).toMatchObject({ prompt: 'And costs?', generatingStopped: true, data: null });
    expect(context).toMatchObject({ sessionId: 's1', scope: { id: 'c1', channel_id: 'c1' } });
    expect(readLastSession()).toBe('s1');
  });

  it('shows an answer the server has not yet seen end as stopped, and reads the session once more a little later', async () => {
    const { actor, reads } = start({
      lastSessionId: 's1',
      reads: [() => Promise.resolve(saved({})), () => Promise.resolve(saved({ data: done }))],
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(isRestoring(actor.getSnapshot())).toBe(false);
    expect(lastBot(actor.getSnapshot().context.messages)).toMatchObject({ generatingStopped: true, data: null });
    expect(reads).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(RESTORE_RECHECK_MS);
    expect(reads).toEqual(['s1', 's1']);
    // It was finished after all: the answer replaces the stop.
    expect(lastBot(actor.getSnapshot().context.messages)).toMatchObject({ data: { generated_answer: { answer: 'Costs fell.' } } });
    expect(chatStatus(actor.getSnapshot())).toBe('done');
  });

  it('is forgotten when it cannot be read, and the chat starts empty', async () => {
    rememberLastSession('gone');
    const { actor, stream } = start({ lastSessionId: 'gone', reads: [() => Promise.reject(new Error('404'))] });
    await vi.runAllTimersAsync();
    expect(chatStatus(actor.getSnapshot())).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({ messages: [], sessionId: null });
    expect(readLastSession()).toBeNull();
    actor.send({ type: 'chat.send', prompt: 'Fresh' });
    expect(stream.runs[0].request.session_id).toBeNull();
  });

  it('is not read when there is none', () => {
    const { actor, reads } = start();
    expect(chatStatus(actor.getSnapshot())).toBe('idle');
    expect(reads).toEqual([]);
  });
});
