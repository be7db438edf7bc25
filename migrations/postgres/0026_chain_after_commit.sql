-- The hash chain is written after commit, into a table of its own, instead of inside each event's
-- transaction.
--
-- Migration 0017 chained every event in a BEFORE INSERT trigger that updated the one head row, so
-- the row's lock was held until the inserting transaction had committed and flushed: event
-- writers committed one after another and Postgres could not group their commits. The trigger
-- that NOTIFYs other nodes did the same through NOTIFY's own commit-time lock.
--
-- Now needl_chain_advance() chains the events committed since the head, in feed order
-- ((transaction_id, global_position), behind the same fence the feed readers use), and each
-- node's projection runner calls it as events arrive. The head records the feed cursor of the
-- event it reached. An event is therefore chained a few milliseconds after its commit, not in it;
-- `needl audit verify` and the auditors' endpoints chain what is pending before they walk.
-- Nodes are woken by the NOTIFY each writer sends after its commit (commands::feed::FeedSignal).
--
-- The links go into event_chain, one narrow row per event, appended, not onto the events' rows:
-- an UPDATE writes a whole new version of the row (payload and metadata with it) and a new entry
-- in every index of events, and leaves a dead version for the feed readers' index scans. An event
-- is joined to its link by its feed cursor, which the feed's index covers. The hash and what it
-- covers are unchanged (needl_chain_link), so a history chained by 0017 verifies as before.
ALTER TABLE event_chain_head ADD COLUMN transaction_id XID8, ADD COLUMN global_position BIGINT;

UPDATE event_chain_head h
SET transaction_id  = e.transaction_id,
    global_position = e.global_position
FROM events e
WHERE h.id = 1 AND e.chain_position = h.position;

DROP TRIGGER events_chain_before_insert ON events;
DROP FUNCTION events_chain();
DROP TRIGGER events_notify_after_insert ON events;
DROP FUNCTION events_notify();

CREATE TABLE event_chain
(
    position        BIGINT PRIMARY KEY,
    transaction_id  XID8   NOT NULL,
    global_position BIGINT NOT NULL,
    hash            TEXT   NOT NULL,
    UNIQUE (transaction_id, global_position)
);

INSERT INTO event_chain (position, transaction_id, global_position, hash)
SELECT chain_position, transaction_id, global_position, chain_hash
FROM events
WHERE chain_position IS NOT NULL;

ALTER TABLE events DROP COLUMN chain_position, DROP COLUMN chain_hash;

-- Chains at most max_events events after the head, in feed order; returns how many.
--
-- The events are read and hashed without a lock, so without a transaction id: an open
-- transaction with an id holds back every feed reader's fence, and hashing takes a while. Only the
-- appending is done under the head row's lock, in one statement, and only if no other node moved
-- the head meanwhile (then this call chains nothing and the next one starts from the new head),
-- so none chains an event twice. Without a head row (removed) it chains nothing, and verification
-- reports the missing head.
CREATE FUNCTION needl_chain_advance(max_events BIGINT) RETURNS BIGINT
    LANGUAGE plpgsql AS
$$
DECLARE
    e         RECORD;
    v_start   BIGINT;
    v_pos     BIGINT;
    v_hash    TEXT;
    v_tx      XID8;
    v_gpos    BIGINT;
    txs       XID8[]   := '{}';
    feed      BIGINT[] := '{}';
    positions BIGINT[] := '{}';
    hashes    TEXT[]   := '{}';
    n         BIGINT   := 0;
BEGIN
    SELECT h.position, h.hash, h.transaction_id, h.global_position
    INTO v_pos, v_hash, v_tx, v_gpos
    FROM event_chain_head h
    WHERE h.id = 1;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    v_start := v_pos;
    FOR e IN SELECT ev.aggregate_type, ev.aggregate_id, ev.sequence, ev.event_type, ev.event_version,
                    ev.payload::text AS payload, ev.metadata::text AS metadata,
                    ev.transaction_id AS tx, ev.global_position AS gpos
             FROM events ev
             WHERE (v_tx IS NULL OR (ev.transaction_id, ev.global_position) > (v_tx, v_gpos))
               AND ev.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
             ORDER BY ev.transaction_id, ev.global_position
             LIMIT max_events
        LOOP
            v_pos := v_pos + 1;
            v_hash := needl_chain_link(v_hash, v_pos, e.aggregate_type, e.aggregate_id, e.sequence, e.event_type,
                                       e.event_version, e.payload, e.metadata);
            txs := txs || e.tx;
            feed := feed || e.gpos;
            positions := positions || v_pos;
            hashes := hashes || v_hash;
            v_tx := e.tx;
            v_gpos := e.gpos;
            n := n + 1;
        END LOOP;
    IF n = 0 THEN
        RETURN 0;
    END IF;
    PERFORM 1 FROM event_chain_head h WHERE h.id = 1 AND h.position = v_start FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    INSERT INTO event_chain (position, transaction_id, global_position, hash)
    SELECT * FROM unnest(positions, txs, feed, hashes);
    UPDATE event_chain_head
    SET position        = v_pos,
        hash            = v_hash,
        transaction_id  = v_tx,
        global_position = v_gpos
    WHERE id = 1;
    -- This transaction held back every feed reader's fence while it wrote: wake them.
    PERFORM pg_notify('needl_events', '');
    RETURN n;
END;
$$;
