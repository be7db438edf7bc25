import { detailTags } from '../document-display';

/** The document's detail tags as label/value chips. */
export function MetadataChips({ metadata }: { metadata: Record<string, string> | undefined }) {
  const tags = detailTags(metadata);
  if (tags.length === 0) return null;
  return (
    <ul className="chips" aria-label="Details">
      {tags.map((tag) => (
        <li key={tag.key} className="chip">
          <span className="chip-label">{tag.label}</span>
          <span className="chip-value">{tag.value}</span>
        </li>
      ))}
    </ul>
  );
}
