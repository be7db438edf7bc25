-- Analysts read the event history's metadata and counts, not its content.
ALTER TABLE users_view ADD COLUMN is_analyst INTEGER NOT NULL DEFAULT 0;

-- Named analytics consumers and the feed cursor each acknowledged (tx is 0 on SQLite).
CREATE TABLE analytics_consumers_view
(
    name            TEXT    NOT NULL PRIMARY KEY,
    cursor_tx       INTEGER NOT NULL,
    cursor_pos      INTEGER NOT NULL,
    registered_by   TEXT    NOT NULL,
    registered_at   TEXT    NOT NULL,
    acknowledged_at TEXT
) STRICT;
