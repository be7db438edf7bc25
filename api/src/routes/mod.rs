//! One router per feature; `app::api_routes` merges them.

pub mod admin;
pub mod analytics;
pub mod ask;
pub mod audit;
pub mod audit_chain;
pub mod auth;
pub mod boards;
pub mod channels;
pub mod comments;
pub mod documents;
pub mod library;
pub mod live;
pub mod model_server;
pub mod notebooks;
pub mod notifications;
pub mod ops;
pub mod passwords;
pub mod people;
pub mod platform;
pub mod reports;
pub mod search;
pub mod sources;
pub mod tags;
pub mod uploads;
pub mod websites;
