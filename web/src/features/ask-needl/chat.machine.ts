/**
 * The assistant's conversation flow: idle → asking (loading, then streaming) → done, stopped
 * or error. A question adds the user's message and an empty bot message, then runs the
 * `askStream` actor, which reads the server-sent events and sends them back; a new question or
 * `chat.stop` or `chat.new` leaves the state that invokes it, which aborts the request. While
 * waiting, a `ticker` counts 500 ms ticks for the thinking phrases. After an answer, the session
 * is saved (`saveSession`) unless history is off. Web search and Pro can change only while the
 * conversation is empty. Every implementation is named, so tests `.provide()` fakes.
 *
 * The tab's last active session: the session an answer streams in (named by the stream's
 * headers as it starts), or one loaded from history, is remembered (`rememberSession`); emptying
 * the conversation (New chat, web search, another scope, report mode) forgets it
 * (`forgetSession`). A chat started with a remembered session (`lastSessionId`, after a reload)
 * restores it from the server (`restoreSession`); an answer the server has not yet seen end (the
 * reload cut its stream a moment ago) shows as stopped, and the session is read once more a
 * little later in case it was finished after all.
 */
import { produce } from 'immer';
import { assign, fromCallback, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { notify } from '../../lib/notices';
import { askNeedl, fetchSession, saveSession, type AskRequest, type SavedSessionState } from './api/ask-api';
import { forgetLastSession, rememberLastSession } from './last-session';
import { SESSION_SYNC_FAILED } from './messages';
import { lastAnswerUnended, loadedSession, stopUnended } from './session-messages';
import type { StreamEvent } from './sse';
import { THINKING_TICK_MS } from './thinking';
import { HOME_SCOPE_ID, WEB_SCOPE_ID, type AnswerData, type AskScope, type BotMessage, type ChatMessage, type ReportInfo } from './types';

export interface ChatContext {
  messages: ChatMessage[];
  sessionId: string | null;
  scope: AskScope;
  webSearch: boolean;
  pro: boolean;
  /** Search mode: matching documents with their passages instead of a generated answer. */
  searchMode: boolean;
  /** Whether answered sessions are saved (the ask_needl_history flag). */
  historyEnabled: boolean;
  /** The bot message being answered. */
  activeBotId: string | null;
  /** 500 ms ticks since the question was sent, for the thinking phrases. */
  ticks: number;
  /** Documents attached to the next questions (their deeplinks). */
  attachmentIds: string[];
  /** Whether the last answer is not saved yet. */
  unsaved: boolean;
  /** The uploads attached to this conversation (their upload ids). */
  uploadIds: string[];
  /** Report mode: the report the questions are about (null: not in report mode). */
  report: ReportInfo | null;
}

export interface ChatInput {
  scope?: AskScope;
  pro?: boolean;
  webSearch?: boolean;
  historyEnabled?: boolean;
  /** The tab's last active session, to restore (a reload). */
  lastSessionId?: string | null;
}

export interface LoadedSession {
  sessionId: string;
  messages: ChatMessage[];
  scope?: AskScope;
  pro?: boolean;
  attachmentIds?: string[];
}

export type ChatEvent =
  | { type: 'chat.send'; prompt: string }
  | { type: 'chat.stop' }
  | { type: 'chat.new' }
  | { type: 'chat.toggleWeb' }
  | { type: 'chat.togglePro' }
  | { type: 'chat.toggleSearch' }
  | { type: 'chat.setPro'; pro: boolean }
  | { type: 'chat.setHistory'; enabled: boolean }
  | { type: 'chat.setScope'; scope: AskScope }
  | { type: 'chat.setAttachments'; ids: string[] }
  | { type: 'chat.attach'; uploadIds: string[] }
  | { type: 'chat.detach'; uploadId: string }
  | { type: 'chat.load'; session: LoadedSession }
  | { type: 'report.enable'; report: ReportInfo }
  | { type: 'report.disable' }
  /** Newer info about the report in use (its sources' status): the conversation stays. */
  | { type: 'report.refresh'; report: ReportInfo }
  /** The answer started; its headers name the session (none in a report chat). */
  | { type: 'stream.started'; sessionId: string | null }
  | { type: 'stream.step'; text: string }
  | { type: 'stream.chunk'; text: string }
  | { type: 'stream.done'; data: AnswerData }
  | { type: 'stream.error'; message: string }
  | { type: 'stream.end' }
  | { type: 'thinking.tick' };

/** Returns the stream events as chat machine events. */
export function toChatEvent(event: StreamEvent): ChatEvent | null {
  switch (event.kind) {
    case 'step':
      return { type: 'stream.step', text: event.text };
    case 'chunk':
      return { type: 'stream.chunk', text: event.text };
    case 'done':
      return { type: 'stream.done', data: event.data as AnswerData };
    case 'error':
      return { type: 'stream.error', message: event.message };
    default:
      return null;
  }
}

/** Runs one question: the request aborts when the state that invoked it is left. */
const askStream = fromCallback<ChatEvent, AskRequest>(({ input, sendBack }) => {
  const controller = new AbortController();
  askNeedl(
    input,
    (event) => {
      const chatEvent = toChatEvent(event);
      if (chatEvent && !controller.signal.aborted) sendBack(chatEvent);
    },
    controller.signal,
    ({ sessionId }) => {
      if (!controller.signal.aborted) sendBack({ type: 'stream.started', sessionId });
    },
  ).then(
    () => !controller.signal.aborted && sendBack({ type: 'stream.end' }),
    (error: unknown) => !controller.signal.aborted && sendBack({ type: 'stream.error', message: String(error) }),
  );
  return () => controller.abort();
});

const ticker = fromCallback<ChatEvent>(({ sendBack }) => {
  const handle = setInterval(() => sendBack({ type: 'thinking.tick' }), THINKING_TICK_MS);
  return () => clearInterval(handle);
});

export interface SaveInput {
  sessionId: string;
  title: string;
  state: SavedSessionState;
}

const saveSessionActor = fromPromise<unknown, SaveInput>(({ input }) => saveSession(input.sessionId, input.title, input.state));

/** Reads a saved session from the server as the chat loads it. */
const restoreSessionActor = fromPromise<LoadedSession, { sessionId: string }>(async ({ input, signal }) =>
  loadedSession(await fetchSession(input.sessionId, signal)),
);

/** How long a restored answer with no ending yet waits before the session is read again. */
export const RESTORE_RECHECK_MS = 4_000;

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++sequence}`;

const homeScope: AskScope = { type: 'feed', id: HOME_SCOPE_ID };
const webScope: AskScope = { type: 'feed', id: WEB_SCOPE_ID };

const updateBot = (context: ChatContext, change: (bot: BotMessage) => void): ChatMessage[] =>
  produce(context.messages, (draft) => {
    const bot = draft.find((m): m is BotMessage => m.type === 'bot' && m.id === context.activeBotId);
    if (bot) change(bot);
  });

/** Returns the request for a question in the chat's current scope and settings. */
export function requestFor(context: ChatContext, prompt: string): AskRequest {
  const { scope } = context;
  // A saved session over several documents names them joined with commas.
  const own = scope.type === 'document' ? scope.id.split(',').filter(Boolean) : [];
  const documents = [...new Set([...own, ...(scope.document_ids ?? []), ...context.attachmentIds])];
  return {
    prompt,
    stream: true,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    pro: context.pro,
    source: context.webSearch ? WEB_SCOPE_ID : scope.type === 'document' ? 'document' : scope.id,
    session_id: context.sessionId,
    document_id: documents,
    board_id: scope.board_id ?? (scope.type === 'feed' && !context.webSearch ? scope.id : undefined),
    channel_id: scope.channel_id,
    mode: context.searchMode ? 'search' : 'ask',
    web_search: context.webSearch,
    ...(context.report ? { report_id: context.report.id } : {}),
  };
}

/** Returns what a saved session keeps (the spec's state). */
export function sessionState(context: ChatContext): SavedSessionState {
  return {
    currentFeedOrDocumentId: context.scope.id,
    searchWithin: context.scope.type,
    messages: context.messages,
    attachments: context.attachmentIds,
    attachmentsFeedId: null,
    metadata: {
      type: context.scope.type,
      board_id: context.scope.board_id,
      channel_id: context.scope.channel_id,
      document_id: context.scope.type === 'document' ? context.scope.id : undefined,
    },
    settings: { pro: context.pro },
  };
}

const emptyConversation = {
  messages: [] as ChatMessage[],
  sessionId: null,
  activeBotId: null,
  ticks: 0,
  attachmentIds: [] as string[],
  unsaved: false,
  uploadIds: [] as string[],
};

/** Returns the chat's context once a saved session is opened: its messages, scope and settings. */
function conversationOf(context: ChatContext, session: LoadedSession): Partial<ChatContext> {
  const scope = session.scope ?? context.scope;
  return {
    ...emptyConversation,
    messages: session.messages,
    sessionId: session.sessionId,
    scope,
    report: null,
    webSearch: scope.id === WEB_SCOPE_ID,
    pro: session.pro ?? context.pro,
    attachmentIds: session.attachmentIds ?? [],
  };
}

/** Returns a session's title: its first question. */
export const sessionTitle = (messages: ChatMessage[]): string =>
  messages.find((m) => m.type === 'user')?.prompt.slice(0, 120) ?? 'AskNeedl';

export const chatMachine = setup({
  types: {} as { context: ChatContext; events: ChatEvent; input: ChatInput | undefined },
  actors: { askStream, ticker, saveSession: saveSessionActor, restoreSession: restoreSessionActor },
  delays: { restoreRecheck: RESTORE_RECHECK_MS },
  actions: {
    addQuestion: assign(({ context, event }) => {
      if (event.type !== 'chat.send') return {};
      const botId = newId('bot');
      const prompt = event.prompt.trim();
      const messages = produce(context.messages, (draft) => {
        // A question asked over a running one stops the running one.
        draft.forEach((m) => {
          if (m.type === 'bot' && m.id === context.activeBotId && !m.data && !m.error) m.generatingStopped = true;
        });
        draft.push({ type: 'user', id: newId('user'), botMessageId: botId, prompt });
        draft.push({
          type: 'bot',
          id: botId,
          prompt,
          data: null,
          streamingAnswer: '',
          intermediateSteps: [],
          generatingStopped: false,
          error: false,
        });
      });
      return { messages, activeBotId: botId, ticks: 0 };
    }),
    addStep: assign(({ context, event }) =>
      event.type === 'stream.step'
        ? {
            messages: updateBot(context, (bot) => {
              bot.intermediateSteps.forEach((step) => (step.loading = false));
              bot.intermediateSteps.push({ text: event.text, loading: true });
            }),
          }
        : {},
    ),
    appendChunk: assign(({ context, event }) =>
      event.type === 'stream.chunk'
        ? {
            messages: updateBot(context, (bot) => {
              bot.intermediateSteps.forEach((step) => (step.loading = false));
              bot.streamingAnswer += event.text;
            }),
          }
        : {},
    ),
    storeAnswer: assign(({ context, event }) => {
      if (event.type !== 'stream.done') return {};
      const data = event.data;
      return {
        messages: updateBot(context, (bot) => {
          bot.data = data;
          bot.streamingAnswer = '';
          bot.intermediateSteps.forEach((step) => (step.loading = false));
        }),
        sessionId: data?.session_id ?? context.sessionId,
        // A report chat is never saved as a session.
        unsaved: !context.report && !data?.report_chat,
      };
    }),
    markStopped: assign(({ context }) => ({
      messages: updateBot(context, (bot) => {
        bot.generatingStopped = true;
        bot.intermediateSteps.forEach((step) => (step.loading = false));
      }),
    })),
    markError: assign(({ context }) => ({
      messages: updateBot(context, (bot) => {
        bot.error = true;
        bot.intermediateSteps.forEach((step) => (step.loading = false));
      }),
    })),
    logError: ({ event }) => {
      if (event.type === 'stream.error') console.error('ask-needl stream failed:', event.message);
    },
    learnSession: assign(({ event }) => (event.type === 'stream.started' && event.sessionId ? { sessionId: event.sessionId } : {})),
    restore: assign(({ context }, session: LoadedSession) => conversationOf(context, { ...session, messages: stopUnended(session.messages) })),
    rememberSession: ({ context }) => {
      if (context.sessionId && !context.report && context.historyEnabled) rememberLastSession(context.sessionId);
    },
    forgetSession: () => forgetLastSession(),
    logRestoreFailed: ({ event }) => console.warn('the last conversation could not be restored:', (event as { error?: unknown }).error),
    tick: assign({ ticks: ({ context }) => context.ticks + 1 }),
    clear: assign(emptyConversation),
    toggleWeb: assign(({ context }) => ({
      ...emptyConversation,
      report: null,
      webSearch: !context.webSearch,
      scope: context.webSearch ? homeScope : webScope,
    })),
    togglePro: assign({ pro: ({ context }) => !context.pro }),
    toggleSearch: assign({ searchMode: ({ context }) => !context.searchMode }),
    setPro: assign(({ context, event }) => (event.type === 'chat.setPro' && context.messages.length === 0 ? { pro: event.pro } : {})),
    setHistory: assign(({ event }) => (event.type === 'chat.setHistory' ? { historyEnabled: event.enabled } : {})),
    setScope: assign(({ event }) =>
      event.type === 'chat.setScope' ? { ...emptyConversation, scope: event.scope, webSearch: event.scope.id === WEB_SCOPE_ID, report: null } : {},
    ),
    enableReport: assign(({ event }) => (event.type === 'report.enable' ? { ...emptyConversation, report: event.report, webSearch: false, scope: homeScope } : {})),
    disableReport: assign({ ...emptyConversation, report: null }),
    refreshReport: assign(({ context, event }) =>
      event.type === 'report.refresh' && context.report?.id === event.report.id ? { report: event.report } : {},
    ),
    setAttachments: assign(({ event }) => (event.type === 'chat.setAttachments' ? { attachmentIds: event.ids } : {})),
    attach: assign(({ context, event }) =>
      event.type === 'chat.attach' ? { uploadIds: [...context.uploadIds, ...event.uploadIds.filter((id) => !context.uploadIds.includes(id))] } : {},
    ),
    detach: assign(({ context, event }) =>
      event.type === 'chat.detach' ? { uploadIds: context.uploadIds.filter((id) => id !== event.uploadId) } : {},
    ),
    loadSession: assign(({ context, event }) => (event.type === 'chat.load' ? conversationOf(context, event.session) : {})),
    markSaved: assign({ unsaved: false }),
    notifySyncFailed: () => notify({ type: 'error', message: SESSION_SYNC_FAILED }),
  },
  guards: {
    hasPrompt: ({ event }) => event.type === 'chat.send' && event.prompt.trim().length > 0,
    isEmpty: ({ context }) => context.messages.length === 0,
    savesSession: ({ context }) => context.historyEnabled && context.unsaved && Boolean(context.sessionId),
    restoresSession: ({ context }) => Boolean(context.sessionId) && context.messages.length === 0,
    answerUnended: (_, session: LoadedSession) => lastAnswerUnended(session.messages),
  },
}).createMachine({
  id: 'askNeedlChat',
  context: ({ input }) => ({
    ...emptyConversation,
    sessionId: input?.lastSessionId ?? null,
    scope: input?.scope ?? homeScope,
    webSearch: input?.webSearch ?? input?.scope?.id === WEB_SCOPE_ID,
    pro: input?.pro ?? false,
    searchMode: false,
    historyEnabled: input?.historyEnabled ?? true,
    report: null,
  }),
  initial: 'starting',
  on: {
    'chat.send': { guard: 'hasPrompt', target: '.asking', reenter: true, actions: 'addQuestion' },
    'chat.new': { target: '.idle', actions: ['clear', 'forgetSession'] },
    'chat.toggleWeb': { guard: 'isEmpty', target: '.idle', actions: ['toggleWeb', 'forgetSession'] },
    'chat.togglePro': { guard: 'isEmpty', actions: 'togglePro' },
    'chat.toggleSearch': { actions: 'toggleSearch' },
    'chat.setPro': { actions: 'setPro' },
    'chat.setHistory': { actions: 'setHistory' },
    'chat.setScope': { target: '.idle', actions: ['setScope', 'forgetSession'] },
    'chat.setAttachments': { actions: 'setAttachments' },
    'chat.attach': { actions: 'attach' },
    'chat.detach': { actions: 'detach' },
    'chat.load': { target: '.done', actions: ['loadSession', 'rememberSession'] },
    'report.enable': { target: '.idle', actions: ['enableReport', 'forgetSession'] },
    'report.disable': { target: '.idle', actions: ['disableReport', 'forgetSession'] },
    'report.refresh': { actions: 'refreshReport' },
  },
  states: {
    starting: {
      always: [{ guard: 'restoresSession', target: 'restoring' }, { target: 'idle' }],
    },
    restoring: {
      // The restored conversation brings its own scope: the page's, sent while it loads, waits.
      on: { 'chat.setScope': {} },
      initial: 'reading',
      states: {
        reading: {
          invoke: {
            src: 'restoreSession',
            input: ({ context }) => ({ sessionId: context.sessionId ?? '' }),
            onDone: [
              { guard: { type: 'answerUnended', params: ({ event }) => event.output }, target: 'settling', actions: { type: 'restore', params: ({ event }) => event.output } },
              { target: '#askNeedlChat.done', actions: { type: 'restore', params: ({ event }) => event.output } },
            ],
            onError: { target: '#askNeedlChat.idle', actions: ['logRestoreFailed', 'clear', 'forgetSession'] },
          },
        },
        // Shown with the unended answer stopped; the server records the stop a moment later.
        settling: {
          after: { restoreRecheck: 'rereading' },
        },
        rereading: {
          invoke: {
            src: 'restoreSession',
            input: ({ context }) => ({ sessionId: context.sessionId ?? '' }),
            onDone: { target: '#askNeedlChat.done', actions: { type: 'restore', params: ({ event }) => event.output } },
            onError: { target: '#askNeedlChat.done' },
          },
        },
      },
    },
    idle: {},
    asking: {
      invoke: {
        src: 'askStream',
        input: ({ context }) => {
          const bot = context.messages.find((m) => m.id === context.activeBotId);
          return requestFor(context, bot?.type === 'bot' ? bot.prompt : '');
        },
      },
      initial: 'loading',
      on: {
        'chat.stop': { target: 'stopped', actions: 'markStopped' },
        'stream.started': { actions: ['learnSession', 'rememberSession'] },
        'stream.step': { actions: 'addStep' },
        'stream.done': { target: 'done', actions: ['storeAnswer', 'rememberSession'] },
        'stream.error': { target: 'error', actions: ['logError', 'markError'] },
        'stream.end': { target: 'error', actions: 'markError' },
      },
      states: {
        loading: {
          invoke: { src: 'ticker' },
          on: {
            'thinking.tick': { actions: 'tick' },
            'stream.chunk': { target: 'streaming', actions: 'appendChunk' },
          },
        },
        streaming: {
          on: { 'stream.chunk': { actions: 'appendChunk' } },
        },
      },
    },
    done: {
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'savesSession', target: 'saving' }, { target: 'saved' }],
        },
        saving: {
          invoke: {
            src: 'saveSession',
            input: ({ context }) => ({
              sessionId: context.sessionId ?? '',
              title: sessionTitle(context.messages),
              state: sessionState(context),
            }),
            onDone: { target: 'saved', actions: 'markSaved' },
            onError: { target: 'saved', actions: ['markSaved', 'notifySyncFailed'] },
          },
        },
        saved: {},
      },
    },
    stopped: {},
    error: {},
  },
});

export type ChatActorRef = ActorRefFrom<typeof chatMachine>;
export type ChatSnapshot = SnapshotFrom<typeof chatMachine>;

/** The chat's status as the UI shows it. */
export type ChatStatus = 'idle' | 'loading' | 'streaming' | 'done' | 'stopped' | 'error';

/** Whether the chat is bringing back the tab's last conversation (a spinner, not the welcome). */
export const isRestoring = (snapshot: ChatSnapshot): boolean => snapshot.matches({ restoring: 'reading' });

export function chatStatus(snapshot: ChatSnapshot): ChatStatus {
  if (snapshot.matches({ asking: 'loading' })) return 'loading';
  if (snapshot.matches({ asking: 'streaming' })) return 'streaming';
  if (snapshot.matches('done')) return 'done';
  if (snapshot.matches('stopped')) return 'stopped';
  if (snapshot.matches('error')) return 'error';
  return 'idle';
}
