import type { Tag } from '../api/tag-api';

export interface TagFilterProps {
  tags: Tag[];
  /** The chosen tag's id; `null` for all of the user's tags. */
  value: string | null;
  onChange: (tagId: string | null) => void;
}

/** The tag filter of `/needlbox/tags/all`: all tags, or one of the user's. */
export function TagFilter({ tags, value, onChange }: TagFilterProps) {
  return (
    <nav aria-label="Tag filter" className="tag-filter">
      <ul className="tag-chips">
        <li>
          <button type="button" className="tag-chip tag-filter-option" aria-pressed={value === null} onClick={() => onChange(null)}>
            All tags
          </button>
        </li>
        {tags.map((tag) => (
          <li key={tag.id}>
            <button
              type="button"
              className="tag-chip tag-filter-option"
              aria-pressed={value === tag.id}
              onClick={() => onChange(tag.id)}
            >
              {tag.name}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
