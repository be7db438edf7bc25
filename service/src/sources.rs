//! Following sources: the public catalogue, RSS (and Atom, JSON Feed) addresses, suggested feeds
//! by topic, and how prominently each followed source shows. Also what following anything by
//! address shares (websites too): the canonical address, whether this server will fetch it, the
//! source id it gives, and the follow itself.

use commands::args;
use domain::source::{subscription_id, Priority, SourceCommand, SourceKind, SubscriptionCommand};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::viewer::Viewer;

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TopicSummary {
    pub key: String,
    pub title: String,
    /// Feeds suggested under it.
    pub count: usize,
}

/// The topics under which RSS feeds are suggested.
pub fn topics(ctx: &Context) -> Vec<TopicSummary> {
    ctx.catalogue
        .topics()
        .map(|t| TopicSummary { key: t.key.clone(), title: t.title.clone(), count: t.feeds.len() })
        .collect()
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SuggestedFeed {
    pub url: String,
    pub label: String,
    /// The source id following it gives (or gave).
    pub source_id: String,
    pub following: bool,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SuggestedFeeds {
    pub key: String,
    pub title: String,
    pub results: Vec<SuggestedFeed>,
}

/// The RSS feeds suggested under `topic`, with which the user already follows.
pub async fn suggested(ctx: &Context, user_id: &str, topic: &str) -> Result<SuggestedFeeds> {
    let topic = ctx.catalogue.topic(topic).ok_or_else(|| Error::not_found(format!("no topic {topic}")))?;
    let followed = rss_sources(ctx, user_id, None).await?;
    let results = topic
        .feeds
        .iter()
        .map(|feed| {
            let source_id = rss_source_id(&feed.url);
            SuggestedFeed {
                following: followed.iter().any(|f| f.source_id == source_id),
                url: feed.url.to_string(),
                label: feed.label.clone(),
                source_id,
            }
        })
        .collect();
    Ok(SuggestedFeeds { key: topic.key.clone(), title: topic.title.clone(), results })
}

/// A catalogue entry as the connect pages list it.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PublicSource {
    pub key: String,
    pub title: String,
    /// `Indian Capital Markets`, `US Capital Markets`, or null.
    pub group: Option<String>,
    /// `source`, followed from the catalogue page, or `app`: an app or a part of Needl the spec's
    /// catalogue also names (mail, chats, drives, clipped reports, Custom URL, Notebooks),
    /// connected under Apps instead.
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "source"))]
    pub kind: ingest::EntryKind,
    /// Whether the catalogue knows a feed to fetch for it.
    pub fetchable: bool,
    pub following: bool,
}

#[derive(sqlx::FromRow)]
struct FollowedKey {
    source_id: String,
}

/// The public source catalogue by title, with what the user follows.
pub async fn catalogue(ctx: &Context, user_id: &str) -> Result<Vec<PublicSource>> {
    let followed: Vec<FollowedKey> = ctx
        .db
        .fetch_all(
            "SELECT sub.source_id FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
             WHERE sub.user_id = $1 AND s.kind = 'public'",
            args![user_id],
        )
        .await?;
    let mut results: Vec<PublicSource> = ctx
        .catalogue
        .entries()
        .map(|entry| PublicSource {
            key: entry.key.clone(),
            title: entry.title.clone(),
            group: entry.group.map(|g| g.label().to_string()),
            kind: entry.kind,
            fetchable: !entry.feed_urls.is_empty(),
            following: followed.iter().any(|f| f.source_id == entry.key),
        })
        .collect();
    results.sort_by(|a, b| a.title.cmp(&b.title));
    Ok(results)
}

/// Most sources one bulk priority change takes.
pub const MAX_BULK_PRIORITY: usize = 50;

/// Returns the canonical form of a feed URL: http(s) only, no fragment, lowercase host.
pub fn canonical_feed_url(raw: &str) -> Result<url::Url> {
    let mut parsed = url::Url::parse(raw.trim())
        .map_err(|_| Error::invalid("invalid_url", "the feed address must be a valid URL"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(Error::invalid("invalid_url", "the feed address must start with http:// or https://"));
    }
    // Refused rather than stripped: a feed that needs them would then fail later with a puzzling
    // 401, and a password kept in an event would stay in the log for ever.
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(Error::invalid("credentials_in_url", "the address must not contain a user name or password"));
    }
    parsed.set_fragment(None);
    Ok(parsed)
}

/// Refuses an address this server will never fetch, when the address alone tells: a host that is
/// an IP literal in a blocked range, or `localhost`, unless the operator's allow-list
/// (`NEEDL_FETCH_ALLOW`) lets it through. A name resolving to such an address is refused when
/// fetched, and the source shows why.
pub fn check_fetchable(ctx: &Context, url: &url::Url) -> Result<()> {
    match ingest::fetch::check_url(url, &ctx.fetch_guard) {
        Ok(()) => Ok(()),
        Err(ingest::FetchError::Blocked { host, reason, .. }) => Err(Error::invalid(
            "address_not_allowed",
            format!("this server does not fetch {host}: it is a {} address", reason.as_str()),
        )),
        Err(other) => Err(Error::invalid("invalid_url", other.to_string())),
    }
}

/// Returns the source id of a feed URL: the same URL is the same source for every user.
pub fn rss_source_id(url: &url::Url) -> String {
    url_source_id("rss", url)
}

/// Returns `PREFIX_` and the first 8 bytes of the URL's SHA-256 in hex.
pub fn url_source_id(prefix: &str, url: &url::Url) -> String {
    let digest = Sha256::digest(url.as_str().as_bytes());
    format!("{prefix}_{}", hex::encode(&digest[..8]))
}

/// Records that the viewer follows `source_id`. Returns the command's cursor, unsettled.
pub async fn follow(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<Option<commands::Cursor>> {
    Ok(ctx
        .bus
        .execute(
            &ctx.bus.subscriptions,
            &subscription_id(&viewer.user_id, source_id),
            SubscriptionCommand::Follow { user_id: viewer.user_id.clone(), source_id: source_id.to_string() },
            &viewer.metadata(),
        )
        .await?)
}

/// Records that the viewer no longer follows `source_id`. Returns the command's cursor, unsettled.
pub async fn unfollow(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<Option<commands::Cursor>> {
    Ok(ctx
        .bus
        .execute(
            &ctx.bus.subscriptions,
            &subscription_id(&viewer.user_id, source_id),
            SubscriptionCommand::Unfollow,
            &viewer.metadata(),
        )
        .await?)
}

/// Refuses a key that cannot be followed as a public source: malformed, or an app's (mail,
/// drives, Needl's own notebooks: those are connected under Apps, the catalogue only names them).
fn check_public_key(ctx: &Context, key: &str) -> Result<()> {
    let key = key.trim();
    if key.is_empty() || key.len() > 128 || !key.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)) {
        return Err(Error::invalid("invalid_key", "a source key has letters, digits, '_', '.' or '-'"));
    }
    let kind = ctx.catalogue.get(key).map_or_else(|| ingest::EntryKind::of_key(key), |e| e.kind);
    if kind == ingest::EntryKind::App {
        return Err(Error::invalid(
            "app_key",
            format!("'{key}' is an app, not a public source: connect it under Apps"),
        ));
    }
    Ok(())
}

/// Registers the public source `key` (once for everyone), with the catalogue's feed and title.
/// The caller has checked `key` ([`check_public_key`]).
async fn register_public(ctx: &Context, viewer: &Viewer, key: &str) -> Result<()> {
    let key = key.trim();
    ctx.bus
        .execute(
            &ctx.bus.sources,
            key,
            SourceCommand::Register {
                kind: SourceKind::Public,
                key: key.to_string(),
                // A catalogue entry with a feed is fetched like any feed (its first one).
                url: ctx.catalogue.get(key).and_then(|e| e.feed_urls.first()).map(|u| u.to_string()),
                label: ctx.catalogue.title(key),
                provisional: false,
            },
            &viewer.metadata(),
        )
        .await?;
    Ok(())
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Followed {
    pub source_id: String,
    pub following: bool,
}

/// Follows the public source `key`; with `delink`, unfollows it.
pub async fn connect_public(ctx: &Context, viewer: &Viewer, key: &str, delink: bool) -> Result<Followed> {
    let key = key.trim().to_string();
    let cursor = if delink {
        unfollow(ctx, viewer, &key).await?
    } else {
        check_public_key(ctx, &key)?;
        register_public(ctx, viewer, &key).await?;
        follow(ctx, viewer, &key).await?
    };
    ctx.settle(cursor).await;
    Ok(Followed { following: !delink, source_id: key })
}

/// Follows 1 to 100 public sources at once.
pub async fn connect_public_many(ctx: &Context, viewer: &Viewer, keys: Vec<String>) -> Result<Vec<Followed>> {
    if keys.is_empty() || keys.len() > 100 {
        return Err(Error::invalid("invalid_keys", "give 1 to 100 source keys"));
    }
    // Every key is checked before any is followed, so a refusal follows none of them.
    for key in &keys {
        check_public_key(ctx, key)?;
    }
    let mut out = Vec::new();
    let mut last = None;
    for key in keys {
        register_public(ctx, viewer, &key).await?;
        last = follow(ctx, viewer, key.trim()).await?.or(last);
        out.push(Followed { source_id: key.trim().to_string(), following: true });
    }
    ctx.settle(last).await;
    Ok(out)
}

/// The RSS source as the spec lists it.
#[derive(Debug, Serialize, Deserialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RssSource {
    pub source_id: String,
    pub priority: String,
    pub key: String,
    pub label: String,
    pub link_to_crawl: Option<String>,
    pub thumbnail_location: Option<String>,
    /// When the source was last fetched successfully.
    pub last_fetched_at: Option<String>,
    /// Why the last fetches failed, while they keep failing.
    pub last_error: Option<String>,
    /// When the source is fetched next; while fetches fail, later each time (from a minute up to
    /// six hours), so a source that cannot be read is not hammered.
    pub next_attempt_at: Option<String>,
    /// When the source was last tried, whatever came of it; null before the first attempt.
    pub last_attempt_at: Option<String>,
}

/// Registers an RSS, Atom or JSON Feed address and follows it. Named `label`; without one, by
/// its host until the first fetch, when the feed's own title replaces it.
pub async fn follow_rss(ctx: &Context, viewer: &Viewer, address: &str, label: Option<String>) -> Result<RssSource> {
    let url = canonical_feed_url(address)?;
    check_fetchable(ctx, &url)?;
    let source_id = rss_source_id(&url);
    let label = label.map(|l| l.trim().to_string()).filter(|l| !l.is_empty());
    if label.as_ref().is_some_and(|l| l.chars().count() > domain::source::MAX_LABEL_CHARS) {
        return Err(Error::invalid("label_too_long", "a feed's name has at most 200 characters"));
    }
    let provisional = label.is_none();
    let label = label.unwrap_or_else(|| url.host_str().unwrap_or(url.as_str()).to_string());
    ctx.bus
        .execute(
            &ctx.bus.sources,
            &source_id,
            SourceCommand::Register {
                kind: SourceKind::Rss,
                key: url.to_string(),
                url: Some(url.to_string()),
                label,
                provisional,
            },
            &viewer.metadata(),
        )
        .await?;
    let cursor = follow(ctx, viewer, &source_id).await?;
    ctx.settle(cursor).await;
    rss_sources(ctx, &viewer.user_id, Some(&source_id))
        .await?
        .pop()
        .ok_or_else(|| Error::internal("a followed source is missing from its views"))
}

/// The RSS sources the user follows, by label; with `only`, just that one.
pub async fn rss_sources(ctx: &Context, user_id: &str, only: Option<&str>) -> Result<Vec<RssSource>> {
    Ok(ctx
        .db
        .fetch_all(
            "SELECT s.source_id, sub.priority, s.key, s.label, s.url AS link_to_crawl, \
             CAST(NULL AS TEXT) AS thumbnail_location, f.last_fetched_at, f.last_error, f.next_attempt_at, \
             f.last_attempt_at \
             FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
             LEFT JOIN source_fetch_state f ON f.source_id = s.source_id \
             WHERE sub.user_id = $1 AND s.kind = 'rss' AND ($2 = '' OR s.source_id = $2) ORDER BY s.label",
            args![user_id, only.unwrap_or("")],
        )
        .await?)
}

/// Asks for a followed RSS source to be fetched now rather than at its next attempt (after
/// failures, up to six hours away). Returns the source as it then stands; the fetch follows
/// within seconds, and its outcome shows in `last_attempt_at` and `last_error`.
pub async fn retry(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<RssSource> {
    let source = rss_sources(ctx, &viewer.user_id, Some(source_id))
        .await?
        .pop()
        .ok_or_else(|| Error::not_found("you do not follow this source"))?;
    if source.link_to_crawl.is_none() {
        return Err(Error::invalid("not_fetchable", "this source has no address to fetch"));
    }
    request_fetch(ctx, viewer, source_id).await?;
    rss_sources(ctx, &viewer.user_id, Some(source_id))
        .await?
        .pop()
        .ok_or_else(|| Error::not_found("you do not follow this source"))
}

/// Makes a source the viewer follows due now rather than at its next attempt, and waits for the
/// read models to say so.
pub async fn request_fetch(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<()> {
    ctx.command(
        &ctx.bus.subscriptions,
        &subscription_id(&viewer.user_id, source_id),
        SubscriptionCommand::RequestFetch,
        &viewer.metadata(),
    )
    .await?;
    Ok(())
}

/// Changes how prominently one followed source shows.
pub async fn set_priority(ctx: &Context, viewer: &Viewer, source_id: &str, priority: Priority) -> Result<RssSource> {
    ctx.command(
        &ctx.bus.subscriptions,
        &subscription_id(&viewer.user_id, source_id),
        SubscriptionCommand::SetPriority(priority),
        &viewer.metadata(),
    )
    .await?;
    rss_sources(ctx, &viewer.user_id, Some(source_id))
        .await?
        .pop()
        .ok_or_else(|| Error::not_found("you do not follow this source"))
}

/// Changes the priority of 1 to [`MAX_BULK_PRIORITY`] followed sources at once. Returns every
/// RSS source the user follows.
pub async fn set_priorities(
    ctx: &Context,
    viewer: &Viewer,
    source_ids: &[String],
    priority: Priority,
) -> Result<Vec<RssSource>> {
    if source_ids.is_empty() || source_ids.len() > MAX_BULK_PRIORITY {
        return Err(Error::invalid("too_many_sources", "Please select 50 or less sources to proceed"));
    }
    let mut last = None;
    for source_id in source_ids {
        last = ctx
            .bus
            .execute(
                &ctx.bus.subscriptions,
                &subscription_id(&viewer.user_id, source_id),
                SubscriptionCommand::SetPriority(priority),
                &viewer.metadata(),
            )
            .await?
            .or(last);
    }
    ctx.settle(last).await;
    rss_sources(ctx, &viewer.user_id, None).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_feed_address_is_one_source_whatever_its_fragment() {
        let a = canonical_feed_url("https://Example.com/feed.xml#top").unwrap();
        let b = canonical_feed_url(" https://example.com/feed.xml ").unwrap();
        assert_eq!(rss_source_id(&a), rss_source_id(&b));
        assert!(canonical_feed_url("ftp://example.com/feed").is_err());
        assert!(canonical_feed_url("not a url").is_err());
    }
}
