/**
 * What other features show on document cards besides actions (src/lib/card-actions): a details
 * line under the card's text (its tags), and where the card is shown (`CardScope`), which added
 * actions may need: a channel's shared tags, the feed a tagging is recorded with, and whether the
 * card is a public web result (bookmark and tags are hidden for those). The app provides the
 * components; cards draw whatever they are given.
 */
import { createContext, useContext, type ComponentType } from 'react';
import type { CardActionTarget } from './card-actions';

export type CardDetail = ComponentType<{ target: CardActionTarget }>;

const CardDetailsContext = createContext<readonly CardDetail[]>([]);

/** Provides the details every document card shows under its text. */
export const CardDetailsProvider = CardDetailsContext.Provider;

/** Returns the details the app added to document cards (none outside the provider). */
export const useCardDetails = (): readonly CardDetail[] => useContext(CardDetailsContext);

/** Where a card is shown. */
export interface CardScope {
  /** The channel the card is read in: its shared tags show, and tagging sets them. */
  channelId?: string | null;
  /** The feed the card is read in, recorded with a tagging. */
  feedId?: string | null;
  /** A result of a Needl Web search: not the user's data, so no bookmark, tags or read mark. */
  webResult?: boolean;
  /** The card's comment thread starts open (an address that links to it, as a notification's does). */
  openComments?: boolean;
  /** The comment the address links to: highlighted and scrolled to once the thread shows it. */
  linkedCommentId?: string | null;
}

const CardScopeContext = createContext<CardScope>({});

export const CardScopeProvider = CardScopeContext.Provider;

/** Returns where the card being drawn is shown (nothing special outside a provider). */
export const useCardScope = (): CardScope => useContext(CardScopeContext);
