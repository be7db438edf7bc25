-- Sources: shared feeds, websites and catalogue entries.
CREATE TABLE sources_view
(
    source_id  TEXT NOT NULL PRIMARY KEY,
    kind       TEXT NOT NULL,
    key        TEXT NOT NULL,
    url        TEXT,
    label      TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- Who follows what, and how prominently.
CREATE TABLE subscriptions_view
(
    user_id     TEXT NOT NULL,
    source_id   TEXT NOT NULL,
    priority    TEXT NOT NULL,
    followed_at TEXT NOT NULL,
    PRIMARY KEY (user_id, source_id)
);
CREATE INDEX subscriptions_view_source ON subscriptions_view (source_id);

-- Documents of sources; metadata is a JSON object of detail tags and file metadata.
CREATE TABLE documents_view
(
    deeplink     TEXT NOT NULL PRIMARY KEY,
    source_id    TEXT NOT NULL,
    guid         TEXT NOT NULL,
    link         TEXT,
    title        TEXT NOT NULL,
    author       TEXT,
    published_at TEXT,
    summary      TEXT,
    content_hash TEXT NOT NULL,
    owner        TEXT,
    metadata     TEXT NOT NULL,
    ingested_at  TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX documents_view_source ON documents_view (source_id, published_at);
CREATE INDEX documents_view_owner ON documents_view (owner);

-- Documents each user has read.
CREATE TABLE read_marks_view
(
    user_id  TEXT NOT NULL,
    deeplink TEXT NOT NULL,
    read_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, deeplink)
);

-- Fetch bookkeeping per source: operational state, not events (it records no user action).
-- lease_owner/lease_until let one node at a time fetch a source when several share a database.
CREATE TABLE source_fetch_state
(
    source_id       TEXT    NOT NULL PRIMARY KEY,
    etag            TEXT,
    last_modified   TEXT,
    failures        BIGINT  NOT NULL DEFAULT 0,
    last_error      TEXT,
    last_fetched_at TEXT,
    next_attempt_at TEXT    NOT NULL,
    lease_owner     TEXT,
    lease_until     TEXT
);
