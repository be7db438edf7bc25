-- AskNeedl sessions, one row each: the owner, the title (the first question's first line until
-- the user renames it), the scope of the latest question (its type and spec id) and whether it
-- was pro or a web search. position is the creation event's place in the global feed;
-- updated_at moves with every question, answer, feedback and rename, and lists show the most
-- recently updated first.
CREATE TABLE ask_sessions_view
(
    session_id  TEXT    NOT NULL PRIMARY KEY,
    user_id     TEXT    NOT NULL,
    title       TEXT    NOT NULL,
    scope       TEXT    NOT NULL,
    pro         INTEGER NOT NULL,
    web_search  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    position    INTEGER NOT NULL
) STRICT;
CREATE INDEX ask_sessions_view_user ON ask_sessions_view (user_id, updated_at);

-- The turns of sessions: the question (prompt, scope as JSON, pro, web search, search mode) and
-- how it ended. status is RUNNING, COMPLETED, STOPPED or FAILED; answer is the answer data as
-- JSON text once COMPLETED; error_code says why a turn FAILED. feedback is CORRECT or
-- INCORRECT (the latest given), with its optional text.
CREATE TABLE ask_messages_view
(
    message_id    TEXT    NOT NULL PRIMARY KEY,
    session_id    TEXT    NOT NULL,
    user_id       TEXT    NOT NULL,
    prompt        TEXT    NOT NULL,
    scope         TEXT    NOT NULL,
    pro           INTEGER NOT NULL,
    web_search    INTEGER NOT NULL,
    search_mode   INTEGER NOT NULL,
    status        TEXT    NOT NULL,
    answer        TEXT,
    error_code    TEXT,
    feedback      TEXT,
    feedback_text TEXT,
    asked_at      TEXT    NOT NULL,
    ended_at      TEXT,
    position      INTEGER NOT NULL
) STRICT;
CREATE INDEX ask_messages_view_session ON ask_messages_view (session_id, position);
