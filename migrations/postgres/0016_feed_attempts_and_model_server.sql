-- When each source was last tried, whatever came of it: with last_error, what a feed that cannot
-- be read shows ("last tried 5 minutes ago"). Operational state, like the rest of the row.
ALTER TABLE source_fetch_state ADD COLUMN last_attempt_at TEXT;

-- The model server an administrator chose for AskNeedl (instance events): one row, id
-- 'assistant', absent until one is saved (the server's start flags apply until then). url NULL:
-- answers are quoted from the sources. api_key is never sent to a client.
CREATE TABLE instance_settings_view
(
    id         TEXT NOT NULL PRIMARY KEY,
    url        TEXT,
    model      TEXT NOT NULL,
    api_key    TEXT,
    updated_by TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
