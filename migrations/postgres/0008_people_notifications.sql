-- Each user's contact book: the people behind contacts (a feed item's author, a mail's sender),
-- with the name and priority (HIGH, MEDIUM, LOW) the user gave them. A book is its user's alone;
-- name_key is the lowercased name, for sorting and filtering. position is the adding event's
-- place in the global feed.
CREATE TABLE people_view
(
    people_id  TEXT    NOT NULL PRIMARY KEY,
    user_id    TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    name_key   TEXT    NOT NULL,
    priority   TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    position   BIGINT  NOT NULL
);
CREATE INDEX people_view_user ON people_view (user_id, name_key);

-- The contacts of each person. contact_key is the source and the id, trimmed and lowercased: one
-- contact is one person for its user (the contact_book aggregate guards that; this table is how
-- a card's contacts are looked up).
CREATE TABLE people_contacts_view
(
    user_id        TEXT NOT NULL,
    contact_key    TEXT NOT NULL,
    people_id      TEXT NOT NULL,
    contact_id     TEXT NOT NULL,
    contact_name   TEXT NOT NULL,
    contact_source TEXT NOT NULL,
    position       BIGINT  NOT NULL,
    PRIMARY KEY (user_id, contact_key)
);
CREATE INDEX people_contacts_view_person ON people_contacts_view (people_id, position);

-- Notifications, newest first per user. notification_id is the position of the event that
-- caused it (the same for every recipient, and after a rebuild); position orders them and finds
-- an event's recipients for the live socket. kind: mention, comment, source_item (reserved:
-- summary_ready, report_ready). What it points at: a channel, document and comment, or a source
-- and document. actor is who caused it; title and excerpt are copied from the event (a comment's
-- text, a new item's title and summary). read_at is NULL while unread. What the recipient may
-- still see of it is decided when it is read (channel membership, document access).
CREATE TABLE notifications_view
(
    user_id         TEXT    NOT NULL,
    notification_id TEXT    NOT NULL,
    kind            TEXT    NOT NULL,
    position        BIGINT  NOT NULL,
    channel_id      TEXT,
    deeplink        TEXT,
    comment_id      TEXT,
    source_id       TEXT,
    actor           TEXT,
    title           TEXT,
    excerpt         TEXT,
    created_at      TEXT    NOT NULL,
    read_at         TEXT,
    PRIMARY KEY (user_id, notification_id)
);
CREATE INDEX notifications_view_listing ON notifications_view (user_id, position);
CREATE INDEX notifications_view_position ON notifications_view (position);
CREATE INDEX notifications_view_comment ON notifications_view (comment_id);

-- The notifications projection's own record of who may be notified, built from the same events
-- so that a rebuild decides exactly as the first run did (it never reads other projections'
-- tables, which may be ahead of it). Channels and whether they are published:
CREATE TABLE notification_channels
(
    channel_id TEXT    NOT NULL PRIMARY KEY,
    published  BOOLEAN NOT NULL
);

-- Each channel's members: only they are notified of its comments; a removed member is not.
CREATE TABLE notification_members
(
    channel_id TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);

-- Who follows an item in a channel: who shared it there and who commented on it. A member who
-- leaves or is removed stops following the channel's items.
CREATE TABLE notification_followers
(
    channel_id TEXT NOT NULL,
    deeplink   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    PRIMARY KEY (channel_id, deeplink, user_id)
);
CREATE INDEX notification_followers_user ON notification_followers (channel_id, user_id);

-- Who set which followed source to priority HIGH: they hear of its new items.
CREATE TABLE notification_watched_sources
(
    source_id TEXT NOT NULL,
    user_id   TEXT NOT NULL,
    PRIMARY KEY (source_id, user_id)
);
