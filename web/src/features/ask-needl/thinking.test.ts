import { describe, expect, it } from 'vitest';
import { thinkingText } from './thinking';

describe('the thinking phrases', () => {
  it('adds one to three dots, one more every 500 ms tick', () => {
    expect([0, 1, 2, 3].map(thinkingText)).toEqual(['Thinking.', 'Thinking..', 'Thinking...', 'Thinking.']);
  });

  it('moves to the next phrase every 12 s and stays on the last', () => {
    expect(thinkingText(23)).toMatch(/^Thinking\.+$/);
    expect(thinkingText(24)).toMatch(/^Exploring insights\.+$/);
    expect(thinkingText(48)).toMatch(/^Finalizing answer\.+$/);
    expect(thinkingText(10_000)).toMatch(/^Finalizing answer\.+$/);
  });
});
