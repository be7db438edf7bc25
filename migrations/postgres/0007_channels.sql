-- Channels (the spec's groups). Names are unique in the organisation whatever their case: the
-- channel_directory aggregate guards that, this table only reads it (name_key is the lowercased
-- name). published: the channel is published to the whole organisation, so every user of it sees
-- the channel as a member would. position is the creation event's place in the global feed.
CREATE TABLE channels_view
(
    channel_id      TEXT    NOT NULL PRIMARY KEY,
    organization_id BIGINT  NOT NULL,
    name            TEXT    NOT NULL,
    name_key        TEXT    NOT NULL,
    published       BOOLEAN NOT NULL,
    created_by      TEXT    NOT NULL,
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    position        BIGINT  NOT NULL
);
CREATE INDEX channels_view_name ON channels_view (organization_id, name_key);

-- Members and their roles ('member' or 'owner'). Keyed by channel for the live socket's audience
-- (one indexed read per channel event) and by user for the user's channel list.
CREATE TABLE channel_members_view
(
    channel_id TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    role       TEXT NOT NULL,
    added_by   TEXT NOT NULL,
    added_at   TEXT NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX channel_members_view_user ON channel_members_view (user_id);

-- Feeds (boards) shared into a channel, with their definitions as JSON text (the spec's fields:
-- name, description, keywords, sources, common, date_range, group, AI feed extras).
CREATE TABLE channel_boards_view
(
    channel_id TEXT    NOT NULL,
    board_id   TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    definition TEXT    NOT NULL,
    shared_by  TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    position   BIGINT  NOT NULL,
    PRIMARY KEY (channel_id, board_id)
);

-- Documents shared into a channel: its members may read them. Indexed by deeplink too, for the
-- check whether a user may read a document through one of their channels.
CREATE TABLE channel_items_view
(
    channel_id TEXT    NOT NULL,
    deeplink   TEXT    NOT NULL,
    shared_by  TEXT    NOT NULL,
    shared_at  TEXT    NOT NULL,
    position   BIGINT  NOT NULL,
    PRIMARY KEY (channel_id, deeplink)
);
CREATE INDEX channel_items_view_listing ON channel_items_view (channel_id, position);
CREATE INDEX channel_items_view_deeplink ON channel_items_view (deeplink);

-- Comments on documents in channels. mentioned is a JSON array of the mentioned users' ids.
-- edited_at is NULL until the first edit; a deleted comment's row goes.
CREATE TABLE comments_view
(
    comment_id TEXT    NOT NULL PRIMARY KEY,
    channel_id TEXT    NOT NULL,
    deeplink   TEXT    NOT NULL,
    author     TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    mentioned  TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    edited_at  TEXT,
    position   BIGINT  NOT NULL
);
CREATE INDEX comments_view_document ON comments_view (channel_id, deeplink, position);
CREATE INDEX comments_view_channel ON comments_view (channel_id, position);

-- Each member's own view of a channel: starred or not, and when they last saw it.
CREATE TABLE channel_readers_view
(
    channel_id TEXT    NOT NULL,
    user_id    TEXT    NOT NULL,
    starred    BOOLEAN NOT NULL DEFAULT FALSE,
    seen_at    TEXT,
    PRIMARY KEY (channel_id, user_id)
);

-- When each member last saw the comments on each document of a channel.
CREATE TABLE comment_reads_view
(
    channel_id TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    deeplink   TEXT NOT NULL,
    seen_at    TEXT NOT NULL,
    PRIMARY KEY (channel_id, user_id, deeplink)
);
