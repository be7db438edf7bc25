/** The app's one conversation with the assistant, shared by the overlay, the full page and history. */
import { createActorContext } from '@xstate/react';
import { chatMachine } from './chat.machine';

export const AskNeedlChat = createActorContext(chatMachine);
