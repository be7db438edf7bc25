//! The HTTP API end to end: the real server on port 0, a fresh database per test, on SQLite and
//! on the real Postgres.
//!
//! One test binary, because each links the whole server: `support` starts servers and holds what
//! several features set up; every other module is one feature. A feature's tests run by its
//! module's name, e.g. `cargo test -p api --test api -- channels::`.

mod support;

mod accounts;
mod admin;
mod analytics;
mod apps;
mod ask;
mod audit;
mod audit_chain;
mod auth_refresh;
mod boards;
mod channels;
mod comments;
mod data_permissions;
mod documents;
mod edge;
mod erasure;
mod faults;
mod feed_health;
mod filings;
mod input_checks;
mod live;
mod model_server;
mod my_data_counts;
mod nodes;
mod notebooks;
mod notes_search;
mod oidc;
mod parquet_export;
mod passwords;
mod people_notifications;
mod pipeline;
mod plans;
mod platform;
mod policy;
mod portfolios;
mod profile;
mod report_files;
mod reports;
mod reports_engine;
mod search;
mod sources;
mod summaries;
mod tables;
mod tags;
mod uploads;
mod whatsapp;
