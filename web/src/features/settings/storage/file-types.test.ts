import { isOfType } from './file-types';

describe('which files are of a type', () => {
  it('matches the same mime type, whatever its case and parameters', () => {
    expect(isOfType('application/pdf', 'application/pdf')).toBe(true);
    expect(isOfType('Text/Plain; charset=utf-8', 'text/plain')).toBe(true);
  });

  it('matches two types with one name', () => {
    expect(isOfType('application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(true);
  });

  it('keeps other types and files without a type out', () => {
    expect(isOfType('text/plain', 'application/pdf')).toBe(false);
    expect(isOfType('application/x-unknown', 'application/x-other')).toBe(false);
    expect(isOfType(undefined, 'application/pdf')).toBe(false);
  });
});
