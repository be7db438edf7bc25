/**
 * Note bodies as text and as documents: the readable text of a Tiptap document and its preview
 * (as the server makes them, so a saved note's list entry can be shown before the list is
 * fetched again), and the documents the app writes itself (an empty note, a card's snippet).
 */
import type { JSONContent } from '@tiptap/core';

/** How many characters (code points) a preview or a snippet's quote keeps before "...". */
export const PREVIEW_CHARS = 1000;

/** Node types that sit inside a line of text rather than making a block of their own. */
const INLINE_NODES = new Set(['link', 'autolink', 'mention', 'hashtag', 'emoji']);

/**
 * Returns the readable text of a document: its text in order, one block (paragraph, heading,
 * list item, quote) per line, blank lines dropped.
 */
export function plainText(doc: JSONContent | null | undefined): string {
  let out = '';
  const walk = (node: JSONContent) => {
    if (typeof node.text === 'string') out += node.text;
    if (node.type === 'hardBreak') out += '\n';
    if (Array.isArray(node.content)) {
      node.content.forEach(walk);
      if (!INLINE_NODES.has(node.type ?? '')) out += '\n';
    }
  };
  if (doc) walk(doc);
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

/** Returns `text` cut at 1000 characters, with "..." when something was cut. */
export function cutPreview(text: string, max = PREVIEW_CHARS): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : text;
}

/** A new note's body: one empty paragraph. */
export const emptyDocument = (): JSONContent => ({ type: 'doc', content: [{ type: 'paragraph' }] });

export interface SnippetInput {
  title: string;
  /** Where the original opens: its own address, or its preview in the app. */
  link: string;
  /** The summary or highlight the card showed; quoted, cut at 1000 characters. */
  quote: string | null;
}

const paragraph = (text: string): JSONContent => ({ type: 'paragraph', content: [{ type: 'text', text }] });

/**
 * Returns the document a card's Add to Notes keeps: its summary or highlight as a quote
 * (paragraph by paragraph, cut at 1000 characters with "..."), then a line linking to the
 * original under its title.
 */
export function snippetDocument({ title, link, quote }: SnippetInput): JSONContent {
  const content: JSONContent[] = [];
  const text = quote?.trim();
  if (text) {
    const lines = cutPreview(text)
      .split(/\n+/)
      .map((line) => line.trim())
      .filter(Boolean);
    content.push({ type: 'blockquote', content: lines.map(paragraph) });
  }
  content.push({
    type: 'paragraph',
    content: [
      { type: 'text', text: 'Source: ' },
      { type: 'text', text: title || link, marks: [{ type: 'link', attrs: { href: link } }] },
    ],
  });
  return { type: 'doc', content };
}
