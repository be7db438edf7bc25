-- Connected apps (domain::connection): each user's mailbox read over IMAP and WebDAV folder, as
-- the apps page shows them. The password is never here: it stays sealed in the connection's events.
CREATE TABLE app_connections_view
(
    connection_id       TEXT    NOT NULL PRIMARY KEY,
    user_id             TEXT    NOT NULL,
    app                 TEXT    NOT NULL,
    host                TEXT    NOT NULL,
    port                INTEGER NOT NULL,
    security            TEXT    NOT NULL,
    username            TEXT    NOT NULL,
    -- A WebDAV folder's address; NULL for a mailbox.
    url                 TEXT,
    -- JSON array of the folder names read.
    folders             TEXT    NOT NULL,
    imported            INTEGER NOT NULL DEFAULT 0,
    last_error          TEXT,
    credentials_refused INTEGER NOT NULL DEFAULT 0,
    connected_at        TEXT    NOT NULL,
    last_synced_at      TEXT,
    updated_at          TEXT    NOT NULL
) STRICT;
CREATE INDEX app_connections_view_user ON app_connections_view (user_id);

-- When each connection is read next, and which node is reading it now (a lease, as for
-- upload_jobs): every node on one database shares the work, and a node that dies mid-sync frees
-- its connection when the lease runs out. Rows come and go with the connection's events.
CREATE TABLE app_sync_jobs
(
    connection_id TEXT NOT NULL PRIMARY KEY,
    next_at       TEXT NOT NULL,
    lease_owner   TEXT,
    lease_until   TEXT,
    -- When a node last finished reading it, whether or not anything came in.
    checked_at    TEXT
) STRICT;
CREATE INDEX app_sync_jobs_next ON app_sync_jobs (next_at);

-- Which version (ETag, else time and size) of each file of a WebDAV folder was last taken, so a
-- sync fetches only what is new or changed. Bookkeeping, not events: the documents are the record.
CREATE TABLE drive_files
(
    connection_id TEXT NOT NULL,
    href          TEXT NOT NULL,
    version       TEXT NOT NULL,
    PRIMARY KEY (connection_id, href)
) STRICT;
