/**
 * Features do not import each other (eslint.config.js). These tests lint snippets as if they
 * were files in src/, with the app's own ESLint config, so the rule cannot quietly stop working.
 */
import { ESLint } from 'eslint';

/** The web app's folder, where eslint.config.js is (this file is in its src/). */
const webRoot = decodeURIComponent(import.meta.url.replace(/^file:\/\//, '').replace(/src\/[^/]+$/, ''));
const eslint = new ESLint({ cwd: webRoot });

/** Returns the messages of the boundary rules for `code` linted as the file at `filePath`. */
async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: `${webRoot}${filePath}` });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const FEATURES = [
  ...new Set(Object.keys(import.meta.glob('/src/features/*/index.{ts,tsx}')).map((path) => path.split('/')[3])),
];

describe('feature boundaries', () => {
  it('finds the features', () => {
    expect(FEATURES).toEqual(expect.arrayContaining(['documents', 'channels', 'tags']));
  });

  it.each([
    ['a file at the top of a feature', 'src/features/documents/x.ts', "import { a } from '../channels/api/channel-api';"],
    ['a component', 'src/features/documents/components/x.tsx', "import { a } from '../../channels/api/channel-api';"],
    ['a nested component', 'src/features/channels/components/settings/x.tsx', "import type { P } from '../../../people/api/people-api';"],
    ['a path through src', 'src/features/documents/components/x.tsx', "import { a } from '../../../features/tags';"],
    ['a root path', 'src/features/documents/x.ts', "import { a } from '/src/features/tags/index';"],
    ['a re-export', 'src/features/documents/index.ts', "export * from '../tags';"],
    ['a lazy import', 'src/features/documents/components/x.tsx', "const T = import('../../tags/components/tag-row');"],
  ])('refuses another feature imported from %s', async (_, filePath, code) => {
    const errors = await boundaryErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/may not import another feature/);
  });

  it.each([
    ['its own feature', 'src/features/documents/components/x.tsx', "import { a } from '../api/document-api';"],
    ['its own feature by a longer way', 'src/features/documents/components/x.tsx', "import { a } from '../../documents/api/document-api';"],
    ['src/lib', 'src/features/documents/components/x.tsx', "import { a } from '../../../lib/format';"],
    ['src/components', 'src/features/channels/components/settings/x.tsx', "import { a } from '../../../../components/ui/spinner';"],
    ['a package', 'src/features/documents/x.ts', "import { useQuery } from '@tanstack/react-query';"],
    ['its own lazy chunk', 'src/features/documents/components/x.tsx', "const P = import('./pdf-preview');"],
  ])('lets a feature import %s', async (_, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });

  it('lets the app shell compose features', async () => {
    expect(await boundaryErrors('src/app/pages/x.tsx', "import { a } from '../../features/documents';")).toEqual([]);
  });

  it('covers every feature folder', async () => {
    for (const [i, feature] of FEATURES.entries()) {
      const other = FEATURES[(i + 1) % FEATURES.length];
      expect(await boundaryErrors(`src/features/${feature}/components/x.tsx`, `import { a } from '../../${other}';`)).toHaveLength(1);
    }
  });
});
