/**
 * Search highlights arrive as HTML whose only markup is `<em>` around the matched words. They
 * are never given to the DOM as HTML: this reads the string into plain-text runs, each marked
 * or not, which React renders as text and `<em>` elements. Any other tag is dropped (its text
 * kept), and the contents of `script` and `style` are dropped whole, so a server that forgot to
 * escape a document's text cannot run code or load anything in the page.
 */

export interface HighlightRun {
  text: string;
  /** Whether the run was inside `<em>`: a matched word. */
  em: boolean;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** Returns the text with character references replaced; unknown or invalid ones stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      const valid = Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** A tag, a comment, or a stray `<` that starts no tag (kept as text). */
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<\/?([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>?/g;
const DROPPED_WITH_CONTENT = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'textarea', 'title']);

/** Returns the runs of a highlight's HTML: text, with `em` where the server marked a match. */
export function parseHighlight(html: string): HighlightRun[] {
  const runs: HighlightRun[] = [];
  let depth = 0;
  let skipUntil: string | null = null;
  let last = 0;

  const push = (raw: string) => {
    if (skipUntil || !raw) return;
    const text = decodeEntities(raw);
    const em = depth > 0;
    const previous = runs[runs.length - 1];
    if (previous && previous.em === em) previous.text += text;
    else runs.push({ text, em });
  };

  for (const match of html.matchAll(TOKEN)) {
    push(html.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[1]?.toLowerCase();
    if (!name) continue; // a comment
    const closing = match[0][1] === '/';
    if (skipUntil) {
      if (closing && name === skipUntil) skipUntil = null;
      continue;
    }
    if (name === 'em') depth = closing ? Math.max(0, depth - 1) : depth + 1;
    else if (!closing && DROPPED_WITH_CONTENT.has(name)) skipUntil = name;
  }
  push(html.slice(last));
  return runs.filter((run) => run.text !== '');
}

/** Returns a highlight's text without its marks (for labels and the preview's passage search). */
export const highlightText = (html: string): string =>
  parseHighlight(html)
    .map((run) => run.text)
    .join('');
