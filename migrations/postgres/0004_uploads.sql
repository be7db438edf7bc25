-- Uploaded files and where each is on its way to becoming a document.
CREATE TABLE uploads_view
(
    upload_id  TEXT    NOT NULL PRIMARY KEY,
    user_id    TEXT    NOT NULL,
    file_id    TEXT    NOT NULL,
    source     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    mime_type  TEXT    NOT NULL,
    bucket     TEXT    NOT NULL,
    key        TEXT    NOT NULL,
    size       BIGINT,
    status     TEXT    NOT NULL,
    error      TEXT,
    deeplink   TEXT,
    feed_id    TEXT,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
);
CREATE INDEX uploads_view_user ON uploads_view (user_id, status);
CREATE INDEX uploads_view_key ON uploads_view (key);

-- Files waiting for extraction: operational state, like source_fetch_state. The projection adds a
-- row when a transfer completes and removes it when the upload is processed, failed or removed;
-- lease_owner/lease_until let one node at a time extract a file.
CREATE TABLE upload_jobs
(
    upload_id   TEXT    NOT NULL PRIMARY KEY,
    attempts    BIGINT  NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until TEXT
);
