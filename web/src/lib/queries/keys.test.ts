import { documentKeys } from './document-keys';
import { libraryKeys } from './library-keys';
import { searchKeys } from './search-keys';
import { sourceKeys } from './source-keys';
import { uploadKeys } from './upload-keys';

describe('query-key factories', () => {
  it('nest document keys from general to specific', () => {
    expect(documentKeys.all()).toEqual(['documents']);
    expect(documentKeys.lists()).toEqual(['documents', 'list']);
    expect(documentKeys.list(null)).toEqual(['documents', 'list', { source: null, subCategory: null }]);
    expect(documentKeys.list('rss_1')).toEqual(['documents', 'list', { source: 'rss_1', subCategory: null }]);
    expect(documentKeys.list(null, 'rss_news')).toEqual(['documents', 'list', { source: null, subCategory: 'rss_news' }]);
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
    expect(documentKeys.opened('d1', 'rss_1', { access_key: 'k' }).slice(0, 4)).toEqual(detail);
  });

  it('nest source keys under sources', () => {
    expect(sourceKeys.all()).toEqual(['sources']);
    expect(sourceKeys.rss()).toEqual(['sources', 'rss']);
    expect(sourceKeys.websites()).toEqual(['sources', 'websites']);
    expect(sourceKeys.topic('research')).toEqual(['sources', 'topics', 'research']);
    expect(sourceKeys.topic('research').slice(0, 2)).toEqual(sourceKeys.topics());
    expect(sourceKeys.edgarFollowed()).toEqual(['sources', 'edgar', 'followed']);
    expect(sourceKeys.edgarCompanies('app')).toEqual(['sources', 'edgar', 'companies', 'app']);
    expect(sourceKeys.edgarCompanies('app').slice(0, 2)).toEqual(sourceKeys.edgar());
  });

  it('nest library keys under library', () => {
    expect(libraryKeys.categories()).toEqual(['library', 'categories']);
    expect(libraryKeys.needlbox()).toEqual(['library', 'needlbox']);
  });

  it('nest upload keys under uploads, a batch status under all statuses', () => {
    expect(uploadKeys.config('needldrive')).toEqual(['uploads', 'config', 'needldrive']);
    expect(uploadKeys.status(['a', 'b'])).toEqual(['uploads', 'status', ['a', 'b']]);
    expect(uploadKeys.status(['a']).slice(0, 2)).toEqual(uploadKeys.statuses());
  });

  it('nest search keys under search, each answer under its kind', () => {
    expect(searchKeys.all()).toEqual(['search']);
    expect(searchKeys.categories('rss_news', { q: 'a' })).toEqual(['search', 'categories', 'rss_news', { q: 'a' }]);
    expect(searchKeys.categories(null, {}).slice(0, 2)).toEqual(searchKeys.categoryLists());
    expect(searchKeys.results(null, { q: 'a' }).slice(0, 2)).toEqual(searchKeys.resultPages());
  });
});
