import { documentAtUrl, sameAppPath, sameOriginUrl } from './app-paths';
import { documentFromParams, previewPathOf } from './document-links';

const ORIGIN = 'https://needl.example';

describe('sameAppPath', () => {
  it('keeps a path of the app with its query and hash', () => {
    expect(sameAppPath('/feeds/home/drives?x=1#y', ORIGIN)).toBe('/feeds/home/drives?x=1#y');
    expect(sameAppPath('/a/../notifications', ORIGIN)).toBe('/notifications');
  });

  it('refuses other sites, schemes, relative paths and the server’s /api', () => {
    const refused = ['https://evil.example/', '//evil.example/a', '/\\evil.example', 'javascript:alert(1)', 'feeds', '', '/api', '/api/user'];
    for (const value of [...refused, null, 7]) expect(sameAppPath(value, ORIGIN)).toBeNull();
  });
});

describe('sameOriginUrl', () => {
  it('takes a path or a full address of the app’s origin', () => {
    expect(sameOriginUrl('/api/doc/s/file?deeplink=d', ORIGIN)?.pathname).toBe('/api/doc/s/file');
    expect(sameOriginUrl(`${ORIGIN}/logo.png`, ORIGIN)?.pathname).toBe('/logo.png');
  });

  it('refuses another origin, data:, blob: and javascript:', () => {
    const refused = ['https://evil.example/a.png', '//evil.example/a.png', 'data:image/png;base64,AA', `blob:${ORIGIN}/x`, 'javascript:alert(1)'];
    for (const value of [...refused, null]) expect(sameOriginUrl(value, ORIGIN)).toBeNull();
  });
});

describe('documentAtUrl', () => {
  const at = (path: string) => documentAtUrl(new URL(path, ORIGIN));

  it('reads the document of the server’s file address, with its shared key', () => {
    expect(at('/api/doc/needldrive/file?deeplink=doc_1&public_access_key=p')).toEqual({
      deeplink: 'doc_1',
      source: 'needldrive',
      public_access_key: 'p',
    });
    expect(at('/api/doc/rss_1?deeplink=doc_2')).toEqual({ deeplink: 'doc_2', source: 'rss_1' });
  });

  it('reads the document of the app’s preview address', () => {
    expect(at('/preview/apps/doc%201?source=needldrive&access_key=k')).toEqual({
      deeplink: 'doc 1',
      source: 'needldrive',
      category: 'apps',
      access_key: 'k',
    });
  });

  it('names no document for other addresses', () => {
    const others = ['/api/doc/read_status?deeplink=x', '/api/doc/s/file', '/api/doc/s/layout?deeplink=x', '/preview/feeds/doc_1', '/assets/a.pdf'];
    for (const path of others) expect(at(path)).toBeNull();
  });
});

describe('a document named by an address', () => {
  it('needs a deeplink and a source', () => {
    expect(documentFromParams(new URLSearchParams('deeplink=d&source=s&access_key=k&category=apps'))).toEqual({
      deeplink: 'd',
      source: 's',
      category: 'apps',
      access_key: 'k',
    });
    expect(documentFromParams(new URLSearchParams('deeplink=d'))).toBeNull();
    expect(documentFromParams(new URLSearchParams('source=s'))).toBeNull();
  });

  it('opens in the app’s preview, or a note’s own', () => {
    expect(previewPathOf({ deeplink: 'd/1', source: 's', access_key: 'k' })).toBe('/preview/feeds/d%2F1?source=s&access_key=k');
    expect(previewPathOf({ deeplink: 'd', source: 's', category: 'apps', public_access_key: 'p' })).toBe(
      '/preview/apps/d?source=s&public_access_key=p',
    );
    expect(previewPathOf({ deeplink: 'd', source: 's', category: '../x' })).toBe('/preview/feeds/d?source=s');
    expect(previewPathOf({ deeplink: 'n1', source: 'needl_notebooks' })).toBe('/preview/needl_notebooks/n1');
  });
});
