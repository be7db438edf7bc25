/**
 * Citation marks in markdown (`[1]`, `[1, 2]`, `[1-3]`): found and written as `#cite-n` links,
 * which a renderer draws as citation buttons. Shared by every feature that shows cited text
 * (AskNeedl answers, research reports).
 */

/** The link target a citation mark becomes inside the markdown; never a real address. */
export const CITATION_HREF_PREFIX = '#cite-';

/** `[1]`, `[1, 2]`, `[1-3]`, `[[1]]`; not a markdown link (`[1](…)`) nor a reference (`[1]:`). */
const MARK = /\[\[?(\d+(?:\s*[,\u2013-]\s*\d+)*)\]\]?(?![(:])/g;
const WIDEST_RANGE = 20;

/** Returns the numbers a mark's body names (`1, 3-4` → 1, 3, 4). */
export function citationNumbers(body: string): number[] {
  const out: number[] = [];
  for (const part of body.split(',')) {
    const [a, b] = part.split(/[\u2013-]/).map((n) => Number(n.trim()));
    if (b === undefined) out.push(a);
    else if (b >= a && b - a <= WIDEST_RANGE) for (let n = a; n <= b; n += 1) out.push(n);
  }
  return out.filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * Returns the markdown with each citation mark written as links to `#cite-n`, which the
 * renderer draws as citation buttons. Code (fenced or inline) is left as it is.
 */
export function linkCitations(markdown: string): string {
  return markdown
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(MARK, (_whole, body: string) =>
            citationNumbers(body)
              .map((n) => `[${n}](${CITATION_HREF_PREFIX}${n})`)
              .join(''),
          ),
    )
    .join('');
}

/** Returns the citation number a link target names, or null for any other link. */
export function citationNumberOf(href: string | undefined): number | null {
  if (!href?.startsWith(CITATION_HREF_PREFIX)) return null;
  const n = Number(href.slice(CITATION_HREF_PREFIX.length));
  return Number.isInteger(n) && n > 0 ? n : null;
}
