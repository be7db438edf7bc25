-- Postgres's migration 0027 moves its hash chain into a table of its own, appended to rather
-- than updating each event's row. SQLite's trigger (0017) writes the hash into the row as it is
-- inserted, never a second time, so it stays; this keeps the two migration histories numbered
-- alike.
SELECT 1;
