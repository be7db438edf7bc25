import { filesInFolder, takeDropped } from './read-drop';

const fileEntry = (file: File) => ({ isFile: true, isDirectory: false, file: (ok: (f: File) => void) => ok(file) });

/** A folder whose reader answers in one batch, then an empty one (as browsers do). */
const folderEntry = (children: unknown[]) => ({
  isFile: false,
  isDirectory: true,
  createReader: () => {
    let batches = [children, []];
    return {
      readEntries: (ok: (entries: unknown[]) => void) => {
        const [next, ...rest] = batches;
        batches = rest;
        ok(next ?? []);
      },
    };
  },
});

const pdf = (name: string) => new File(['x'], name, { type: 'application/pdf' });

describe('takeDropped', () => {
  it('separates dropped files from dropped folders', () => {
    const folder = folderEntry([]);
    const data = {
      items: [
        { kind: 'file', webkitGetAsEntry: () => fileEntry(pdf('a.pdf')), getAsFile: () => pdf('a.pdf') },
        { kind: 'file', webkitGetAsEntry: () => folder, getAsFile: () => null },
        { kind: 'string', webkitGetAsEntry: () => null, getAsFile: () => null },
      ],
      files: [],
    } as unknown as DataTransfer;
    const dropped = takeDropped(data);
    expect(dropped.files.map((f) => f.name)).toEqual(['a.pdf']);
    expect(dropped.folders).toEqual([folder]);
  });

  it('falls back to the plain file list where entries are not supported', () => {
    const data = { items: [], files: [pdf('b.pdf')] } as unknown as DataTransfer;
    expect(takeDropped(data).files.map((f) => f.name)).toEqual(['b.pdf']);
  });
});

describe('filesInFolder', () => {
  it('reads every file under a folder, nested folders included', async () => {
    const root = folderEntry([fileEntry(pdf('a.pdf')), folderEntry([fileEntry(pdf('b.pdf'))])]);
    const files = await filesInFolder(root as unknown as FileSystemDirectoryEntry);
    expect(files.map((f) => f.name)).toEqual(['a.pdf', 'b.pdf']);
  });
});
