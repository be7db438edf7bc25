/**
 * Search-mode highlights arrive as HTML whose only markup is `<em>` around matched words. They
 * never reach the DOM as HTML: this reads them into text runs, marked or not. Other tags are
 * dropped (their text kept) and `script`/`style` contents dropped whole.
 */
import type { SnippetRun } from './citations';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', hellip: '…' };

const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });

export function highlightRuns(html: string): SnippetRun[] {
  const cleaned = html.replace(/<(script|style|template|iframe|noscript)\b[\s\S]*?(<\/\1\s*>|$)/gi, '');
  const runs: SnippetRun[] = [];
  let depth = 0;
  let last = 0;
  const push = (raw: string) => {
    if (!raw) return;
    const text = decode(raw);
    const mark = depth > 0;
    const previous = runs[runs.length - 1];
    if (previous && previous.mark === mark) previous.text += text;
    else runs.push({ text, mark });
  };
  for (const match of cleaned.matchAll(/<!--[\s\S]*?(?:-->|$)|<\/?([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>?/g)) {
    push(cleaned.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[1]?.toLowerCase() === 'em') depth = match[0][1] === '/' ? Math.max(0, depth - 1) : depth + 1;
  }
  push(cleaned.slice(last));
  return runs;
}
