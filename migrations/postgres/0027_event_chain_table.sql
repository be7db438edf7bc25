-- The hash chain moves out of the events' rows into a table of its own, written by appending.
--
-- Since 0026 the chain is written after commit, by needl_chain_advance, as an UPDATE of each
-- chained event's row. Postgres writes an UPDATE as a whole new version of the row (payload and
-- metadata with it) and, chain_position being indexed, a new entry in every index of events: the
-- chaining doubled the write volume of the event store and left a dead version of every event
-- for the feed readers' index scans to step over until vacuum. The chain now goes into
-- event_chain, one narrow row per event, appended; events is written once and never updated.
--
-- An event is joined to its link by its feed cursor (transaction_id, global_position), which the
-- feed's index covers. The hash and what it covers are unchanged (needl_chain_link), so a history
-- chained before this migration verifies as before.
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

-- As in 0026, the events after the head are read and hashed without a lock; the links are
-- appended under the head row's lock, only if no other node moved the head meanwhile.
CREATE OR REPLACE FUNCTION needl_chain_advance(max_events BIGINT) RETURNS BIGINT
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
