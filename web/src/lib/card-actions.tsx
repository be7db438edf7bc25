/**
 * Actions other features add to document cards. The documents feature draws the cards but may
 * not import other features (Add to Notes belongs to notebooks), so the app hands the extra
 * actions down through this context and the cards draw whatever they are given.
 */
import { createContext, useContext, type ComponentType } from 'react';

/** What an added action knows of the card's document. */
export interface CardActionTarget {
  deeplink: string;
  source: string;
  title: string;
  /** The original's own address, when it has one. */
  link: string | null;
  /** The text the card shows (its summary or highlight), if any. */
  excerpt: string | null;
  /** Where the document opens in the app: its preview, with the card's keys. */
  previewPath: string;
  /** Who wrote or sent it, when the source says (the card's contact). */
  author?: string | null;
}

export type CardAction = ComponentType<{ target: CardActionTarget }>;

const CardActionsContext = createContext<readonly CardAction[]>([]);

/** Provides the actions every document card shows after its own. */
export const CardActionsProvider = CardActionsContext.Provider;

/** Returns the actions the app added to document cards (none outside the provider). */
export const useCardActions = (): readonly CardAction[] => useContext(CardActionsContext);
