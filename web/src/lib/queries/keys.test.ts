import { documentKeys } from './document-keys';
import { sourceKeys } from './source-keys';
import { uploadKeys } from './upload-keys';

describe('query-key factories', () => {
  it('nest document keys from general to specific', () => {
    expect(documentKeys.all()).toEqual(['documents']);
    expect(documentKeys.lists()).toEqual(['documents', 'list']);
    expect(documentKeys.list(null)).toEqual(['documents', 'list', { source: null }]);
    expect(documentKeys.list('rss_1')).toEqual(['documents', 'list', { source: 'rss_1' }]);
    expect(documentKeys.document('d1')).toEqual(['documents', 'detail', 'd1']);
    expect(documentKeys.detail('d1', 'rss_1')).toEqual(['documents', 'detail', 'd1', 'rss_1']);
    expect(documentKeys.readStatus()).toEqual(['documents', 'read-status']);
  });

  it('make each specific key start with its more general ones', () => {
    const detail = documentKeys.detail('d1', 'rss_1');
    expect(detail.slice(0, 3)).toEqual(documentKeys.document('d1'));
    expect(detail.slice(0, 2)).toEqual(documentKeys.details());
    expect(documentKeys.file('d1', 'rss_1').slice(0, 4)).toEqual(detail);
    expect(documentKeys.layout('d1', 'rss_1').slice(0, 4)).toEqual(detail);
    expect(documentKeys.list('x').slice(0, 2)).toEqual(documentKeys.lists());
  });

  it('nest source keys under sources', () => {
    expect(sourceKeys.all()).toEqual(['sources']);
    expect(sourceKeys.rss()).toEqual(['sources', 'rss']);
    expect(sourceKeys.websites()).toEqual(['sources', 'websites']);
  });

  it('nest upload keys under uploads, a batch status under all statuses', () => {
    expect(uploadKeys.config('needldrive')).toEqual(['uploads', 'config', 'needldrive']);
    expect(uploadKeys.status(['a', 'b'])).toEqual(['uploads', 'status', ['a', 'b']]);
    expect(uploadKeys.status(['a']).slice(0, 2)).toEqual(uploadKeys.statuses());
  });
});
