import { pickReportFiles } from './report-files';
import { typeConfig } from './test/fixtures';

const file = (name: string, size = 100, type = 'application/pdf') => ({ name, size, type });

describe('picking a report’s files', () => {
  it('ignores a file already in the list (same name and size) and one picked twice, without a message', () => {
    const pick = pickReportFiles([file('a.pdf')], [file('a.pdf'), file('b.pdf'), file('b.pdf')], typeConfig());
    expect(pick.added.map((f) => f.name)).toEqual(['b.pdf']);
    expect(pick.errors).toEqual([]);
  });

  it('keeps a file with the same name but another size', () => {
    expect(pickReportFiles([file('a.pdf', 100)], [file('a.pdf', 200)], typeConfig()).added).toHaveLength(1);
  });

  it('cuts the list at the type’s file count with the spec’s message', () => {
    const existing = [file('1.pdf'), file('2.pdf'), file('3.pdf')];
    const pick = pickReportFiles(existing, [file('4.pdf'), file('5.pdf'), file('6.pdf')], typeConfig({ file_count_limit: 5 }));
    expect(pick.added.map((f) => f.name)).toEqual(['4.pdf', '5.pdf']);
    expect(pick.truncated).toBe(true);
    expect(pick.errors).toEqual(['Only 5 files can be uploaded for a report.']);
  });

  it('refuses a file of another type or over the size limit with the spec’s messages', () => {
    const pick = pickReportFiles([], [file('pic.png', 10, 'image/png'), file('big.pdf', 3 * 1_048_576)], typeConfig({ file_size_limit: 2 * 1_048_576 }));
    expect(pick.added).toEqual([]);
    expect(pick.errors).toEqual(['File pic.png type: image/png not allowed', 'File big.pdf size exceeds the limit of 2 MB']);
    expect(pick.truncated).toBe(false);
  });
});
