-- Postgres's migration 0026 moves its hash chain out of each event's transaction, into a table of
-- its own. SQLite has one writer, so its chaining trigger (0017) costs no waiting, and it writes
-- the hash into the row as it is inserted, never a second time: it stays. This keeps the two
-- migration histories numbered alike.
SELECT 1;
