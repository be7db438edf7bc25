-- One checkpoint per projection: the feed cursor up to which its view rows are written. The
-- runner locks the row (FOR UPDATE) and writes it in the same transaction as the rows, so on
-- several nodes only one advances a projection at a time.
CREATE TABLE projection_checkpoints
(
    name           TEXT   NOT NULL PRIMARY KEY,
    transaction_id BIGINT NOT NULL DEFAULT 0,
    position       BIGINT NOT NULL DEFAULT 0,
    updated_at     TEXT   NOT NULL DEFAULT to_char(now() AT TIME ZONE 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);

-- Accounts. password_hash is the argon2id PHC string.
CREATE TABLE users_view
(
    user_id          TEXT    NOT NULL PRIMARY KEY,
    email            TEXT    NOT NULL UNIQUE,
    username         TEXT    NOT NULL,
    password_hash    TEXT    NOT NULL,
    is_admin         BOOLEAN NOT NULL DEFAULT FALSE,
    is_auditor       BOOLEAN NOT NULL DEFAULT FALSE,
    industry         TEXT,
    profession       TEXT,
    whatsapp_number  TEXT,
    onboarded        BOOLEAN NOT NULL DEFAULT FALSE,
    nav_state        TEXT,
    askneedl_pro     BOOLEAN NOT NULL DEFAULT FALSE,
    created_at       TEXT    NOT NULL
);

-- Sign-in sessions; a token is honoured only while its session is here and not revoked.
CREATE TABLE sessions_view
(
    session_id TEXT NOT NULL PRIMARY KEY,
    user_id    TEXT NOT NULL,
    started_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX sessions_view_user ON sessions_view (user_id);

-- Per-user feature flags as stored values; a flag is on only when the value is 'on'.
CREATE TABLE feature_flags_view
(
    user_id TEXT NOT NULL,
    flag    TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (user_id, flag)
);

-- Client diagnostics from POST /debug-logs. Not events: they record no user action. Bounded per
-- entry by the api and pruned to the newest rows per user.
CREATE TABLE debug_logs
(
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    TEXT NOT NULL,
    request_id TEXT NOT NULL,
    log_data   TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX debug_logs_user ON debug_logs (user_id, id);
