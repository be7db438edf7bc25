-- Postgres's migration 0026 moves its hash chain out of each event's transaction. SQLite has one
-- writer, so its chaining trigger (0017) costs no waiting and stays; this keeps the two
-- migration histories numbered alike.
SELECT 1;
