-- Each user's notebooks. notebook_type is 'user', or 'default' for the user's one assistant
-- notebook (AskNeedl conversations are saved there). feed_id and channel_id type a notebook to
-- the feed or channel it was made from. Names are unique per user whatever their case: the
-- notebook_shelf aggregate guards that, this table only reads it. position is the creation
-- event's place in the global feed, so lists show the newest first the same on both backends;
-- updated_at moves with the notebook's name and with every change to its notes.
CREATE TABLE notebooks_view
(
    notebook_id   TEXT    NOT NULL PRIMARY KEY,
    user_id       TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    notebook_type TEXT    NOT NULL,
    feed_id       TEXT,
    channel_id    TEXT,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    position      INTEGER NOT NULL
) STRICT;
CREATE INDEX notebooks_view_user ON notebooks_view (user_id, position);

-- Notes. body is the rich-text document as compact JSON text (NULL until the note has one);
-- preview is its plain text cut at 1000 characters with "..." (what lists show). version counts
-- from 1 and grows with each edit; an edit must name the version it was based on. kind is 'note'
-- or 'snippet' (a document taken from a card or an answer); the snippet_ columns say where a
-- snippet's document came from. A deleted notebook's notes go with it.
CREATE TABLE notes_view
(
    note_id          TEXT    NOT NULL PRIMARY KEY,
    notebook_id      TEXT    NOT NULL,
    user_id          TEXT    NOT NULL,
    kind             TEXT    NOT NULL,
    name             TEXT    NOT NULL,
    body             TEXT,
    preview          TEXT    NOT NULL,
    version          INTEGER NOT NULL,
    snippet_deeplink TEXT,
    snippet_source   TEXT,
    snippet_title    TEXT,
    snippet_link     TEXT,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    position         INTEGER NOT NULL
) STRICT;
CREATE INDEX notes_view_notebook ON notes_view (notebook_id, position);
