import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CitedMarkdown } from './cited-markdown';

/** `NEEDL_FUZZ_RUNS` from the environment Vitest runs in (Node's, not typed for the app's code). */
const fuzzRuns = (): string | undefined =>
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.NEEDL_FUZZ_RUNS;

/** How many generated texts are rendered: a few hundred here, more by hand. */
const RUNS = Number(fuzzRuns() ?? 400);
const TIMEOUT = Math.max(10_000, RUNS * 5);

/** What quoted pages, feeds and language models put in text that is shown as markdown. */
const hostile = fc.constantFrom(
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<iframe src="https://example.com"></iframe>',
  '<svg onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<style>*{display:none}</style>',
  '<form action="https://example.com"><input name=p></form>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click]( javascript:alert(1))',
  '[click](data:text/html,<script>alert(1)</script>)',
  '[click](vbscript:msgbox)',
  '[click](//example.com/x)',
  '[ref]\n\n[ref]: javascript:alert(1)',
  '![pixel](https://example.com/p.png)',
  '![x](javascript:alert(1))',
  '<https://example.com/auto>',
  '<javascript:alert(1)>',
  '&#106;avascript:alert(1)',
  '[safe](https://example.com/a?b=1)',
  '[1]',
  '[1, 2]',
  '[1-3]',
  '[[4]]',
  '[1](https://example.com)',
  '`[2]`',
  '```\n<script>x</script>\n```',
  '| a | b |\n|:--|--:|\n| [1] | <b>x</b> |',
  '> quote [2]',
  '- item [3]\n- [x] done',
  '**bold** _em_ ~~gone~~',
  '\n\n',
  '# Heading',
);
const text = fc.array(fc.oneof({ arbitrary: hostile, weight: 3 }, fc.string({ maxLength: 10 })), { maxLength: 12 }).map((parts) => parts.join(' '));

/** Elements that run code, load something or take input: never rendered from text. */
const FORBIDDEN = new Set(['script', 'iframe', 'img', 'svg', 'style', 'form', 'object', 'embed', 'link', 'meta', 'base', 'video', 'audio', 'source', 'textarea', 'button', 'frame', 'frameset', 'math']);

function rendered(markdown: string): HTMLElement {
  const html = renderToStaticMarkup(<CitedMarkdown className="answer" text={markdown} citation={(n) => <sup data-citation={n}>{n}</sup>} />);
  const host = document.createElement('div');
  host.innerHTML = html;
  return host;
}

describe('cited markdown, under generated hostile text', () => {
  it('renders no element or attribute that runs code or loads anything, and links only to http(s)', () => {
    fc.assert(
      fc.property(text, (markdown) => {
        const host = rendered(markdown);
        for (const element of host.querySelectorAll('*')) {
          const tag = element.tagName.toLowerCase();
          if (tag === 'input') {
            // A task list's box (`- [x] done`), shown and never editable.
            expect(element.getAttribute('type')).toBe('checkbox');
            expect(element.hasAttribute('disabled')).toBe(true);
          }
          expect(FORBIDDEN.has(tag), `<${tag}> from ${JSON.stringify(markdown)}`).toBe(false);
          for (const attribute of element.attributes) {
            const name = attribute.name.toLowerCase();
            expect(name.startsWith('on'), `${name} on <${tag}>`).toBe(false);
            expect(['src', 'srcset', 'action', 'formaction', 'xlink:href'].includes(name), `${name} on <${tag}>`).toBe(false);
            if (name === 'style') expect(attribute.value, `style on <${tag}>`).toMatch(/^text-align:\s*(left|right|center)$/);
          }
          if (tag === 'a') {
            expect(element.getAttribute('href'), `a link from ${JSON.stringify(markdown)}`).toMatch(/^https?:\/\//i);
            expect(element.getAttribute('rel')).toContain('noopener');
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it('shows each citation mark outside code as a citation, and none inside code', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 1, maxLength: 6 }), fc.string({ maxLength: 20 }), (numbers, words) => {
        const plain = words.replace(/[[\]`\\<>*_~#|!()&-]/g, '').trim();
        const markdown = `${plain} ${numbers.map((n) => `[${n}]`).join(' ')} \`[${numbers[0]}]\``;
        const cited = [...rendered(markdown).querySelectorAll('[data-citation]')].map((e) => Number(e.getAttribute('data-citation')));
        expect(cited).toEqual(numbers);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});
