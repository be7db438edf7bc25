-- Tamper evidence: every event carries a SHA-256 hash chained over the history. The hash of the
-- event at chain position p covers the hash at p - 1, p itself, and the event's aggregate,
-- sequence, type, version, payload and metadata (commands::chain::link gives the exact encoding).
--
-- The feed's own order, (transaction_id, global_position), is only known once transactions
-- finish, so the chain has its own position, taken in a BEFORE INSERT trigger by updating the one
-- head row. That row lock is held until the inserting transaction ends: event writers commit one
-- after another in chain order, and the hash is written in the event's own transaction.
ALTER TABLE events ADD COLUMN chain_position BIGINT UNIQUE, ADD COLUMN chain_hash TEXT;

CREATE TABLE event_chain_head
(
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    position BIGINT NOT NULL,
    hash     TEXT   NOT NULL
);

CREATE FUNCTION needl_chain_field(value TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE STRICT AS
$$ SELECT octet_length(value)::text || ':' || value || E'\n' $$;

CREATE FUNCTION needl_chain_link(prev TEXT, pos BIGINT, aggregate_type TEXT, aggregate_id TEXT, seq BIGINT,
                                 event_type TEXT, event_version TEXT, payload TEXT, metadata TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE STRICT AS
$$
SELECT encode(sha256(convert_to(
    'needl-chain-v1' || E'\n' || needl_chain_field(prev) || needl_chain_field(pos::text)
        || needl_chain_field(aggregate_type) || needl_chain_field(aggregate_id) || needl_chain_field(seq::text)
        || needl_chain_field(event_type) || needl_chain_field(event_version) || needl_chain_field(payload)
        || needl_chain_field(metadata), 'UTF8')), 'hex')
$$;

-- The events recorded before this migration, chained in feed order. Writers wait meanwhile.
LOCK TABLE events IN EXCLUSIVE MODE;

DO
$$
    DECLARE
        e    RECORD;
        pos  BIGINT := 0;
        hash TEXT   := '0000000000000000000000000000000000000000000000000000000000000000';
    BEGIN
        FOR e IN SELECT aggregate_type, aggregate_id, sequence, event_type, event_version,
                        payload::text AS payload, metadata::text AS metadata
                 FROM events ORDER BY transaction_id, global_position
            LOOP
                pos := pos + 1;
                hash := needl_chain_link(hash, pos, e.aggregate_type, e.aggregate_id, e.sequence, e.event_type,
                                         e.event_version, e.payload, e.metadata);
                UPDATE events SET chain_position = pos, chain_hash = hash
                WHERE aggregate_type = e.aggregate_type AND aggregate_id = e.aggregate_id AND sequence = e.sequence;
            END LOOP;
        INSERT INTO event_chain_head (id, position, hash) VALUES (1, pos, hash);
    END;
$$;

CREATE FUNCTION events_chain() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    UPDATE event_chain_head
    SET position = position + 1,
        hash     = needl_chain_link(hash, position + 1, NEW.aggregate_type, NEW.aggregate_id, NEW.sequence,
                                    NEW.event_type, NEW.event_version, NEW.payload::text, NEW.metadata::text)
    WHERE id = 1
    RETURNING position, hash INTO NEW.chain_position, NEW.chain_hash;
    RETURN NEW;
END;
$$;

CREATE TRIGGER events_chain_before_insert
    BEFORE INSERT ON events
    FOR EACH ROW
EXECUTE FUNCTION events_chain();

-- Signed digests of the chain: the position and hash of the head when one was taken, signed with
-- the instance's audit key, for auditors to keep outside the system.
CREATE TABLE audit_checkpoints
(
    position   BIGINT PRIMARY KEY,
    hash       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    public_key TEXT NOT NULL,
    signature  TEXT NOT NULL
);
