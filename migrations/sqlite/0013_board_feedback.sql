-- "More like this / less like this" on documents of AI feeds: the latest word of each feed's
-- owner on each document (more = true for more like this). The feed's topics are refined by it
-- (Rocchio) when its documents are read or new ones matched. given_at: when it was said.
CREATE TABLE board_feedback_view
(
    board_id TEXT    NOT NULL,
    deeplink TEXT    NOT NULL,
    user_id  TEXT    NOT NULL,
    more     INTEGER NOT NULL,
    given_at TEXT    NOT NULL,
    PRIMARY KEY (board_id, deeplink)
) STRICT;
