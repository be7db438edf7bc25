import type { FeedDefinition } from '../api/feeds-api';

/** A definition's rules in words, read only. */
export function DefinitionSummary({ definition }: { definition: FeedDefinition }) {
  const include = definition.keywords.include.map((k) => k.keyword);
  const exclude = definition.keywords.exclude.map((k) => k.keyword);
  return (
    <dl className="definition-summary">
      {include.length > 0 && (
        <>
          <dt>Includes</dt>
          <dd>{include.join(' · ')}</dd>
        </>
      )}
      {exclude.length > 0 && (
        <>
          <dt>Excludes</dt>
          <dd>{exclude.join(' · ')}</dd>
        </>
      )}
      {definition.companies.length > 0 && (
        <>
          <dt>Companies</dt>
          <dd>{definition.companies.map((c) => c.name).join(' · ')}</dd>
        </>
      )}
      {definition.date_range && (
        <>
          <dt>Published within</dt>
          <dd>{definition.date_range}</dd>
        </>
      )}
    </dl>
  );
}

