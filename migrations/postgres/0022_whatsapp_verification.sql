-- WhatsApp verification (the pulse variant): the number verified by code, while it is still the
-- profile's, and the code outstanding (when it was sent, until when it works, tries left).
ALTER TABLE users_view ADD COLUMN whatsapp_verified TEXT;
ALTER TABLE users_view ADD COLUMN whatsapp_code_sent_at TEXT;
ALTER TABLE users_view ADD COLUMN whatsapp_code_expires_at TEXT;
ALTER TABLE users_view ADD COLUMN whatsapp_code_tries BIGINT;

-- Messages for a channel with no provider configured (WhatsApp codes, offline): an outbox
-- administrators read and pass on. Not events: a delivery queue, like mail being sent.
CREATE TABLE outbox_messages
(
    message_id TEXT NOT NULL PRIMARY KEY,
    channel    TEXT NOT NULL,
    recipient  TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX outbox_messages_created ON outbox_messages (created_at);
