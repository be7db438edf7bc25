//! Following sources: catalogue entries, RSS URLs, and their priorities.

use axum::extract::{Path, State};
use commands::args;
use domain::source::{subscription_id, Priority, SourceCommand, SourceKind, SubscriptionCommand};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::AppState;
use crate::auth::AuthUser;
use crate::error::{ApiJson, ApiQuery, ApiResult, AppError, ErrorBody};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(connect_public))
        .routes(routes!(connect_public_multiple))
        .routes(routes!(connect_rss))
        .routes(routes!(list_rss))
        .routes(routes!(set_rss_priority))
        .routes(routes!(set_rss_priorities))
        .routes(routes!(list_public))
        .routes(routes!(rss_topics))
        .routes(routes!(rss_by_topic))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TopicSummary {
    pub key: String,
    pub title: String,
    /// Feeds suggested under it.
    pub count: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TopicList {
    pub results: Vec<TopicSummary>,
}

/// The topics under which RSS feeds are suggested.
#[utoipa::path(get, path = "/rss/topics", tag = "sources", security(("token" = [])),
    responses((status = 200, body = TopicList)))]
async fn rss_topics(State(state): State<AppState>, _user: AuthUser) -> ApiResult<ApiJson<TopicList>> {
    Ok(ApiJson(TopicList {
        results: state
            .catalogue
            .topics()
            .map(|t| TopicSummary { key: t.key.clone(), title: t.title.clone(), count: t.feeds.len() })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TopicQuery {
    pub topic: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestedFeed {
    pub url: String,
    pub label: String,
    /// The source id following it gives (or gave).
    pub source_id: String,
    pub following: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestedFeeds {
    pub key: String,
    pub title: String,
    pub results: Vec<SuggestedFeed>,
}

/// The RSS feeds suggested under a topic, with which the user already follows; follow one with
/// `POST /connect/rss`.
#[utoipa::path(get, path = "/rss", tag = "sources", security(("token" = [])), params(TopicQuery),
    responses((status = 200, body = SuggestedFeeds), (status = 404, body = ErrorBody)))]
async fn rss_by_topic(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<TopicQuery>,
) -> ApiResult<ApiJson<SuggestedFeeds>> {
    let topic =
        state.catalogue.topic(&query.topic).ok_or_else(|| AppError::not_found(format!("no topic {}", query.topic)))?;
    let followed = rss_sources(&state, &user.user_id, None).await?;
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
    Ok(ApiJson(SuggestedFeeds { key: topic.key.clone(), title: topic.title.clone(), results }))
}

/// A catalogue entry as the connect pages list it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PublicSource {
    pub key: String,
    pub title: String,
    /// `Indian Capital Markets`, `US Capital Markets`, or null.
    pub group: Option<String>,
    /// Whether the catalogue knows a feed to fetch for it.
    pub fetchable: bool,
    pub following: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PublicList {
    pub results: Vec<PublicSource>,
}

#[derive(sqlx::FromRow)]
struct FollowedKey {
    source_id: String,
}

/// The public source catalogue, with what the user follows.
#[utoipa::path(get, path = "/source/public", tag = "sources", security(("token" = [])),
    responses((status = 200, body = PublicList)))]
async fn list_public(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<PublicList>> {
    let followed: Vec<FollowedKey> = state
        .db
        .fetch_all(
            "SELECT sub.source_id FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
             WHERE sub.user_id = $1 AND s.kind = 'public'",
            args![user.user_id.as_str()],
        )
        .await?;
    let mut results: Vec<PublicSource> = state
        .catalogue
        .entries()
        .map(|entry| PublicSource {
            key: entry.key.clone(),
            title: entry.title.clone(),
            group: entry.group.map(|g| g.label().to_string()),
            fetchable: !entry.feed_urls.is_empty(),
            following: followed.iter().any(|f| f.source_id == entry.key),
        })
        .collect();
    results.sort_by(|a, b| a.title.cmp(&b.title));
    Ok(ApiJson(PublicList { results }))
}

/// Most sources one bulk priority change takes.
pub const MAX_BULK_PRIORITY: usize = 50;

/// Returns the canonical form of a feed URL: http(s) only, no fragment, lowercase host.
pub fn canonical_feed_url(raw: &str) -> Result<url::Url, AppError> {
    let mut parsed = url::Url::parse(raw.trim())
        .map_err(|_| AppError::invalid("invalid_url", "the feed address must be a valid URL"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(AppError::invalid("invalid_url", "the feed address must start with http:// or https://"));
    }
    // Refused rather than stripped: a feed that needs them would then fail later with a puzzling
    // 401, and a password kept in an event would stay in the log for ever.
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(AppError::invalid("credentials_in_url", "the address must not contain a user name or password"));
    }
    parsed.set_fragment(None);
    Ok(parsed)
}

/// Refuses an address this server will never fetch, when the address alone tells: a host that is
/// an IP literal in a blocked range, or `localhost`, unless the operator's allow-list
/// (`NEEDL_FETCH_ALLOW`) lets it through. A name resolving to such an address is refused when
/// fetched, and the source shows why.
pub fn check_fetchable(state: &AppState, url: &url::Url) -> Result<(), AppError> {
    match ingest::fetch::check_url(url, &state.fetch_guard) {
        Ok(()) => Ok(()),
        Err(ingest::FetchError::Blocked { host, reason, .. }) => Err(AppError::invalid(
            "address_not_allowed",
            format!("this server does not fetch {host}: it is a {} address", reason.as_str()),
        )),
        Err(other) => Err(AppError::invalid("invalid_url", other.to_string())),
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

/// Records that the user follows `source_id`.
pub(crate) async fn follow(state: &AppState, user: &AuthUser, source_id: &str) -> ApiResult<Option<commands::Cursor>> {
    Ok(state
        .bus
        .execute(
            &state.bus.subscriptions,
            &subscription_id(&user.user_id, source_id),
            SubscriptionCommand::Follow { user_id: user.user_id.clone(), source_id: source_id.to_string() },
            &user.metadata(),
        )
        .await?)
}

/// Records that the user no longer follows `source_id`.
pub(crate) async fn unfollow(
    state: &AppState,
    user: &AuthUser,
    source_id: &str,
) -> ApiResult<Option<commands::Cursor>> {
    Ok(state
        .bus
        .execute(
            &state.bus.subscriptions,
            &subscription_id(&user.user_id, source_id),
            SubscriptionCommand::Unfollow,
            &user.metadata(),
        )
        .await?)
}

async fn register_public(state: &AppState, user: &AuthUser, key: &str) -> ApiResult<()> {
    let key = key.trim();
    if key.is_empty() || key.len() > 128 || !key.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)) {
        return Err(AppError::invalid("invalid_key", "a source key has letters, digits, '_', '.' or '-'"));
    }
    state
        .bus
        .execute(
            &state.bus.sources,
            key,
            SourceCommand::Register {
                kind: SourceKind::Public,
                key: key.to_string(),
                // A catalogue entry with a feed is fetched like any feed (its first one).
                url: state.catalogue.get(key).and_then(|e| e.feed_urls.first()).map(|u| u.to_string()),
                label: state.catalogue.title(key),
            },
            &user.metadata(),
        )
        .await?;
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PublicKey {
    pub key: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DelinkQuery {
    /// `true` unfollows instead.
    pub delink: Option<bool>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Followed {
    pub source_id: String,
    pub following: bool,
}

/// Follows a public source by key; with `delink=true`, unfollows it.
#[utoipa::path(post, path = "/connect/public", tag = "sources", security(("token" = [])),
    params(DelinkQuery), request_body = PublicKey,
    responses((status = 200, body = Followed), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn connect_public(
    State(state): State<AppState>,
    user: AuthUser,
    ApiQuery(query): ApiQuery<DelinkQuery>,
    ApiJson(body): ApiJson<PublicKey>,
) -> ApiResult<ApiJson<Followed>> {
    let key = body.key.trim().to_string();
    let cursor = if query.delink.unwrap_or(false) {
        unfollow(&state, &user, &key).await?
    } else {
        register_public(&state, &user, &key).await?;
        follow(&state, &user, &key).await?
    };
    state.settle(cursor).await;
    Ok(ApiJson(Followed { following: !query.delink.unwrap_or(false), source_id: key }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PublicKeys {
    pub keys: Vec<String>,
}

/// Follows several public sources at once.
#[utoipa::path(post, path = "/connect/public/multiple", tag = "sources", security(("token" = [])),
    request_body = PublicKeys, responses((status = 200, body = Vec<Followed>), (status = 422, body = ErrorBody)))]
async fn connect_public_multiple(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<PublicKeys>,
) -> ApiResult<ApiJson<Vec<Followed>>> {
    if body.keys.is_empty() || body.keys.len() > 100 {
        return Err(AppError::invalid("invalid_keys", "give 1 to 100 source keys"));
    }
    let mut out = Vec::new();
    let mut last = None;
    for key in body.keys {
        register_public(&state, &user, &key).await?;
        last = follow(&state, &user, key.trim()).await?.or(last);
        out.push(Followed { source_id: key.trim().to_string(), following: true });
    }
    state.settle(last).await;
    Ok(ApiJson(out))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddRss {
    /// The feed's address (RSS, Atom or JSON Feed).
    pub url: String,
    /// A name to show; the address when absent.
    pub label: Option<String>,
}

/// The RSS source as the spec lists it.
#[derive(Debug, Serialize, Deserialize, ToSchema, sqlx::FromRow)]
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
}

/// Adds an RSS, Atom or JSON Feed address and follows it.
#[utoipa::path(post, path = "/connect/rss", tag = "sources", security(("token" = [])), request_body = AddRss,
    responses((status = 200, body = RssSource), (status = 422, body = ErrorBody)))]
async fn connect_rss(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<AddRss>,
) -> ApiResult<ApiJson<RssSource>> {
    let url = canonical_feed_url(&body.url)?;
    check_fetchable(&state, &url)?;
    let source_id = rss_source_id(&url);
    let label = body
        .label
        .filter(|l| !l.trim().is_empty())
        .unwrap_or_else(|| url.host_str().unwrap_or(url.as_str()).to_string());
    state
        .bus
        .execute(
            &state.bus.sources,
            &source_id,
            SourceCommand::Register { kind: SourceKind::Rss, key: url.to_string(), url: Some(url.to_string()), label },
            &user.metadata(),
        )
        .await?;
    let cursor = follow(&state, &user, &source_id).await?;
    state.settle(cursor).await;
    rss_sources(&state, &user.user_id, Some(&source_id))
        .await?
        .pop()
        .map(ApiJson)
        .ok_or_else(|| AppError::internal("a followed source is missing from its views"))
}

async fn rss_sources(state: &AppState, user_id: &str, only: Option<&str>) -> ApiResult<Vec<RssSource>> {
    Ok(state
        .db
        .fetch_all(
            "SELECT s.source_id, sub.priority, s.key, s.label, s.url AS link_to_crawl, \
             CAST(NULL AS TEXT) AS thumbnail_location, f.last_fetched_at, f.last_error, f.next_attempt_at \
             FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
             LEFT JOIN source_fetch_state f ON f.source_id = s.source_id \
             WHERE sub.user_id = $1 AND s.kind = 'rss' AND ($2 = '' OR s.source_id = $2) ORDER BY s.label",
            args![user_id, only.unwrap_or("")],
        )
        .await?)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RssList {
    pub results: Vec<RssSource>,
}

/// The RSS sources the user follows.
#[utoipa::path(get, path = "/source/rss", tag = "sources", security(("token" = [])),
    responses((status = 200, body = RssList)))]
async fn list_rss(State(state): State<AppState>, user: AuthUser) -> ApiResult<ApiJson<RssList>> {
    Ok(ApiJson(RssList { results: rss_sources(&state, &user.user_id, None).await? }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PriorityBody {
    /// HIGH, MEDIUM or LOW.
    #[schema(value_type = String)]
    pub priority: Priority,
}

/// Changes how prominently one followed source shows.
#[utoipa::path(put, path = "/source/rss/{source_id}", tag = "sources", security(("token" = [])),
    params(("source_id" = String, Path)), request_body = PriorityBody,
    responses((status = 200, body = RssSource), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_rss_priority(
    State(state): State<AppState>,
    user: AuthUser,
    Path(source_id): Path<String>,
    ApiJson(body): ApiJson<PriorityBody>,
) -> ApiResult<ApiJson<RssSource>> {
    state
        .command(
            &state.bus.subscriptions,
            &subscription_id(&user.user_id, &source_id),
            SubscriptionCommand::SetPriority(body.priority),
            &user.metadata(),
        )
        .await?;
    rss_sources(&state, &user.user_id, Some(&source_id))
        .await?
        .pop()
        .map(ApiJson)
        .ok_or_else(|| AppError::not_found("you do not follow this source"))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkPriority {
    pub source_ids: Vec<String>,
    #[schema(value_type = String)]
    pub priority: Priority,
}

/// Changes the priority of 1 to 50 followed sources at once.
#[utoipa::path(put, path = "/source/rss/priority", tag = "sources", security(("token" = [])),
    request_body = BulkPriority,
    responses((status = 200, body = RssList), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn set_rss_priorities(
    State(state): State<AppState>,
    user: AuthUser,
    ApiJson(body): ApiJson<BulkPriority>,
) -> ApiResult<ApiJson<RssList>> {
    if body.source_ids.is_empty() || body.source_ids.len() > MAX_BULK_PRIORITY {
        return Err(AppError::invalid("too_many_sources", "Please select 50 or less sources to proceed"));
    }
    let mut last = None;
    for source_id in &body.source_ids {
        last = state
            .bus
            .execute(
                &state.bus.subscriptions,
                &subscription_id(&user.user_id, source_id),
                SubscriptionCommand::SetPriority(body.priority),
                &user.metadata(),
            )
            .await?
            .or(last);
    }
    state.settle(last).await;
    Ok(ApiJson(RssList { results: rss_sources(&state, &user.user_id, None).await? }))
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
