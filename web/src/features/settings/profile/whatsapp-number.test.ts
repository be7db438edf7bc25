import { isValidWhatsappNumber } from './whatsapp-number';

describe('the WhatsApp number rule', () => {
  it.each(['+44 7700 900123', '+91-98765-43210', '+1 (415) 555.0132', '  +4915112345678 ', '+12345678', '+123456789012345'])(
    'keeps %s, an international number',
    (number) => expect(isValidWhatsappNumber(number)).toBe(true),
  );

  it('lets a blank number through: it clears the number', () => {
    expect(isValidWhatsappNumber('')).toBe(true);
    expect(isValidWhatsappNumber('   ')).toBe(true);
  });

  it.each([
    ['07700 900123', 'no country code'],
    ['+44 7700 9001x3', 'a letter'],
    ['+0 7700 900123', 'a first digit of 0'],
    ['+1234567', 'seven digits'],
    ['+1234567890123456', 'sixteen digits'],
    ['+', 'no digits'],
    ['+44 7700/900123', 'a slash'],
    ['++44 7700 900123', 'two plus signs'],
    ['+44 ٧٧٠٠ 900123', 'digits of another script'],
  ])('refuses %s (%s)', (number) => expect(isValidWhatsappNumber(number)).toBe(false));
});
