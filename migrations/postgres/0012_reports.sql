-- Research reports, one row per report: its owner, type (the spec key), name, files (JSON text:
-- [{deeplink, name}]), the feed it also reads (feed_id) and the feed's documents as resolved when
-- generation was asked for (feed_documents, JSON text), the brief of a custom research report, and
-- where it is (status: DRAFT, QUEUED, RUNNING, COMPLETED, FAILED, CANCELLED). A finished report
-- keeps its title, markdown content and raw data (JSON text: every passage used, by section); a
-- failed one its reason (error). time_taken_ms runs from the generate call to the end. sections and
-- sections_done count the planned and written sections, for progress. position is the request
-- event's place in the global feed; lists show the newest first.
CREATE TABLE reports_view
(
    report_id      TEXT    NOT NULL PRIMARY KEY,
    user_id        TEXT    NOT NULL,
    report_type    TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    files          TEXT    NOT NULL,
    feed_id        TEXT,
    feed_documents TEXT    NOT NULL,
    brief          TEXT,
    status         TEXT    NOT NULL,
    title          TEXT,
    content        TEXT,
    raw_data       TEXT,
    error          TEXT,
    started_at     TEXT,
    time_taken_ms  BIGINT ,
    sections       BIGINT  NOT NULL,
    sections_done  BIGINT  NOT NULL,
    rating         BIGINT ,
    comments       TEXT,
    created_at     TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL,
    position       BIGINT  NOT NULL
);
CREATE INDEX reports_view_user ON reports_view (user_id, position);

-- Each report's sections as planned (heading, and the query its evidence is retrieved with) and,
-- once written, their markdown (citations numbered within the section), sentences (JSON text) and
-- the passages they cite (JSON text, in citation order). A written section is never rewritten.
CREATE TABLE report_sections_view
(
    report_id    TEXT    NOT NULL,
    idx          BIGINT  NOT NULL,
    heading      TEXT    NOT NULL,
    query        TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    markdown     TEXT,
    sentences    TEXT,
    passages     TEXT,
    completed_at TEXT,
    PRIMARY KEY (report_id, idx)
);

-- Reports waiting for or in generation: operational state, like upload_jobs. The projection adds a
-- row when generation is asked for and removes it when the report ends. A worker leases a row
-- (lease_owner, lease_until) and renews the lease while it writes; a lease that runs out (its node
-- died) is taken by another worker, which resumes after the last written section. attempts counts
-- the leases taken, so a report that keeps killing its workers is failed rather than retried for
-- ever.
CREATE TABLE report_jobs
(
    report_id   TEXT    NOT NULL PRIMARY KEY,
    attempts    BIGINT  NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until TEXT
);
