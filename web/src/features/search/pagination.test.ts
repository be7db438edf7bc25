import { lastPage, pagerText, paginationText, startFrom, stepHighlight } from './pagination';

describe('result pages', () => {
  it('says "x to y of N results"', () => {
    expect(paginationText(1, 10, 42)).toBe('1 to 10 of 42 results');
    expect(paginationText(5, 2, 42)).toBe('41 to 42 of 42 results');
    expect(paginationText(1, 1, 1)).toBe('1 to 1 of 1 results');
    expect(paginationText(2, 0, 5)).toBeNull();
  });

  it('starts each page ten results further on', () => {
    expect(startFrom(1)).toBe(0);
    expect(startFrom(3)).toBe(20);
    expect(startFrom(0)).toBe(0);
  });

  it('knows the last page', () => {
    expect(lastPage(0)).toBe(1);
    expect(lastPage(10)).toBe(1);
    expect(lastPage(11)).toBe(2);
    expect(lastPage(42)).toBe(5);
  });
});

describe('the paragraph pager', () => {
  it('steps between highlights without going past either end', () => {
    expect(stepHighlight(0, 1, 3)).toBe(1);
    expect(stepHighlight(2, 1, 3)).toBe(2);
    expect(stepHighlight(0, -1, 3)).toBe(0);
    expect(stepHighlight(1, -1, 3)).toBe(0);
    expect(stepHighlight(0, 1, 0)).toBe(0);
  });

  it('counts from one', () => {
    expect(pagerText(0, 3)).toBe('1 of 3');
    expect(pagerText(2, 3)).toBe('3 of 3');
  });
});
