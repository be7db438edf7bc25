-- Sign-in, sign-up and password-reset throttles (api/src/throttle.rs), shared by every node:
-- counters, not facts anyone audits, so they live beside the event store, not in it. A row is
-- failures (count, the last one's time) or a bucket (tokens in millionths, as of last_ms), and
-- may be deleted from forget_ms on. Times are milliseconds since the epoch.
CREATE TABLE auth_throttle (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    count BIGINT NOT NULL,
    last_ms BIGINT NOT NULL,
    tokens BIGINT NOT NULL,
    forget_ms BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX auth_throttle_forget ON auth_throttle (forget_ms);
