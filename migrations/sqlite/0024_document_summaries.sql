-- Document summaries (domain::summary): each person's summary of a document, its status as the
-- spec names them, and where the PDF is kept once written.
CREATE TABLE summaries_view
(
    summary_id   TEXT NOT NULL PRIMARY KEY,
    user_id      TEXT NOT NULL,
    deeplink     TEXT NOT NULL,
    title        TEXT NOT NULL,
    status       TEXT NOT NULL,
    pdf_key      TEXT,
    points       INTEGER,
    error        TEXT,
    requested_at TEXT NOT NULL,
    updated_at   TEXT NOT NULL
) STRICT;
CREATE INDEX summaries_view_user ON summaries_view (user_id, updated_at);

-- Summaries waiting for a worker, leased like upload_jobs so each is written by one node.
CREATE TABLE summary_jobs
(
    summary_id  TEXT    NOT NULL PRIMARY KEY,
    attempts    INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until TEXT
) STRICT;
