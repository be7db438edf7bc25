import { describe, expect, it } from 'vitest';
import { createSseParser, readEventStream, readStreamEvent, type StreamEvent } from './sse';

const event = (status: string, data: unknown) => `data: ${JSON.stringify({ status, data })}\n\n`;

describe('the SSE parser', () => {
  it('reads an event split across chunks at any point', () => {
    const whole = event('GENERATED_ANSWER', 'Revenue grew [1].');
    for (let cut = 1; cut < whole.length; cut += 1) {
      const parser = createSseParser();
      const messages = [...parser.push(whole.slice(0, cut)), ...parser.push(whole.slice(cut)), ...parser.finish()];
      expect(messages).toEqual([{ event: null, data: JSON.stringify({ status: 'GENERATED_ANSWER', data: 'Revenue grew [1].' }) }]);
    }
  });

  it('keeps a CRLF whole when an empty piece comes between its two halves', () => {
    const parser = createSseParser();
    const messages = [...parser.push('data: x\r'), ...parser.push(''), ...parser.push('\ndata: y'), ...parser.finish()];
    expect(messages).toEqual([{ event: null, data: 'x\ny' }]);
  });

  it('reads several events from one chunk, with CRLF line ends split between chunks', () => {
    const parser = createSseParser();
    const text = `${event('INTERMEDIATE_STEP', 'Searching')}${event('GENERATED_ANSWER', 'A')}`.replace(/\n/g, '\r\n');
    const middle = text.indexOf('\r\n') + 1;
    const messages = [...parser.push(text.slice(0, middle)), ...parser.push(text.slice(middle)), ...parser.finish()];
    expect(messages.map((m) => readStreamEvent(m))).toEqual([
      { kind: 'step', text: 'Searching' },
      { kind: 'chunk', text: 'A' },
    ]);
  });

  it('joins multi-line data, skips comments and keeps the event name', () => {
    const parser = createSseParser();
    const messages = parser.push(': keep-alive\nevent: answer\ndata: one\ndata: two\n\n');
    expect(messages).toEqual([{ event: 'answer', data: 'one\ntwo' }]);
  });

  it('dispatches a last event that had no blank line after it', () => {
    const parser = createSseParser();
    expect(parser.push('data: {"status":"DONE","data":{}}')).toEqual([]);
    expect(parser.finish().map(readStreamEvent)).toEqual([{ kind: 'done', data: {} }]);
  });
});

describe('reading stream events', () => {
  const read = (data: string) => readStreamEvent({ event: null, data });

  it('turns the error marker into an error, at the start of the data or of its payload', () => {
    expect(read('[ERROR] the engine failed').kind).toBe('error');
    expect(read(JSON.stringify({ status: 'GENERATED_ANSWER', data: '[ERROR] boom' })).kind).toBe('error');
    expect(read(JSON.stringify({ status: 'ERROR', data: 'boom' }))).toEqual({ kind: 'error', message: 'boom' });
  });

  it('takes chunk text from a string or an answer_chunk field', () => {
    expect(read(JSON.stringify({ status: 'GENERATED_ANSWER', data: { generated_answer: { answer_chunk: 'x' } } }))).toEqual({ kind: 'chunk', text: 'x' });
  });

  it('treats data that is not JSON as an error and unknown statuses as nothing', () => {
    expect(read('{not json').kind).toBe('error');
    expect(read(JSON.stringify({ status: 'PING' })).kind).toBe('ignored');
  });

  it('reads a byte stream whose UTF-8 characters are cut between chunks', async () => {
    const bytes = new TextEncoder().encode(event('GENERATED_ANSWER', 'café ✓') + event('DONE', { session_id: 's1' }));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    const seen: StreamEvent[] = [];
    await readEventStream(stream, (e) => seen.push(e));
    expect(seen).toEqual([
      { kind: 'chunk', text: 'café ✓' },
      { kind: 'done', data: { session_id: 's1' } },
    ]);
  });
});
