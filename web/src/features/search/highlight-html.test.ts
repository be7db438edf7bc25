import { decodeEntities, highlightText, parseHighlight } from './highlight-html';

describe('parseHighlight', () => {
  it('marks the words inside <em> and keeps the rest as text', () => {
    expect(parseHighlight('New <em>tariffs</em> on <em>steel</em> imports')).toEqual([
      { text: 'New ', em: false },
      { text: 'tariffs', em: true },
      { text: ' on ', em: false },
      { text: 'steel', em: true },
      { text: ' imports', em: false },
    ]);
  });

  it('decodes character references, so escaped markup shows as the characters it is', () => {
    expect(parseHighlight('AT&amp;T &lt;b&gt; &#8220;q&#x201D; <em>R&amp;D</em>')).toEqual([
      { text: 'AT&T <b> “q” ', em: false },
      { text: 'R&D', em: true },
    ]);
  });

  it('drops a script and its contents, and tags that are not <em>, keeping no attribute anywhere', () => {
    const runs = parseHighlight('a<script>alert(1)</script>b<img src=x onerror="alert(2)"><em onclick="x()">c</em><b>d</b>');
    expect(runs).toEqual([
      { text: 'ab', em: false },
      { text: 'c', em: true },
      { text: 'd', em: false },
    ]);
    expect(JSON.stringify(runs)).not.toMatch(/alert|onerror|onclick|src=/);
  });

  it('survives an unclosed tag, a stray < and a comment', () => {
    expect(parseHighlight('1 < 2 <!-- note --><em>yes')).toEqual([
      { text: '1 < 2 ', em: false },
      { text: 'yes', em: true },
    ]);
    expect(parseHighlight('end <img src=x onerror=alert(1)')).toEqual([{ text: 'end ', em: false }]);
    expect(parseHighlight('<SCRIPT>bad()</SCRIPT><EM>ok</EM>')).toEqual([{ text: 'ok', em: true }]);
    expect(parseHighlight('')).toEqual([]);
  });

  it('unmarks after a stray closing tag without going below zero', () => {
    expect(parseHighlight('a</em>b<em>c</em>d')).toEqual([
      { text: 'ab', em: false },
      { text: 'c', em: true },
      { text: 'd', em: false },
    ]);
  });
});

describe('decodeEntities', () => {
  it('leaves unknown references as written and replaces invalid code points', () => {
    expect(decodeEntities('&bogus; &#0; &#xD800;')).toBe('&bogus; \ufffd \ufffd');
  });
});

describe('highlightText', () => {
  it('gives the text without the marks', () => {
    expect(highlightText('Exports <em>led</em> the growth')).toBe('Exports led the growth');
  });
});
