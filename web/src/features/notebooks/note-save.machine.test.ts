import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../../lib/api-client';
import { AUTOSAVE_DELAY_MS, noteSaveMachine, saveStatusOf, type NoteDraft, type SaveInput, type ServerNote } from './note-save.machine';

const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const draft = (text: string): NoteDraft => ({ name: 'Plan', body: doc(text) });
const stale = () => new ApiError(409, 'note_version_stale', 'this note was changed elsewhere since you opened it');

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Starts the machine at version 3 with fake save and load calls the test answers by hand. */
function start({ version = 3 } = {}) {
  const saves: Array<SaveInput & Deferred<ServerNote>> = [];
  const loads: Array<Deferred<ServerNote>> = [];
  const replaced: ServerNote[] = [];
  const actor = createActor(
    noteSaveMachine.provide({
      actors: {
        saveNote: fromPromise<ServerNote, SaveInput>(({ input }) => {
          const call = { ...input, ...deferred<ServerNote>() };
          saves.push(call);
          return call.promise;
        }),
        loadNote: fromPromise<ServerNote, { noteId: string }>(() => {
          const call = deferred<ServerNote>();
          loads.push(call);
          return call.promise;
        }),
      },
    }),
    { input: { noteId: 'n1', version } },
  );
  actor.on('note.replaced', (event) => replaced.push(event.note));
  actor.start();
  const state = () => actor.getSnapshot();
  return { actor, saves, loads, replaced, state, settle: () => vi.advanceTimersByTimeAsync(0) };
}

const answer = (version: number, text = 'x'): ServerNote => ({ version, name: 'Plan', body: doc(text) });

describe('the note save cycle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves once typing has paused for a second, with the version the editor showed', async () => {
    const { actor, saves, state, settle } = start();
    actor.send({ type: 'note.edit', draft: draft('a') });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    actor.send({ type: 'note.edit', draft: draft('ab') });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    expect(saves).toHaveLength(0);
    expect(saveStatusOf(String(state().value), state().context)).toBe('saving');

    await vi.advanceTimersByTimeAsync(100);
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({ noteId: 'n1', version: 3, draft: draft('ab') });

    saves[0].resolve(answer(4, 'ab'));
    await settle();
    expect(state().value).toBe('clean');
    expect(state().context.version).toBe(4);
    expect(saveStatusOf(String(state().value), state().context)).toBe('saved');
  });

  it('saves at once on blur, without waiting for the pause', async () => {
    const { actor, saves } = start();
    actor.send({ type: 'note.edit', draft: draft('a') });
    actor.send({ type: 'note.flush' });
    await vi.advanceTimersByTimeAsync(0);
    expect(saves).toHaveLength(1);
  });

  it('does not save when nothing was typed', async () => {
    const { actor, saves, state } = start();
    actor.send({ type: 'note.flush' });
    await vi.advanceTimersByTimeAsync(5 * AUTOSAVE_DELAY_MS);
    expect(saves).toHaveLength(0);
    expect(saveStatusOf(String(state().value), state().context)).toBe('idle');
  });

  it('saves what was typed during a save after it, based on the version that save made', async () => {
    const { actor, saves, state, settle } = start();
    actor.send({ type: 'note.edit', draft: draft('a') });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    actor.send({ type: 'note.edit', draft: draft('ab') });
    saves[0].resolve(answer(4, 'a'));
    await settle();
    expect(state().value).toBe('dirty');

    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(saves).toHaveLength(2);
    expect(saves[1]).toMatchObject({ version: 4, draft: draft('ab') });
  });

  it('when leaving during a save, sends what was typed meanwhile right after it', async () => {
    const { actor, saves, settle } = start();
    actor.send({ type: 'note.edit', draft: draft('a') });
    actor.send({ type: 'note.flush' });
    await settle();
    actor.send({ type: 'note.edit', draft: draft('ab') });
    actor.send({ type: 'note.flush' });
    saves[0].resolve(answer(4, 'a'));
    await settle();
    expect(saves).toHaveLength(2);
    expect(saves[1]).toMatchObject({ version: 4, draft: draft('ab') });
  });

  it('stops and reports a conflict when the server has a newer version (409), keeping what was typed', async () => {
    const { actor, saves, state, settle } = start();
    actor.send({ type: 'note.edit', draft: draft('mine') });
    actor.send({ type: 'note.flush' });
    await settle();
    saves[0].reject(stale());
    await settle();
    expect(state().value).toBe('conflict');
    expect(saveStatusOf(String(state().value), state().context)).toBe('conflict');

    actor.send({ type: 'note.edit', draft: draft('mine, more') });
    await vi.advanceTimersByTimeAsync(10 * AUTOSAVE_DELAY_MS);
    expect(saves).toHaveLength(1);
    expect(state().context.draft).toEqual(draft('mine, more'));
  });

  it('reloads the latest on request: the draft is dropped and the editor shows theirs', async () => {
    const { actor, saves, loads, replaced, state, settle } = start();
    actor.send({ type: 'note.edit', draft: draft('mine') });
    actor.send({ type: 'note.flush' });
    await settle();
    saves[0].reject(stale());
    await settle();

    actor.send({ type: 'conflict.reload' });
    await settle();
    loads[0].resolve(answer(7, 'theirs'));
    await settle();
    expect(state().value).toBe('clean');
    expect(state().context).toMatchObject({ version: 7, draft: null });
    expect(replaced).toEqual([answer(7, 'theirs')]);
  });

  it('keeps mine on request: saves the draft on top of the latest version', async () => {
    const { actor, saves, loads, state, settle } = start();
    actor.send({ type: 'note.edit', draft: draft('mine') });
    actor.send({ type: 'note.flush' });
    await settle();
    saves[0].reject(stale());
    await settle();

    actor.send({ type: 'conflict.keepMine' });
    await settle();
    loads[0].resolve(answer(7, 'theirs'));
    await settle();
    expect(saves).toHaveLength(2);
    expect(saves[1]).toMatchObject({ version: 7, draft: draft('mine') });
    saves[1].resolve(answer(8, 'mine'));
    await settle();
    expect(state().value).toBe('clean');
    expect(state().context.version).toBe(8);
  });

  it('shows a newer copy from elsewhere when there is nothing unsaved', () => {
    const { actor, replaced, state } = start();
    actor.send({ type: 'note.remote', note: answer(5, 'theirs') });
    expect(replaced).toEqual([answer(5, 'theirs')]);
    expect(state().context.version).toBe(5);
  });

  it('ignores a copy that is not newer than the one shown (its own save coming back)', () => {
    const { actor, replaced } = start();
    actor.send({ type: 'note.remote', note: answer(3) });
    actor.send({ type: 'note.remote', note: answer(2) });
    expect(replaced).toEqual([]);
  });

  it('never lets a newer copy clobber unsaved edits: it is a conflict instead', () => {
    const { actor, replaced, state } = start();
    actor.send({ type: 'note.edit', draft: draft('mine') });
    actor.send({ type: 'note.remote', note: answer(5, 'theirs') });
    expect(replaced).toEqual([]);
    expect(state().value).toBe('conflict');
    expect(state().context.draft).toEqual(draft('mine'));
  });

  it('ignores copies arriving while a save is on its way, and lets the answer decide', async () => {
    const { actor, saves, replaced, state, settle } = start();
    actor.send({ type: 'note.edit', draft: draft('mine') });
    actor.send({ type: 'note.flush' });
    await settle();
    actor.send({ type: 'note.remote', note: answer(4, 'mine') });
    saves[0].resolve(answer(4, 'mine'));
    await settle();
    expect(state().value).toBe('clean');
    expect(replaced).toEqual([]);
  });

  it('reports other failures and tries again on request or on the next edit', async () => {
    const { actor, saves, state, settle } = start();
    actor.send({ type: 'note.edit', draft: draft('a') });
    actor.send({ type: 'note.flush' });
    await settle();
    saves[0].reject(new ApiError(500, 'internal', 'internal error'));
    await settle();
    expect(state().value).toBe('failed');
    expect(state().context.error).toBe('internal error');

    actor.send({ type: 'save.retry' });
    await settle();
    expect(saves).toHaveLength(2);
    expect(saves[1]).toMatchObject({ version: 3, draft: draft('a') });
  });
});

describe('discarding a note', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('drops the draft and saves nothing more once the note is being deleted', async () => {
    const { actor, saves, state } = start();
    actor.send({ type: 'note.edit', draft: draft('a') });
    actor.send({ type: 'note.discard' });
    actor.send({ type: 'note.flush' });
    await vi.advanceTimersByTimeAsync(5 * AUTOSAVE_DELAY_MS);
    expect(saves).toHaveLength(0);
    expect(state().value).toBe('discarded');
    expect(state().context.draft).toBeNull();
  });
});
