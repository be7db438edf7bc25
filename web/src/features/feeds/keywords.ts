/**
 * Keyword expressions checked in the browser, by the same rules as the server's parser
 * (domain/src/keywords.rs, operators in any case), so the builder says what is wrong as the user
 * types. The server stays the judge: it checks again on save.
 */

export const KEYWORD_MESSAGES = {
  parentheses: 'Invalid keyword. Paranthesis are imbalanced.',
  operators: 'Invalid keyword. Unused Boolean Operators at ends.',
  quotes: 'Invalid keyword. Quotes are either imbalanced or not at ends.',
} as const;

type Token = { kind: 'word' | 'phrase'; text: string } | { kind: 'and' | 'or' | 'not' | 'open' | 'close' };

/** Opening quote characters and the closing character each expects. */
const QUOTES: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['\u201c', '\u201d'],
  ['\u2018', '\u2019'],
  ['\u00ab', '\u00bb'],
  ['\u201e', '\u201c'],
];

const closingQuote = (c: string) => QUOTES.find(([open]) => open === c)?.[1];
const isQuote = (c: string) => QUOTES.some(([open, close]) => open === c || close === c);
const isSpace = (c: string) => /\s/.test(c);

class KeywordError extends Error {}

function tokenize(input: string): Token[] {
  const chars = Array.from(input);
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i];
    if (isSpace(c)) {
      i += 1;
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c === '(' ? 'open' : 'close' });
      i += 1;
    } else if (closingQuote(c) !== undefined) {
      const close = closingQuote(c);
      i += 1;
      let phrase = '';
      for (;;) {
        if (i >= chars.length) throw new KeywordError(KEYWORD_MESSAGES.quotes);
        const ch = chars[i];
        i += 1;
        if (ch === close) break;
        phrase += ch;
      }
      // The closing quote must end the word: `"rate cut"s` is refused.
      const next = chars[i];
      if (next !== undefined && !isSpace(next) && next !== '(' && next !== ')') throw new KeywordError(KEYWORD_MESSAGES.quotes);
      const words = phrase.split(/\s+/).filter(Boolean).join(' ');
      if (words) tokens.push({ kind: 'phrase', text: words });
    } else {
      let word = '';
      while (i < chars.length) {
        const n = chars[i];
        if (isSpace(n) || n === '(' || n === ')') break;
        // An apostrophe inside a word (`o'neil`) is part of it; any other quote is not at an end.
        if (isQuote(n) && n !== "'" && n !== '\u2019') throw new KeywordError(KEYWORD_MESSAGES.quotes);
        word += n;
        i += 1;
      }
      const spelled = word.toUpperCase();
      if (spelled === 'AND' || spelled === '&&') tokens.push({ kind: 'and' });
      else if (spelled === 'OR' || spelled === '||') tokens.push({ kind: 'or' });
      else if (spelled === 'NOT') tokens.push({ kind: 'not' });
      else tokens.push({ kind: 'word', text: word });
    }
  }
  return tokens;
}

/** A recursive-descent check of the grammar: or := and (OR and)*; and := unary (AND? unary)*. */
class Checker {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek() {
    return this.tokens[this.at]?.kind;
  }

  run() {
    this.or();
    if (this.at !== this.tokens.length) throw new KeywordError(KEYWORD_MESSAGES.operators);
  }

  private or() {
    this.and();
    while (this.peek() === 'or') {
      this.at += 1;
      this.and();
    }
  }

  private and() {
    this.unary();
    for (;;) {
      const next = this.peek();
      if (next === 'and') {
        this.at += 1;
        this.unary();
      } else if (next === 'word' || next === 'phrase' || next === 'not' || next === 'open') {
        this.unary();
      } else {
        return;
      }
    }
  }

  private unary() {
    const kind = this.peek();
    if (kind === 'not') {
      this.at += 1;
      this.unary();
    } else if (kind === 'word' || kind === 'phrase') {
      this.at += 1;
    } else if (kind === 'open') {
      this.at += 1;
      // `()` holds nothing to search for: not a keyword at all.
      if (this.peek() === 'close') throw new KeywordError('');
      this.or();
      if (this.peek() !== 'close') throw new KeywordError(KEYWORD_MESSAGES.operators);
      this.at += 1;
    } else {
      // An operator, or the end, where a word belongs.
      throw new KeywordError(KEYWORD_MESSAGES.operators);
    }
  }
}

export type KeywordCheck = { valid: true; keyword: string } | { valid: false; message: string };

/**
 * Returns whether `input` is a keyword expression the server accepts, with the spec's message
 * when it is not. Blank input (or `()`) is no keyword: invalid with an empty message.
 */
export function checkKeyword(input: string): KeywordCheck {
  const keyword = input.trim();
  try {
    const tokens = tokenize(keyword);
    let depth = 0;
    for (const token of tokens) {
      if (token.kind === 'open') depth += 1;
      if (token.kind === 'close') {
        depth -= 1;
        if (depth < 0) throw new KeywordError(KEYWORD_MESSAGES.parentheses);
      }
    }
    if (depth !== 0) throw new KeywordError(KEYWORD_MESSAGES.parentheses);
    if (tokens.length === 0) return { valid: false, message: '' };
    new Checker(tokens).run();
    return { valid: true, keyword };
  } catch (error) {
    if (error instanceof KeywordError) return { valid: false, message: error.message };
    throw error;
  }
}

/** Returns the key two keywords share when they are the same keyword (the server compares so). */
export const keywordKey = (keyword: string) => keyword.trim().toLowerCase();
