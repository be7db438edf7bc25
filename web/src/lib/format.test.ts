import {
  asSentence,
  formatCount,
  formatDate,
  formatDuration,
  formatFileSize,
  formatPagination,
  formatRelative,
  megabytes,
  shortenFileName,
  parseDateShorthand,
  titleFromSourceKey,
} from './format';

describe('formatCount', () => {
  it('leaves counts under a thousand as they are', () => {
    expect(formatCount(999)).toBe('999');
  });
  it('shows a thousand or more as Nk with at most one decimal', () => {
    expect(formatCount(1000)).toBe('1k');
    expect(formatCount(1550)).toBe('1.5k');
    expect(formatCount(23_999)).toBe('23.9k');
    expect(formatCount(15_300)).toBe('15.3k');
    expect(formatCount(2_000)).toBe('2k');
  });
});

describe('formatDuration', () => {
  it('shows seconds under a minute', () => {
    expect(formatDuration(45)).toBe('45 secs');
    expect(formatDuration(1)).toBe('1 sec');
  });
  it('shows days, hours and mins from a minute on, leaving out zero parts', () => {
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(3_720)).toBe('1 hour 2 mins');
    expect(formatDuration(2 * 86_400 + 3 * 3_600 + 5 * 60 + 9)).toBe('2 days 3 hours 5 mins');
  });
});

describe('dates', () => {
  it('formats a date as DD-MM-YYYY', () => {
    expect(formatDate(new Date(2024, 0, 5))).toBe('05-01-2024');
  });
  it('describes recent moments relative to now and old ones by date', () => {
    const now = new Date(2024, 5, 10, 12, 0, 0);
    expect(formatRelative(new Date(2024, 5, 10, 11, 59, 30), now)).toBe('just now');
    expect(formatRelative(new Date(2024, 5, 10, 11, 55), now)).toBe('5 mins ago');
    expect(formatRelative(new Date(2024, 5, 10, 9, 0), now)).toBe('3 hours ago');
    expect(formatRelative(new Date(2024, 5, 9, 12, 0), now)).toBe('yesterday');
    expect(formatRelative(new Date(2024, 5, 6, 12, 0), now)).toBe('4 days ago');
    expect(formatRelative(new Date(2024, 1, 1), now)).toBe('01-02-2024');
  });
});

describe('formatFileSize', () => {
  it('uses binary units with at most two decimals', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(5 * 1024 ** 3)).toBe('5 GB');
  });
  it('stops at YB however large the number', () => {
    expect(formatFileSize(2 * 1024 ** 8)).toBe('2 YB');
    expect(formatFileSize(1024 ** 10)).toBe('1048576 YB');
  });
});

describe('shortenFileName', () => {
  it('keeps a name of ten characters or fewer whole', () => {
    expect(shortenFileName('report.pdf')).toBe('report.pdf');
  });
  it('cuts a longer name at ten characters and adds an ellipsis', () => {
    expect(shortenFileName('annual-report-2024.pdf')).toBe('annual-rep…');
  });
  it('counts characters, not UTF-16 units', () => {
    expect(shortenFileName('📄📄📄📄📄📄📄📄📄📄📄')).toBe('📄📄📄📄📄📄📄📄📄📄…');
  });
});

describe('megabytes', () => {
  it('divides by 1048576 and keeps at most two decimals', () => {
    expect(megabytes(52_428_800)).toBe('50');
    expect(megabytes(1_572_864)).toBe('1.5');
  });
});

describe('asSentence', () => {
  it('capitalises the first letter and ends with a full stop unless it already ends a sentence', () => {
    expect(asSentence(' the drive refused the password ')).toBe('The drive refused the password.');
    expect(asSentence('Is it there?')).toBe('Is it there?');
  });
});

describe('titleFromSourceKey', () => {
  it('turns underscores and dots into spaces and capitalises the first letter', () => {
    expect(titleFromSourceKey('my_custom.source')).toBe('My custom source');
  });
});

describe('formatPagination', () => {
  it('reads x to y of N results', () => {
    expect(formatPagination(1, 20, 57)).toBe('1 to 20 of 57 results');
  });
});

describe('parseDateShorthand', () => {
  const now = new Date(2024, 5, 15);
  it('labels the known shorthands', () => {
    expect(parseDateShorthand('1d', now).label).toBe('Last 1 day');
    expect(parseDateShorthand('3M', now).label).toBe('Last 3 months');
    expect(parseDateShorthand('2y', now).label).toBe('Last 2 years');
  });
  it('computes the start of the range from now', () => {
    expect(parseDateShorthand('1w', now).from).toEqual(new Date(2024, 5, 8));
    expect(parseDateShorthand('6M', now).from).toEqual(new Date(2023, 11, 15));
  });
  it("rejects anything but a number and a unit with 'Wrong shorthand'", () => {
    expect(() => parseDateShorthand('10d', now)).toThrow('Wrong shorthand');
    expect(() => parseDateShorthand('1q', now)).toThrow('Wrong shorthand');
    expect(() => parseDateShorthand('', now)).toThrow('Wrong shorthand');
  });
});
