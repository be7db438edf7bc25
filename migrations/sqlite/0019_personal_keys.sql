-- Personal data is sealed per person (commands::personal): each person's key, kept outside the
-- events. Erasing the person sets key to NULL for good (erased_at says when); a row with no key
-- refuses new personal data. Keys are hex text (32 bytes).
CREATE TABLE personal_keys
(
    owner      TEXT NOT NULL PRIMARY KEY,
    key        TEXT,
    created_at TEXT NOT NULL,
    erased_at  TEXT
) STRICT;

-- When an account was erased (NULL while it exists): it cannot sign in, and reads as "Erased user".
ALTER TABLE users_view ADD COLUMN erased_at TEXT;
