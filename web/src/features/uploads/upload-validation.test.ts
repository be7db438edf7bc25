import type { UploadConfig } from './api/upload-api';
import { acceptAttribute, checkFile, mimeTypeOf, validateFiles } from './upload-validation';

const config = (overrides: Partial<UploadConfig> = {}): UploadConfig => ({
  file_types: ['pdf', 'md'],
  mime_types: ['application/pdf', 'text/markdown'],
  file_count_limit: 3,
  file_size_limit: 50 * 1024 * 1024,
  allow_folder_upload: true,
  file_name_suffixes: [],
  ...overrides,
});

const file = (name: string, type = 'application/pdf', size = 1000) => ({ name, type, size });

describe('mimeTypeOf', () => {
  it("keeps the browser's type, and makes one from the extension when there is none", () => {
    expect(mimeTypeOf(file('a.pdf'))).toBe('application/pdf');
    expect(mimeTypeOf(file('notes.MD', ''))).toBe('text/markdown');
    expect(mimeTypeOf(file('blob.bin', ''))).toBe('application/octet-stream');
  });
});

describe('checkFile', () => {
  it('refuses a type the source does not take, naming the file and its type', () => {
    expect(checkFile(file('setup.exe', 'application/x-msdownload'), config())).toBe(
      'File setup.exe type: application/x-msdownload not allowed',
    );
  });

  it('decides the type by extension when extensions are listed, as the server does', () => {
    expect(checkFile(file('REPORT.PDF', ''), config())).toBeNull();
    expect(checkFile(file('report', 'application/pdf'), config())).toBe('File report type: application/pdf not allowed');
  });

  it('checks the mime type when only mime types are listed, and anything goes when neither is', () => {
    expect(checkFile(file('x.bin', 'text/markdown'), config({ file_types: [] }))).toBeNull();
    expect(checkFile(file('x.bin', 'image/png'), config({ file_types: [] }))).toBe('File x.bin type: image/png not allowed');
    expect(checkFile(file('x.bin', 'image/png'), config({ file_types: [], mime_types: [] }))).toBeNull();
  });

  it('refuses a file over the size limit, stated in MB', () => {
    expect(checkFile(file('big.pdf', 'application/pdf', 50 * 1024 * 1024 + 1), config())).toBe(
      'File big.pdf size exceeds the limit of 50 MB',
    );
    expect(checkFile(file('edge.pdf', 'application/pdf', 50 * 1024 * 1024), config())).toBeNull();
  });

  it('asks for a configured name suffix, ignoring a trailing .pdf', () => {
    const suffixed = config({ file_name_suffixes: ['_AR', '_Q1'] });
    expect(checkFile(file('acme_AR.pdf'), suffixed)).toBeNull();
    expect(checkFile(file('acme.pdf'), suffixed)).toBe(
      'File acme.pdf name should end with one of the following suffixes: _AR, _Q1',
    );
  });
});

describe('validateFiles', () => {
  it('uploads the files that pass and explains each one that does not', () => {
    const result = validateFiles([file('a.pdf'), file('b.exe', 'application/x-msdownload'), file('c.md', '')], config());
    expect(result.accepted.map((f) => f.name)).toEqual(['a.pdf', 'c.md']);
    expect(result.errors).toEqual(['File b.exe type: application/x-msdownload not allowed']);
  });

  it('refuses the whole selection past the count limit', () => {
    const result = validateFiles([file('a.pdf'), file('b.pdf'), file('c.pdf'), file('d.pdf')], config());
    expect(result).toEqual({ accepted: [], errors: ['You can only upload 3 files at a time'] });
  });
});

describe('acceptAttribute', () => {
  it('lists the extensions and mime types for the file picker', () => {
    expect(acceptAttribute(config())).toBe('.pdf,.md,application/pdf,text/markdown');
    expect(acceptAttribute(undefined)).toBe('');
  });
});
