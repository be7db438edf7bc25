import { createActor } from 'xstate';
import { MAX_VISIBLE_TOASTS, toastMachine } from './toast.machine';

const start = () => createActor(toastMachine).start();
const messages = (actor: ReturnType<typeof start>) => actor.getSnapshot().context.toasts.map((t) => t.message);

describe('toast machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('removes a success toast after 2000 ms', () => {
    const toasts = start();
    toasts.send({ type: 'toast.show', toastType: 'success', message: 'Saved' });
    vi.advanceTimersByTime(1999);
    expect(messages(toasts)).toEqual(['Saved']);
    vi.advanceTimersByTime(1);
    expect(messages(toasts)).toEqual([]);
  });

  it('keeps error and blank toasts for 4000 ms', () => {
    const toasts = start();
    toasts.send({ type: 'toast.show', toastType: 'error', message: 'Failed' });
    toasts.send({ type: 'toast.show', toastType: 'blank', message: 'Note' });
    vi.advanceTimersByTime(3999);
    expect(messages(toasts)).toEqual(['Failed', 'Note']);
    vi.advanceTimersByTime(1);
    expect(messages(toasts)).toEqual([]);
  });

  it('keeps a loading toast until it is dismissed', () => {
    const toasts = start();
    toasts.send({ type: 'toast.show', toastType: 'loading', message: 'Working', id: 'job' });
    vi.advanceTimersByTime(60_000);
    expect(messages(toasts)).toEqual(['Working']);
    toasts.send({ type: 'toast.dismiss', id: 'job' });
    expect(messages(toasts)).toEqual([]);
  });

  it('replaces a loading toast shown again under its id, with the new timer', () => {
    const toasts = start();
    toasts.send({ type: 'toast.show', toastType: 'loading', message: 'Saving', id: 'job' });
    toasts.send({ type: 'toast.show', toastType: 'success', message: 'Saved', id: 'job' });
    expect(toasts.getSnapshot().context.toasts).toEqual([{ id: 'job', type: 'success', message: 'Saved', duration: 2000 }]);
    vi.advanceTimersByTime(2000);
    expect(messages(toasts)).toEqual([]);
  });

  it('shows at most 20 toasts, dropping the oldest', () => {
    const toasts = start();
    for (let i = 1; i <= 25; i += 1) toasts.send({ type: 'toast.show', toastType: 'loading', message: `t${i}` });
    expect(messages(toasts)).toHaveLength(MAX_VISIBLE_TOASTS);
    expect(messages(toasts)[0]).toBe('t6');
    expect(messages(toasts).at(-1)).toBe('t25');
  });

  it('stops the timer of a dismissed toast so it cannot remove a later one', () => {
    const toasts = start();
    toasts.send({ type: 'toast.show', toastType: 'success', message: 'first', id: 'a' });
    toasts.send({ type: 'toast.dismiss', id: 'a' });
    expect(toasts.getSnapshot().children['timer-a']).toBeUndefined();
  });
});
