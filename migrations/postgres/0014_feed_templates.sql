-- The feed templates an administrator offers every member in the feed builder, beside the
-- built-in ones (the feed_templates aggregate). position: the order they are offered in;
-- definition: the feed definition as JSON, name and description copied out of it for lists.
CREATE TABLE feed_templates_view
(
    template_id TEXT    NOT NULL PRIMARY KEY,
    position    BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    description TEXT    NOT NULL,
    definition  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
