/** Source keys of chat apps, as the server knows them: cards from them cannot be commented upon. */
const CHAT_SOURCES = new Set(['chats', 'whatsapp', 'telegram', 'slack', 'teams', 'discord']);

/** Returns whether a card of this source (or category) came from a chat. */
export const isChatSource = (source: string): boolean => CHAT_SOURCES.has(source);
