-- Tamper evidence: every event carries a SHA-256 hash chained over the feed. The hash of the event
-- at position p covers the hash at p - 1, p itself, and the event's aggregate, sequence, type,
-- version, payload and metadata (commands::chain::link gives the exact encoding). The trigger that
-- assigns the position computes it in the same statement, so the hash is written in the event's
-- own transaction. needl_chain_link is a function the server registers on each connection: an
-- insert from a tool without it fails instead of leaving an unchained event.
ALTER TABLE events ADD COLUMN chain_hash TEXT;

-- The newest position and hash; the one row is what the next event chains onto.
CREATE TABLE event_chain_head
(
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    position INTEGER NOT NULL,
    hash     TEXT    NOT NULL
) STRICT;

-- The events recorded before this migration, chained in feed order.
CREATE TEMP TABLE chain_fill
(
    position INTEGER PRIMARY KEY,
    hash     TEXT NOT NULL
);

INSERT INTO chain_fill (position, hash)
WITH RECURSIVE chain(position, hash) AS (
    SELECT 0, '0000000000000000000000000000000000000000000000000000000000000000'
    UNION ALL
    SELECT e.global_position,
           needl_chain_link(chain.hash, e.global_position, e.aggregate_type, e.aggregate_id, e.sequence,
                            e.event_type, e.event_version, e.payload, e.metadata)
    FROM chain JOIN events e ON e.global_position = chain.position + 1
)
SELECT position, hash FROM chain;

UPDATE events SET chain_hash = (SELECT hash FROM chain_fill WHERE chain_fill.position = events.global_position);

-- The head is the newest position (never behind an event, or the next insert would clash with it)
-- and the last hash the chain reached.
INSERT INTO event_chain_head (id, position, hash)
SELECT 1,
       (SELECT COALESCE(MAX(global_position), 0) FROM events),
       (SELECT hash FROM chain_fill ORDER BY position DESC LIMIT 1);

DROP TABLE chain_fill;

DROP TRIGGER events_assign_global_position;

CREATE TRIGGER events_assign_global_position
    AFTER INSERT ON events
    FOR EACH ROW
BEGIN
    UPDATE event_chain_head
    SET position = position + 1,
        hash     = needl_chain_link(hash, position + 1, NEW.aggregate_type, NEW.aggregate_id, NEW.sequence,
                                    NEW.event_type, NEW.event_version, NEW.payload, NEW.metadata)
    WHERE id = 1;
    UPDATE events
    SET (global_position, chain_hash) = (SELECT position, hash FROM event_chain_head WHERE id = 1)
    WHERE rowid = NEW.rowid;
END;

-- Signed digests of the chain: the position and hash of the head when one was taken, signed with
-- the instance's audit key, for auditors to keep outside the system.
CREATE TABLE audit_checkpoints
(
    position   INTEGER PRIMARY KEY,
    hash       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    public_key TEXT NOT NULL,
    signature  TEXT NOT NULL
) STRICT;
