import { createActor } from 'xstate';
import { searchBoxMachine } from './search-box.machine';

const start = () => {
  const submitted: string[] = [];
  const focus: string[] = [];
  const actor = createActor(
    searchBoxMachine.provide({
      actions: {
        submit: (_, { text }) => submitted.push(text),
        focusInput: () => focus.push('input'),
        focusToggle: () => focus.push('toggle'),
      },
    }),
    { input: {} },
  ).start();
  return { actor, submitted, focus, state: () => actor.getSnapshot() };
};

describe('the expandable search box', () => {
  it('starts collapsed and expands with the caret in the input', () => {
    const { actor, focus, state } = start();
    expect(state().value).toBe('collapsed');
    actor.send({ type: 'search.open' });
    expect(state().value).toBe('expanded');
    expect(focus).toEqual(['input']);
  });

  it('collapses on blur only when empty', () => {
    const { actor, state } = start();
    actor.send({ type: 'search.open' });
    actor.send({ type: 'search.type', text: 'tariffs' });
    actor.send({ type: 'search.blur' });
    expect(state().value).toBe('expanded');
    actor.send({ type: 'search.type', text: '   ' });
    actor.send({ type: 'search.blur' });
    expect(state().value).toBe('collapsed');
  });

  it('clears and collapses with the close button, giving focus back to the icon', () => {
    const { actor, focus, state } = start();
    actor.send({ type: 'search.open' });
    actor.send({ type: 'search.type', text: 'tariffs' });
    actor.send({ type: 'search.close' });
    expect(state().value).toBe('collapsed');
    expect(state().context.text).toBe('');
    expect(focus).toEqual(['input', 'toggle']);
  });

  it('collapses on Escape, keeping the text for next time', () => {
    const { actor, state } = start();
    actor.send({ type: 'search.open' });
    actor.send({ type: 'search.type', text: 'steel' });
    actor.send({ type: 'search.escape' });
    expect(state().value).toBe('collapsed');
    actor.send({ type: 'search.open' });
    expect(state().context.text).toBe('steel');
  });

  it('submits the trimmed query, and nothing when it is empty', () => {
    const { actor, submitted } = start();
    actor.send({ type: 'search.open' });
    actor.send({ type: 'search.submit' });
    actor.send({ type: 'search.type', text: '  rate cut ' });
    actor.send({ type: 'search.submit' });
    expect(submitted).toEqual(['rate cut']);
  });

  it('ignores typing and submitting while collapsed', () => {
    const { actor, submitted, state } = start();
    actor.send({ type: 'search.type', text: 'x' });
    actor.send({ type: 'search.submit' });
    expect(state().context.text).toBe('');
    expect(submitted).toEqual([]);
  });
});
