/** A magnifying glass, for buttons that already have a text name. */
export function SearchIcon() {
  return (
    <svg className="search-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12.6 12.6 17 17" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
