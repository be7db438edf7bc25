//! Following websites by address. The ingestion loop reads a site's advertised feed when it has
//! one, else crawls its pages to a bounded depth (see `ingest::WebConnector`).

use commands::args;
use domain::source::{SourceCommand, SourceKind};
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::sources::{
    canonical_feed_url, check_fetchable, follow as follow_source, unfollow as unfollow_source, url_source_id,
};
use crate::viewer::Viewer;

/// Returns the source id of a site: the same address is the same source for every user.
pub fn website_source_id(url: &url::Url) -> String {
    url_source_id("web", url)
}

#[derive(Debug, Serialize, Deserialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Website {
    pub source_id: String,
    pub label: String,
    pub url: String,
    pub priority: String,
    pub followed_at: String,
    /// When the site was last read successfully.
    pub last_fetched_at: Option<String>,
    /// Why the last reads failed, while they keep failing.
    pub last_error: Option<String>,
    /// When the site is read next; while reads fail, later each time (from a minute up to six
    /// hours).
    pub next_attempt_at: Option<String>,
}

/// The websites the user follows, by label, with how their last reads went; with `only`, just
/// that one.
pub async fn websites(ctx: &Context, user_id: &str, only: Option<&str>) -> Result<Vec<Website>> {
    Ok(ctx
        .db
        .fetch_all(
            "SELECT s.source_id, s.label, s.url, sub.priority, sub.followed_at, f.last_fetched_at, f.last_error, \
             f.next_attempt_at \
             FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
             LEFT JOIN source_fetch_state f ON f.source_id = s.source_id \
             WHERE sub.user_id = $1 AND s.kind = 'website' AND ($2 = '' OR s.source_id = $2) ORDER BY s.label",
            args![user_id, only.unwrap_or("")],
        )
        .await?)
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebsiteChange {
    pub source_id: String,
    pub following: bool,
    pub label: Option<String>,
    pub url: Option<String>,
}

/// Unfollows a website named by its `source_id`, or else by its address.
pub async fn unfollow(
    ctx: &Context,
    viewer: &Viewer,
    source_id: Option<&str>,
    address: Option<&str>,
) -> Result<WebsiteChange> {
    let source_id = match (source_id, address) {
        (Some(id), _) => id.trim().to_string(),
        (None, Some(url)) => website_source_id(&canonical_feed_url(url)?),
        (None, None) => return Err(Error::invalid("source_required", "name the website to unfollow")),
    };
    let cursor = unfollow_source(ctx, viewer, &source_id).await?;
    ctx.settle(cursor).await;
    Ok(WebsiteChange { source_id, following: false, label: None, url: None })
}

/// Follows a website by address (`example.com` is taken as https), named `label`, else by its
/// host.
pub async fn follow(
    ctx: &Context,
    viewer: &Viewer,
    address: Option<&str>,
    label: Option<String>,
) -> Result<WebsiteChange> {
    let raw = address
        .filter(|u| !u.trim().is_empty())
        .ok_or_else(|| Error::invalid("url_required", "enter the website's address"))?;
    // People type `example.com`; a site without a scheme is taken as https.
    let raw = if raw.contains("://") { raw.trim().to_string() } else { format!("https://{}", raw.trim()) };
    let url = canonical_feed_url(&raw).map_err(|e| match e.code.as_str() {
        "invalid_url" => Error::invalid("invalid_url", "the website address must be a valid http(s) URL"),
        _ => e,
    })?;
    check_fetchable(ctx, &url)?;
    let source_id = website_source_id(&url);
    let label = label
        .filter(|l| !l.trim().is_empty())
        .unwrap_or_else(|| url.host_str().unwrap_or(url.as_str()).trim_start_matches("www.").to_string());
    ctx.bus
        .execute(
            &ctx.bus.sources,
            &source_id,
            SourceCommand::Register {
                kind: SourceKind::Website,
                key: url.to_string(),
                url: Some(url.to_string()),
                label,
                provisional: false,
            },
            &viewer.metadata(),
        )
        .await?;
    let cursor = follow_source(ctx, viewer, &source_id).await?;
    ctx.settle(cursor).await;
    let site = websites(ctx, &viewer.user_id, Some(&source_id))
        .await?
        .pop()
        .ok_or_else(|| Error::internal("a followed website is missing from its views"))?;
    Ok(WebsiteChange { source_id, following: true, label: Some(site.label), url: Some(site.url) })
}
