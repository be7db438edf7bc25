// ESLint here guards the app's structure; TypeScript (`tsc -b`) does the type checking.
//
// The one rule: a feature (src/features/<name>/) never imports another feature. What two features
// share lives in src/lib or src/components; src/app composes features and may import any of them.
// It is ESLint's own `no-restricted-imports` (with `no-restricted-syntax` for `import()`), one
// block per feature and folder depth: a relative import's meaning depends on how deep the
// importing file sits, and the built-in rule matches the import's text, not the file it resolves
// to. The feature list is read from the folder, so a new feature is covered without an edit here.
//
// Files are parsed by Babel's TypeScript preset: typescript-eslint's parser needs TypeScript's
// JavaScript API, which the TypeScript 7 compiler this app builds with does not have.
import { readdirSync } from 'node:fs';
import babelParser from '@babel/eslint-parser';

const FEATURES_DIR = new URL('./src/features/', import.meta.url);

/** Returns the names of the folders directly inside `dir`. */
const subfolders = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** Returns how many folders deep the deepest folder under `dir` is (0 when it has none). */
const folderDepth = (dir) =>
  Math.max(0, ...subfolders(dir).map((name) => 1 + folderDepth(new URL(`${name}/`, dir))));

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Returns the import sources a file `depth` folders below src/features/<feature>/ may not use,
 * as regular expressions: a relative path that climbs exactly to src/features/ and goes down into
 * another folder there, and any path naming `features/<other>` (from src/, an alias or `/src/`).
 */
export function forbiddenSources(feature, depth) {
  const own = escapeRegex(feature);
  return [
    `^(?:\\.\\./){${depth + 1}}(?!(?:${own}|\\.\\.?)(?:/|$))[^/]`,
    `(?:^|/)features/(?!${own}(?:/|$))[^/]`,
  ];
}

const message = (feature) =>
  `src/features/${feature} may not import another feature: move what both need to src/lib or ` +
  'src/components, or let src/app join them';

/** Returns the config blocks that keep each of `features` from importing the others. */
export function featureBoundaries(features, maxDepth) {
  return features.flatMap((feature) =>
    Array.from({ length: maxDepth + 1 }, (_, depth) => {
      const sources = forbiddenSources(feature, depth);
      return {
        files: [`src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
        rules: {
          'no-restricted-imports': [
            'error',
            { patterns: sources.map((regex) => ({ regex, message: message(feature) })) },
          ],
          'no-restricted-syntax': [
            'error',
            ...sources.map((regex) => ({
              selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`,
              message: message(feature),
            })),
          ],
        },
      };
    }),
  );
}

const features = subfolders(FEATURES_DIR);

export default [
  { ignores: ['dist/', 'test-results/', 'playwright-report/'] },
  {
    files: ['**/*.{js,ts,tsx}'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      parser: babelParser,
      parserOptions: {
        requireConfigFile: false,
        babelOptions: {
          babelrc: false,
          configFile: false,
          presets: [['@babel/preset-typescript', { allowDeclareFields: true }]],
        },
      },
    },
  },
  ...featureBoundaries(features, Math.max(...features.map((f) => folderDepth(new URL(`${f}/`, FEATURES_DIR))))),
];
