-- The append-only event store. cqrs-es (postgres-es) writes the first seven columns; the
-- composite primary key turns a concurrent append to the same aggregate into AggregateConflict.
CREATE TABLE events
(
    aggregate_type  TEXT   NOT NULL,
    aggregate_id    TEXT   NOT NULL,
    sequence        BIGINT NOT NULL CHECK (sequence >= 0),
    event_type      TEXT   NOT NULL,
    event_version   TEXT   NOT NULL,
    payload         JSON   NOT NULL,
    metadata        JSON   NOT NULL,
    -- A bigserial alone commits out of order: a reader trusting it would skip the events of a
    -- slow transaction. The feed is ordered by (transaction_id, global_position) and only rows of
    -- transactions older than every running one (pg_snapshot_xmin) are read.
    global_position BIGINT GENERATED ALWAYS AS IDENTITY,
    transaction_id  XID8   NOT NULL DEFAULT pg_current_xact_id(),
    recorded_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (aggregate_type, aggregate_id, sequence)
);

CREATE INDEX events_feed_order ON events (transaction_id, global_position);

-- Wakes feed consumers on every node. NOTIFY is delivered at commit, so a woken reader finds
-- the rows visible.
CREATE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    PERFORM pg_notify('needl_events', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER events_notify_after_insert
    AFTER INSERT ON events
    FOR EACH STATEMENT
EXECUTE FUNCTION events_notify();
