/**
 * Toasts: success lasts 2000 ms, error and blank 4000 ms, loading until dismissed; at most 20
 * are shown, the oldest giving way. Each timed toast runs its own timer actor, stopped when the
 * toast goes, so the machine can be driven with fake timers in tests.
 */
import { produce } from 'immer';
import { assign, enqueueActions, fromCallback, setup, stopChild, type ActorRefFrom } from 'xstate';

export type ToastType = 'blank' | 'error' | 'success' | 'loading' | 'custom';

export interface Toast {
  id: string;
  type: ToastType;
  message: string;
  /** How long the toast stays, in ms; null stays until dismissed. */
  duration: number | null;
}

export const TOAST_DURATIONS: Record<ToastType, number | null> = {
  success: 2000,
  error: 4000,
  blank: 4000,
  custom: 4000,
  loading: null,
};

export const MAX_VISIBLE_TOASTS = 20;

export type ToastEvent =
  | { type: 'toast.show'; toastType: ToastType; message: string; id?: string; duration?: number | null }
  | { type: 'toast.dismiss'; id: string }
  | { type: 'toast.clear' };

const toastTimer = fromCallback<ToastEvent, { id: string; duration: number }>(({ input, sendBack }) => {
  const handle = setTimeout(() => sendBack({ type: 'toast.dismiss', id: input.id }), input.duration);
  return () => clearTimeout(handle);
});

const timerId = (toastId: string) => `timer-${toastId}`;
let sequence = 0;
const nextId = () => `toast-${++sequence}`;

export const toastMachine = setup({
  types: {} as { context: { toasts: Toast[] }; events: ToastEvent },
  actors: { toastTimer },
}).createMachine({
  id: 'toasts',
  context: { toasts: [] },
  on: {
    'toast.show': {
      actions: enqueueActions(({ event, context, enqueue }) => {
        const id = event.id ?? nextId();
        const duration = event.duration === undefined ? TOAST_DURATIONS[event.toastType] : event.duration;
        // Showing a toast again under its id (loading → success) replaces it and its timer.
        const others = context.toasts.filter((t) => t.id !== id);
        const dropped = others.slice(0, Math.max(0, others.length + 1 - MAX_VISIBLE_TOASTS));
        [id, ...dropped.map((t) => t.id)].forEach((gone) => enqueue.stopChild(timerId(gone)));
        enqueue.assign({
          toasts: produce(context.toasts, (draft) => {
            const existing = draft.findIndex((t) => t.id === id);
            if (existing >= 0) draft.splice(existing, 1);
            draft.push({ id, type: event.toastType, message: event.message, duration });
            if (draft.length > MAX_VISIBLE_TOASTS) draft.splice(0, draft.length - MAX_VISIBLE_TOASTS);
          }),
        });
        if (duration !== null) enqueue.spawnChild('toastTimer', { id: timerId(id), input: { id, duration } });
      }),
    },
    'toast.dismiss': {
      actions: [
        stopChild(({ event }) => timerId(event.id)),
        assign({ toasts: ({ context, event }) => context.toasts.filter((t) => t.id !== event.id) }),
      ],
    },
    'toast.clear': {
      actions: enqueueActions(({ context, enqueue }) => {
        context.toasts.forEach((t) => enqueue.stopChild(timerId(t.id)));
        enqueue.assign({ toasts: [] });
      }),
    },
  },
});

export type ToastActorRef = ActorRefFrom<typeof toastMachine>;
