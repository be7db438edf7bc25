import { checkKeyword, KEYWORD_MESSAGES } from './keywords';

const messageOf = (input: string) => {
  const result = checkKeyword(input);
  return result.valid ? null : result.message;
};

describe('keyword expressions in the builder', () => {
  it.each([
    'rate cut',
    '"rate cut" OR inflation',
    'rate and cut or hike',
    'inflation not food',
    '(a OR b) AND c',
    'NOT (a OR b)',
    '((a))',
    "o'neil",
    '\u201crepo rate\u201d OR crr',
    "'rate cut'",
    '\u00abrate cut\u00bb',
    'a || b && c',
  ])('accepts %s', (input) => {
    expect(checkKeyword(input)).toEqual({ valid: true, keyword: input });
  });

  it('trims what it accepts', () => {
    expect(checkKeyword('  crypto  ')).toEqual({ valid: true, keyword: 'crypto' });
  });

  it.each(['(a OR b', 'a OR b)', ')a(', '((a) AND b'])('refuses imbalanced parentheses in %s', (input) => {
    expect(messageOf(input)).toBe(KEYWORD_MESSAGES.parentheses);
  });

  it.each(['AND a', 'a OR', 'a NOT', '(a AND) b', 'a AND OR b', 'OR', 'a and'])('refuses operators at the ends in %s', (input) => {
    expect(messageOf(input)).toBe(KEYWORD_MESSAGES.operators);
  });

  it.each(['"rate cut', 'rate"cut"', '"rate cut"s', '\u201crate cut"', "'open"])('refuses bad quotes in %s', (input) => {
    expect(messageOf(input)).toBe(KEYWORD_MESSAGES.quotes);
  });

  it('has the spec’s three messages word for word', () => {
    expect(Object.values(KEYWORD_MESSAGES)).toEqual([
      'Invalid keyword. Paranthesis are imbalanced.',
      'Invalid keyword. Unused Boolean Operators at ends.',
      'Invalid keyword. Quotes are either imbalanced or not at ends.',
    ]);
  });

  it('treats blank input as no keyword, without a message', () => {
    expect(checkKeyword('   ')).toEqual({ valid: false, message: '' });
    expect(checkKeyword('()')).toEqual({ valid: false, message: '' });
  });
});
