-- Each user's tags. The bookmark tag is in nobody's list. name_key is the lowercased name under
-- which a user's names are unique; the tag_book aggregate guards that, this table only reads it.
CREATE TABLE tags_view
(
    tag_id     TEXT NOT NULL PRIMARY KEY,
    user_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX tags_view_user ON tags_view (user_id, name_key);

-- Tags on documents. scope_kind 'user' with the user's id as scope_id holds a user's own tags
-- and bookmarks (tag_id 'bookmark'); 'channel' with the channel's id holds shared tags.
-- tagged_by is who put the tag on; position is the event's place in the global feed, so lists
-- can show the newest first. A deleted tag's rows go with it.
CREATE TABLE document_tags_view
(
    scope_kind TEXT    NOT NULL,
    scope_id   TEXT    NOT NULL,
    deeplink   TEXT    NOT NULL,
    tag_id     TEXT    NOT NULL,
    tagged_by  TEXT    NOT NULL,
    feed_id    TEXT,
    tagged_at  TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (scope_kind, scope_id, deeplink, tag_id)
) STRICT;
CREATE INDEX document_tags_view_tag ON document_tags_view (tag_id);
CREATE INDEX document_tags_view_listing ON document_tags_view (scope_kind, scope_id, tag_id, position);
