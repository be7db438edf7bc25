-- The append-only event store. cqrs-es (sqlite-es) writes the first seven columns and keeps the
-- composite primary key: a second writer of the same aggregate sequence fails on it, which
-- sqlite-es maps to AggregateConflict.
CREATE TABLE events
(
    aggregate_type  TEXT    NOT NULL,
    aggregate_id    TEXT    NOT NULL,
    sequence        INTEGER NOT NULL CHECK (sequence >= 0),
    event_type      TEXT    NOT NULL,
    event_version   TEXT    NOT NULL,
    payload         TEXT    NOT NULL,
    metadata        TEXT    NOT NULL,
    -- Position in the global feed. SQLite has a single writer, so a position assigned inside the
    -- inserting transaction is in commit order. Not the rowid: VACUUM may renumber that.
    global_position INTEGER UNIQUE,
    recorded_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (aggregate_type, aggregate_id, sequence)
) STRICT;

CREATE TRIGGER events_assign_global_position
    AFTER INSERT ON events
    FOR EACH ROW
BEGIN
    UPDATE events
    SET global_position = (SELECT COALESCE(MAX(global_position), 0) + 1 FROM events)
    WHERE rowid = NEW.rowid;
END;
