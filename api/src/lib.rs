//! The `needl` server: HTTP API, live socket, web app serving, and the operator's command line.
//!
//! A tour:
//! - [`config`]: the command line and environment (one clap struct per command).
//! - [`app`]: the composition root: storage, projections, live hub, router, graceful shutdown.
//! - [`edge`]: the connection loop: header, body and per-address limits before the router.
//! - [`web`]: the built web app (its pages 200, unknown addresses 404) and security headers.
//! - [`auth`]: signed ID tokens (judged by the server's clock) and the extractors that authenticate
//!   requests; sessions and passwords are `service::sessions`.
//! - [`throttle`]: sign-in and sign-up throttles by client address and account, and who the
//!   client is behind a trusted proxy.
//! - [`error`]: `AppError`, the JSON error shape `{code, message}` every failure answers with.
//! - [`paging`]: the checked `page`/`limit` of every list that pages.
//! - [`routes`]: one router per feature, each handler documented for `/api/openapi.json`: it
//!   extracts the request, calls the feature's module in `service/` and answers JSON.
//! - [`cli`]: rebuild, flags, roles, import and event export.
//! - [`export`]: the event export's writers: NDJSON, and Parquet files partitioned by day.
//!
//! What is below HTTP (the read policy, typed reads, use cases, workers) is `service/`. This
//! crate is the only one that knows HTTP; only the benchmarks (`bench/`, which run this
//! server in their own process) depend on it.

pub mod app;
pub mod auth;
pub mod cli;
pub mod config;
pub mod edge;
pub mod error;
pub mod export;
pub mod paging;
pub mod routes;
pub mod throttle;
pub mod web;
