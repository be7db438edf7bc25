/**
 * Reading the answer stream: server-sent events out of text that arrives in arbitrary pieces
 * (an event, a line, even a `\r\n` may be cut between two chunks), then each event's JSON
 * `{status, data}` as a stream event. Pure and incremental, so it is tested without a network.
 */

/** One server-sent event: its `data` lines joined with `\n`, and its `event` name if any. */
export interface SseMessage {
  event: string | null;
  data: string;
}

/**
 * Returns a parser fed with decoded text: `push` returns the events the text completed, `finish`
 * the last one when the stream ended without a blank line. Comments (`:`) and unknown fields are
 * skipped, as the EventSource standard says.
 */
export function createSseParser() {
  let buffer = '';
  let data: string[] = [];
  let event: string | null = null;
  /** A chunk that ended with `\r` may be followed by a `\n` that belongs to the same line end. */
  let skipLeadingNewline = false;

  const dispatch = (out: SseMessage[]) => {
    if (data.length > 0) out.push({ event, data: data.join('\n') });
    data = [];
    event = null;
  };

  const line = (text: string, out: SseMessage[]) => {
    if (text === '') return dispatch(out);
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };

  return {
    push(text: string): SseMessage[] {
      const out: SseMessage[] = [];
      // An empty piece (a decoder's, when a chunk ends inside a character) says nothing about
      // whether a `\n` follows a `\r` that ended the previous one.
      if (text === '') return out;
      if (skipLeadingNewline && text.startsWith('\n')) text = text.slice(1);
      skipLeadingNewline = false;
      buffer += text;
      for (;;) {
        const at = buffer.search(/[\r\n]/);
        if (at === -1) break;
        const end = buffer[at];
        if (end === '\r' && at === buffer.length - 1) {
          // Wait: the `\n` of a `\r\n` may come in the next chunk.
          line(buffer.slice(0, at), out);
          buffer = '';
          skipLeadingNewline = true;
          break;
        }
        const width = end === '\r' && buffer[at + 1] === '\n' ? 2 : 1;
        line(buffer.slice(0, at), out);
        buffer = buffer.slice(at + width);
      }
      return out;
    },
    finish(): SseMessage[] {
      const out: SseMessage[] = [];
      if (buffer) line(buffer, out);
      buffer = '';
      dispatch(out);
      return out;
    },
  };
}

/** The statuses the answer stream sends. */
export type StreamStatus = 'INTERMEDIATE_STEP' | 'GENERATED_ANSWER' | 'DONE';

/**
 * What the chat learns from one server-sent event: a step of the work, a piece of the answer,
 * the finished answer, or an error (an event marked as one, or one that is not our JSON).
 */
export type StreamEvent =
  | { kind: 'step'; text: string }
  | { kind: 'chunk'; text: string }
  | { kind: 'done'; data: unknown }
  | { kind: 'error'; message: string }
  | { kind: 'ignored' };

/** The marker the spec puts at the start of an event's data when the server failed. */
export const ERROR_MARKER = '[ERROR]';

const isErrorText = (text: string) => text.startsWith(ERROR_MARKER) || /^error\b/i.test(text);

const textOf = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of ['answer_chunk', 'text', 'step', 'message', 'chunk']) {
      if (typeof record[key] === 'string') return record[key] as string;
    }
    const generated = record.generated_answer as Record<string, unknown> | undefined;
    if (generated && typeof generated.answer_chunk === 'string') return generated.answer_chunk;
  }
  return '';
};

/** Returns what an event's data says. */
export function readStreamEvent(message: SseMessage): StreamEvent {
  const raw = message.data;
  if (isErrorText(raw) || message.event === 'error') return { kind: 'error', message: raw };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { kind: 'error', message: `not JSON: ${raw.slice(0, 80)}` };
  }
  if (!parsed || typeof parsed !== 'object') return { kind: 'ignored' };
  const { status, data } = parsed as { status?: unknown; data?: unknown };
  const statusText = typeof status === 'string' ? status.toUpperCase() : '';
  if (statusText.includes('ERROR') || (typeof data === 'string' && isErrorText(data))) {
    return { kind: 'error', message: textOf(data) || statusText };
  }
  switch (statusText) {
    case 'INTERMEDIATE_STEP':
      return { kind: 'step', text: textOf(data) };
    case 'GENERATED_ANSWER':
      return { kind: 'chunk', text: textOf(data) };
    case 'DONE':
      return { kind: 'done', data };
    default:
      return { kind: 'ignored' };
  }
}

/**
 * Reads a response body to its end, calling `onEvent` for each stream event. Stops early when
 * `signal` aborts (the reader is cancelled, so the connection closes).
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  const emit = (messages: SseMessage[]) => messages.forEach((m) => onEvent(readStreamEvent(m)));
  const cancel = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) return;
      if (done) break;
      emit(parser.push(decoder.decode(value, { stream: true })));
    }
    emit(parser.push(decoder.decode()));
    emit(parser.finish());
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
