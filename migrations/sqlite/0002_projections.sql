-- One checkpoint per projection: the feed cursor up to which its view rows are written. The
-- runner writes it in the same transaction as the rows.
CREATE TABLE projection_checkpoints
(
    name           TEXT    NOT NULL PRIMARY KEY,
    transaction_id INTEGER NOT NULL DEFAULT 0,
    position       INTEGER NOT NULL DEFAULT 0,
    updated_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- Accounts. password_hash is the argon2id PHC string.
CREATE TABLE users_view
(
    user_id          TEXT    NOT NULL PRIMARY KEY,
    email            TEXT    NOT NULL UNIQUE,
    username         TEXT    NOT NULL,
    password_hash    TEXT    NOT NULL,
    is_admin         INTEGER NOT NULL DEFAULT 0,
    is_auditor       INTEGER NOT NULL DEFAULT 0,
    industry         TEXT,
    profession       TEXT,
    whatsapp_number  TEXT,
    onboarded        INTEGER NOT NULL DEFAULT 0,
    nav_state        TEXT,
    askneedl_pro     INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT    NOT NULL
) STRICT;

-- Sign-in sessions; a token is honoured only while its session is here and not revoked.
CREATE TABLE sessions_view
(
    session_id TEXT NOT NULL PRIMARY KEY,
    user_id    TEXT NOT NULL,
    started_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
) STRICT;
CREATE INDEX sessions_view_user ON sessions_view (user_id);

-- Per-user feature flags as stored values; a flag is on only when the value is 'on'.
CREATE TABLE feature_flags_view
(
    user_id TEXT NOT NULL,
    flag    TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (user_id, flag)
) STRICT;

-- Client diagnostics from POST /debug-logs. Not events: they record no user action. Bounded per
-- entry by the api and pruned to the newest rows per user.
CREATE TABLE debug_logs
(
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    TEXT NOT NULL,
    request_id TEXT NOT NULL,
    log_data   TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;
CREATE INDEX debug_logs_user ON debug_logs (user_id, id);
