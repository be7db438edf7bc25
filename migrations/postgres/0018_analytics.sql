-- Analysts read the event history's metadata and counts, not its content.
ALTER TABLE users_view ADD COLUMN is_analyst BOOLEAN NOT NULL DEFAULT FALSE;

-- Named analytics consumers and the feed cursor each acknowledged.
CREATE TABLE analytics_consumers_view
(
    name            TEXT   NOT NULL PRIMARY KEY,
    cursor_tx       BIGINT NOT NULL,
    cursor_pos      BIGINT NOT NULL,
    registered_by   TEXT   NOT NULL,
    registered_at   TEXT   NOT NULL,
    acknowledged_at TEXT
);
