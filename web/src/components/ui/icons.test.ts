/**
 * The app draws its icons with SVGs (./icons.ts). An emoji in a component renders as an empty box
 * where no emoji font is installed, and symbol glyphs (stars, ticks, crosses, arrows) depend on the
 * font too, so neither may come back into the UI's source (comments aside).
 */
const sources = import.meta.glob(['/src/**/*.tsx', '!/src/**/*.test.tsx'], { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

const PICTOGRAPH = /[\p{Extended_Pictographic}★☆✓✔✕✖○●←→‹›×]/gu;
const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line);

describe('icons', () => {
  it('finds the components to check', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
  });

  it('no component draws an emoji or pictograph: icons come from the icon set', () => {
    const found = Object.entries(sources).flatMap(([file, text]) =>
      text
        .split('\n')
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        .filter(({ line }) => !isComment(line) && (line.match(PICTOGRAPH) ?? []).length > 0)
        .map(({ line, at }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
