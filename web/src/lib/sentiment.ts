/**
 * A document card's tone. The server reads it from the card's title and summary with a finance
 * lexicon and sends it on every card (lists, feeds, search); cards show it only when the user's
 * `doc_sentiment_analysis` flag is on.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { featureQueries } from './queries/feature-queries';

export const sentimentSchema = z.object({
  label: z.enum(['positive', 'negative', 'neutral']),
  /** From -1 (most negative) to 1 (most positive). */
  score: z.number(),
});

export type Sentiment = z.infer<typeof sentimentSchema>;

/**
 * The card field. Older servers leave it out, and a malformed one (an unknown label) is dropped
 * rather than failing the whole list.
 */
export const sentimentField = sentimentSchema.nullish().catch(null);

/** Returns whether cards show their tone (the `doc_sentiment_analysis` flag; off until known). */
export const useSentimentShown = (): boolean => useQuery(featureQueries.config()).data?.features.doc_sentiment_analysis === true;
