-- Custom feeds (boards), one row per live feed: the owner, the definition as the builder edits
-- it (JSON text: name, description, keywords, source and category filters, date range, AI-feed
-- parts), whether it is on, how it alerts (off, immediate or digest) and with what priority
-- (HIGH, MEDIUM or LOW), and whether its last edit may be undone. previous_definition is the
-- definition an undo returns to. kind is 'keyword' or 'ai' (a definition with companies or
-- topics). A deleted feed's row is removed; its history stays in the events. position is the
-- creation event's place in the global feed; lists show the newest first.
CREATE TABLE boards_view
(
    board_id            TEXT    NOT NULL PRIMARY KEY,
    user_id             TEXT    NOT NULL,
    name                TEXT    NOT NULL,
    description         TEXT    NOT NULL,
    kind                TEXT    NOT NULL,
    definition          TEXT    NOT NULL,
    previous_definition TEXT,
    enabled             INTEGER NOT NULL,
    alerts              TEXT    NOT NULL,
    priority            TEXT    NOT NULL,
    duplicated_from     TEXT,
    created_at          TEXT    NOT NULL,
    updated_at          TEXT    NOT NULL,
    position            INTEGER NOT NULL
) STRICT;
CREATE INDEX boards_view_user ON boards_view (user_id, position);

-- New matches of feeds, as the matcher found them when documents arrived: what alerts and
-- digests are made from. notified_at is set once an alert (or the digest holding it) went out;
-- story is the near-duplicate story the document belongs to, so a digest lists a story once.
CREATE TABLE board_matches_view
(
    board_id    TEXT    NOT NULL,
    deeplink    TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    story       TEXT,
    matched_at  TEXT    NOT NULL,
    notified_at TEXT,
    PRIMARY KEY (board_id, deeplink)
) STRICT;
CREATE INDEX board_matches_view_user ON board_matches_view (user_id, matched_at);

-- The story (group of near-duplicate documents: one story told by several sources) each
-- document belongs to, as the story matcher placed it when the document arrived; feed pages show
-- a story once. Derived data, like the search index: rebuilt by placing documents again.
CREATE TABLE document_stories_view
(
    deeplink  TEXT NOT NULL PRIMARY KEY,
    story     TEXT NOT NULL,
    source_id TEXT NOT NULL,
    signature TEXT NOT NULL,
    published INTEGER NOT NULL
) STRICT;
CREATE INDEX document_stories_view_story ON document_stories_view (story);
