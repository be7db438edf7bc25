import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, readStreamEvent, type SseMessage } from './sse';

/** `NEEDL_FUZZ_RUNS` from the environment Vitest runs in (Node's, not typed for the app's code). */
const fuzzRuns = (): string | undefined =>
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.NEEDL_FUZZ_RUNS;

/** How many generated cases each property tries: a few thousand here (under a second), more by
 * hand. */
const RUNS = Number(fuzzRuns() ?? 5000);
/** A millisecond a case at least, so long runs by hand are not cut off. */
const TIMEOUT = Math.max(10_000, RUNS);

/** Pieces an answer stream (or a broken one) is made of, strung together in any order. */
const piece = fc.oneof(
  { arbitrary: fc.constantFrom('data: ', 'data: x', 'data:', 'event: error', 'event:', ': keep-alive', 'id: 7'), weight: 3 },
  { arbitrary: fc.constantFrom('\n', '\r', '\r\n', '\n\n', '\r\r', ' '), weight: 3 },
  fc.constantFrom('{"status":"GENERATED_ANSWER","data":{"answer_chunk":"Sales [1]."}}', '[ERROR] failed', '[DONE]', '{"status":"DONE","data":{}}'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const streamText = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

/** Cuts `text` into pieces of the given lengths, empty ones included (a decoder hands on an
 * empty string when a chunk ends inside a character), the rest in one last piece. */
function cut(text: string, lengths: number[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const length of lengths) {
    out.push(text.slice(from, from + length));
    from = Math.min(text.length, from + length);
  }
  out.push(text.slice(from));
  return out;
}

function parse(chunks: string[]): SseMessage[] {
  const parser = createSseParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.finish()];
}

describe('the answer stream, under generated input', () => {
  it('reads the same events however the text is cut into chunks', () => {
    fc.assert(
      fc.property(streamText, fc.array(fc.nat({ max: 4 }), { maxLength: 60 }), (text, lengths) => {
        expect(parse(cut(text, lengths))).toEqual(parse([text]));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it('reads every event as a step, a chunk, the end, an error or nothing, never throwing', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ maxLength: 8 }), { nil: null }), fc.oneof(fc.string(), fc.json()), (event, data) => {
        const read = readStreamEvent({ event, data });
        expect(['step', 'chunk', 'done', 'error', 'ignored']).toContain(read.kind);
        if (read.kind === 'step' || read.kind === 'chunk') expect(typeof read.text).toBe('string');
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});
