-- Why a session was revoked, and which session it replaced. revoked_reason is 'rotated' (a token
-- refresh replaced it) or 'signed_out', NULL while the session is live. A rotated session keeps
-- working for a short grace period after revoked_at (the browser may not have stored the new
-- token yet); a signed-out one stops at once. rotated_from names the session a refresh replaced,
-- so signing out also ends a predecessor still in its grace.
ALTER TABLE sessions_view ADD COLUMN revoked_reason TEXT;
ALTER TABLE sessions_view ADD COLUMN rotated_from TEXT;

-- Rows written before these columns: fill them from the events, as a rebuild would.
UPDATE sessions_view
SET revoked_reason = (SELECT e.payload -> 'SessionRevoked' ->> 'reason'
                      FROM events e
                      WHERE e.aggregate_type = 'session'
                        AND e.aggregate_id = sessions_view.session_id
                        AND e.event_type = 'SessionRevoked'
                      ORDER BY e.sequence DESC
                      LIMIT 1)
WHERE revoked_at IS NOT NULL;
UPDATE sessions_view
SET rotated_from = (SELECT e.payload -> 'SessionStarted' ->> 'rotated_from'
                    FROM events e
                    WHERE e.aggregate_type = 'session'
                      AND e.aggregate_id = sessions_view.session_id
                      AND e.event_type = 'SessionStarted');
