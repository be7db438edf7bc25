import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { AskRequest } from './api/ask-api';
import { chatMachine, type ChatEvent, type SaveInput } from './chat.machine';
import { ordinal, printChat, printTitle } from './print-chat';
import type { AnswerData, ReportInfo } from './types';

const report: ReportInfo = { id: 'r1', name: 'Acme research', feed_id: null, sources: [{ id: 'f1', name: 'a.pdf', status: 'COMPLETED' }], sections: ['Risks'] };

const answer: AnswerData = {
  answer_type: 'ANSWER',
  generated_answer: { answer: 'Steel [1].', sentences: [] },
  retrieved_results: [],
  followup_questions: [],
  answer_quality: 'HIGH',
  pro: false,
  session_id: 's1',
  report_chat: true,
};

function start() {
  const requests: AskRequest[] = [];
  const senders: Array<(e: ChatEvent) => void> = [];
  const saves: SaveInput[] = [];
  const machine = chatMachine.provide({
    actors: {
      askStream: fromCallback<ChatEvent, AskRequest>(({ input, sendBack }) => {
        requests.push(input);
        senders.push(sendBack);
      }),
      saveSession: fromPromise<unknown, SaveInput>(async ({ input }) => void saves.push(input)),
    },
    actions: { notifySyncFailed: () => {}, logError: () => {} },
  });
  return { actor: createActor(machine, { input: { historyEnabled: true } }).start(), requests, senders, saves };
}

describe('report mode', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks with the report id and never saves the report chat as a session', async () => {
    const { actor, requests, senders, saves } = start();
    actor.send({ type: 'report.enable', report });
    actor.send({ type: 'chat.send', prompt: 'What are the risks?' });
    expect(requests[0]).toMatchObject({ prompt: 'What are the risks?', report_id: 'r1' });
    senders[0]({ type: 'stream.done', data: answer });
    await vi.runAllTimersAsync();
    expect(saves).toEqual([]);
  });

  it('a new chat keeps report mode; disabling it drops the report and the conversation', () => {
    const { actor, requests } = start();
    actor.send({ type: 'report.enable', report });
    actor.send({ type: 'chat.send', prompt: 'Q' });
    actor.send({ type: 'chat.new' });
    expect(actor.getSnapshot().context.report?.id).toBe('r1');
    actor.send({ type: 'chat.send', prompt: 'Q' });
    actor.send({ type: 'report.disable' });
    expect(actor.getSnapshot().context).toMatchObject({ report: null, messages: [] });
    actor.send({ type: 'chat.send', prompt: 'Q2' });
    expect(requests.at(-1)).not.toHaveProperty('report_id');
  });

  it('refreshing the report’s info keeps the conversation', () => {
    const { actor } = start();
    actor.send({ type: 'report.enable', report });
    actor.send({ type: 'chat.send', prompt: 'Q' });
    actor.send({ type: 'report.refresh', report: { ...report, name: 'Renamed' } });
    expect(actor.getSnapshot().context.messages).toHaveLength(2);
    expect(actor.getSnapshot().context.report?.name).toBe('Renamed');
  });
});

describe('printing a report chat', () => {
  afterEach(() => vi.useRealTimers());

  it('titles it AskNeedl and the date with an ordinal day', () => {
    expect(printTitle(new Date(2024, 2, 5))).toBe('AskNeedl 5th Mar 2024');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '31st']);
  });

  it('opens the print dialog 500 ms later under that title, then puts the title back', () => {
    vi.useFakeTimers();
    const titles: string[] = [];
    const print = vi.spyOn(window, 'print').mockImplementation(() => void titles.push(document.title));
    document.title = 'Needl';
    printChat(new Date(2024, 2, 5));
    vi.advanceTimersByTime(499);
    expect(print).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(titles).toEqual(['AskNeedl 5th Mar 2024']);
    expect(document.title).toBe('Needl');
    print.mockRestore();
  });
});
