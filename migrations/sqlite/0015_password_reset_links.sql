-- The reset link each account may have outstanding, found by its token's SHA-256 (hex): the
-- token itself is never stored. A link is removed when it is used, replaced by a newer one, or
-- the password is changed; expires_at (RFC 3339) is checked again by the account's aggregate.
CREATE TABLE password_reset_links_view
(
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX password_reset_links_by_user ON password_reset_links_view (user_id);
