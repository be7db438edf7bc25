//! Read models as they stood at a point of the history, folded from the events of the
//! aggregates that hold their facts:
//!
//! - a channel's members and the comments on its documents: the `channel` aggregate and every
//!   `channel_document` of the channel (ids `CHANNEL/DEEPLINK`);
//! - a document's tags: every `document_tags` aggregate naming the document (a user's own,
//!   `USER/DEEPLINK`, and channels' shared ones, `channel:CHANNEL/DEEPLINK`), with tag names from
//!   the owners' `tag_book` events up to the same point;
//! - a user's sources: their `subscription` aggregates (ids `USER/SOURCE`).
//!
//! Names of people, channels, documents and sources come from today's read models, so the
//! answer reads like the app does; the facts themselves are the history's.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use commands::feed::{self, FeedFilter, StoredEvent};
use commands::{args, Db};
use serde::Serialize;
use serde_json::Value;

use super::history::{events_until, rebuild, resolve, Point, PointInput};
use super::{require_auditor, Names};
use crate::context::Context;
use crate::error::Result;
use crate::viewer::Viewer;

/// A person with their display name.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = PersonAsOf))]
pub struct Person {
    pub user_id: String,
    pub name: Option<String>,
}

async fn person(names: &mut Names, db: &Db, user_id: &str) -> Result<Person> {
    Ok(Person { user_id: user_id.to_string(), name: names.of(db, user_id).await? })
}

/// Groups `events` by aggregate id, keeping the ids in order.
fn by_aggregate(events: Vec<StoredEvent>) -> BTreeMap<String, Vec<StoredEvent>> {
    let mut groups: BTreeMap<String, Vec<StoredEvent>> = BTreeMap::new();
    for event in events {
        groups.entry(event.aggregate_id.clone()).or_default().push(event);
    }
    groups
}

fn of_type(aggregate_type: &str) -> FeedFilter {
    FeedFilter { aggregate_type: Some(aggregate_type.to_string()), ..FeedFilter::default() }
}

#[derive(sqlx::FromRow)]
struct NameRow {
    name: String,
}

async fn name_from(db: &Db, sql: &str, id: &str) -> Result<Option<String>> {
    let row: Option<NameRow> = db.fetch_optional(sql, args![id]).await?;
    Ok(row.map(|r| r.name))
}

// ---------------------------------------------------------------------------------------------
// A channel

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelMember {
    #[serde(flatten)]
    pub person: Person,
    pub role: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelComment {
    pub comment_id: String,
    pub author: Person,
    pub text: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ChannelItemAsOf))]
pub struct ChannelItem {
    pub deeplink: String,
    pub title: Option<String>,
    /// Who shared it, while it was shared; null when only its comments remain.
    pub shared_by: Option<Person>,
    pub comments: Vec<ChannelComment>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelAsOf {
    pub channel_id: String,
    /// The channel's name today.
    pub name: Option<String>,
    pub as_of: Point,
    pub published: bool,
    pub members: Vec<ChannelMember>,
    /// Documents shared or commented on, by deeplink.
    pub documents: Vec<ChannelItem>,
}

/// Channel `channel_id`'s members and documents with their comments at `point`.
pub async fn channel(ctx: &Context, viewer: &Viewer, channel_id: &str, point: &PointInput) -> Result<ChannelAsOf> {
    require_auditor(viewer)?;
    channel_in(&ctx.db, ctx.clock.now(), channel_id, point).await
}

/// [`channel`] without a viewer, for the operator.
pub async fn channel_in(db: &Db, now: DateTime<Utc>, channel_id: &str, point: &PointInput) -> Result<ChannelAsOf> {
    let (point, by_time) = resolve(db, now, point).await?;
    let filter = FeedFilter { aggregate_id: Some(channel_id.to_string()), ..of_type("channel") };
    let mut events = events_until(db, filter, &point, by_time, "channel").await?;
    let state = rebuild("channel", &mut events)?;
    let mut names = Names::default();
    let mut members = Vec::new();
    for (user_id, role) in state["members"].as_object().into_iter().flatten() {
        let role = role.as_str().unwrap_or_default().to_lowercase();
        members.push(ChannelMember { person: person(&mut names, db, user_id).await?, role });
    }
    let prefix = format!("{channel_id}/");
    let filter = FeedFilter {
        aggregate_id_prefix: Some(prefix.clone()),
        upto: Some(point.cursor),
        ..of_type("channel_document")
    };
    let mut documents = Vec::new();
    for (aggregate_id, mut events) in by_aggregate(feed::read_all_filtered(db, &filter).await?) {
        let state = rebuild("channel_document", &mut events)?;
        let deeplink = aggregate_id[prefix.len()..].to_string();
        let shared_by = match state["shared_by"].as_str() {
            Some(user_id) => Some(person(&mut names, db, user_id).await?),
            None => None,
        };
        let mut comments = Vec::new();
        for (comment_id, comment) in state["comments"].as_object().into_iter().flatten() {
            comments.push(ChannelComment {
                comment_id: comment_id.clone(),
                author: person(&mut names, db, comment["author"].as_str().unwrap_or_default()).await?,
                text: comment["text"].as_str().unwrap_or_default().to_string(),
            });
        }
        if shared_by.is_none() && comments.is_empty() {
            continue;
        }
        let title = name_from(db, "SELECT title AS name FROM documents_view WHERE deeplink = $1", &deeplink).await?;
        documents.push(ChannelItem { deeplink, title, shared_by, comments });
    }
    Ok(ChannelAsOf {
        channel_id: channel_id.to_string(),
        name: name_from(db, "SELECT name FROM channels_view WHERE channel_id = $1", channel_id).await?,
        as_of: point,
        published: state["published"].as_bool().unwrap_or_default(),
        members,
        documents,
    })
}

// ---------------------------------------------------------------------------------------------
// A document's tags

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TagAsOf {
    pub tag_id: String,
    /// The tag's name at that point (`bookmark` for the bookmark); null if no event names it.
    pub name: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TagScope {
    /// `user` for a person's own tags, `channel` for a channel's shared tags.
    pub scope: String,
    /// The user's or the channel's id.
    pub id: String,
    /// The user's display name or the channel's name today.
    pub name: Option<String>,
    pub tags: Vec<TagAsOf>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentTagsAsOf {
    pub deeplink: String,
    pub title: Option<String>,
    pub as_of: Point,
    /// The scopes with at least one tag on the document at that point.
    pub scopes: Vec<TagScope>,
}

/// The tags on document `deeplink`, in every scope, at `point`.
pub async fn document_tags(
    ctx: &Context,
    viewer: &Viewer,
    deeplink: &str,
    point: &PointInput,
) -> Result<DocumentTagsAsOf> {
    require_auditor(viewer)?;
    document_tags_in(&ctx.db, ctx.clock.now(), deeplink, point).await
}

/// The name tag `tag_id` had at `point`, from the last tag book event naming it.
async fn tag_name(db: &Db, tag_id: &str, point: &Point) -> Result<Option<String>> {
    if tag_id == domain::tag::BOOKMARK_TAG_ID {
        return Ok(Some(domain::tag::BOOKMARK_TAG_ID.to_string()));
    }
    let filter = FeedFilter {
        payload_field: Some(("tag_id", tag_id.to_string())),
        upto: Some(point.cursor),
        ..of_type("tag_book")
    };
    let events = feed::read_all_filtered(db, &filter).await?;
    Ok(events.last().and_then(|e| e.fields()["name"].as_str()).map(str::to_string))
}

/// [`document_tags`] without a viewer, for the operator.
pub async fn document_tags_in(
    db: &Db,
    now: DateTime<Utc>,
    deeplink: &str,
    point: &PointInput,
) -> Result<DocumentTagsAsOf> {
    let (point, by_time) = resolve(db, now, point).await?;
    let filter = FeedFilter { payload_field: Some(("deeplink", deeplink.to_string())), ..of_type("document_tags") };
    let events = events_until(db, filter, &point, by_time, "document's tags").await?;
    let mut names = Names::default();
    let mut scopes = Vec::new();
    for (_, mut events) in by_aggregate(events) {
        let first = events[0].fields().clone();
        let state = rebuild("document_tags", &mut events)?;
        let mut tags = Vec::new();
        for tag_id in state["tags"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            tags.push(TagAsOf { tag_id: tag_id.to_string(), name: tag_name(db, tag_id, &point).await? });
        }
        if tags.is_empty() {
            continue;
        }
        let scope = match first["channel_id"].as_str() {
            Some(channel_id) => TagScope {
                scope: "channel".into(),
                id: channel_id.to_string(),
                name: name_from(db, "SELECT name FROM channels_view WHERE channel_id = $1", channel_id).await?,
                tags,
            },
            None => {
                let user_id = first["user_id"].as_str().unwrap_or_default();
                TagScope { scope: "user".into(), id: user_id.to_string(), name: names.of(db, user_id).await?, tags }
            }
        };
        scopes.push(scope);
    }
    Ok(DocumentTagsAsOf {
        deeplink: deeplink.to_string(),
        title: name_from(db, "SELECT title AS name FROM documents_view WHERE deeplink = $1", deeplink).await?,
        as_of: point,
        scopes,
    })
}

// ---------------------------------------------------------------------------------------------
// A user's sources

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FollowedSource {
    pub source_id: String,
    /// The source's label today.
    pub label: Option<String>,
    /// HIGH, MEDIUM or LOW.
    pub priority: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UserSourcesAsOf {
    pub user: Person,
    pub as_of: Point,
    pub sources: Vec<FollowedSource>,
}

/// The sources user `user_id` followed at `point`.
pub async fn user_sources(
    ctx: &Context,
    viewer: &Viewer,
    user_id: &str,
    point: &PointInput,
) -> Result<UserSourcesAsOf> {
    require_auditor(viewer)?;
    user_sources_in(&ctx.db, ctx.clock.now(), user_id, point).await
}

/// [`user_sources`] without a viewer, for the operator.
pub async fn user_sources_in(
    db: &Db,
    now: DateTime<Utc>,
    user_id: &str,
    point: &PointInput,
) -> Result<UserSourcesAsOf> {
    let (point, by_time) = resolve(db, now, point).await?;
    let filter = FeedFilter { aggregate_id: Some(user_id.to_string()), ..of_type("user") };
    events_until(db, filter, &point, by_time, "user").await?;
    let filter = FeedFilter {
        aggregate_id_prefix: Some(format!("{user_id}/")),
        upto: Some(point.cursor),
        ..of_type("subscription")
    };
    let mut sources = Vec::new();
    for (_, mut events) in by_aggregate(feed::read_all_filtered(db, &filter).await?) {
        let state = rebuild("subscription", &mut events)?;
        if state["following"].as_bool() != Some(true) {
            continue;
        }
        let source_id = state["source_id"].as_str().unwrap_or_default().to_string();
        let label = name_from(db, "SELECT label AS name FROM sources_view WHERE source_id = $1", &source_id).await?;
        sources.push(FollowedSource { source_id, label, priority: state["priority"].as_str().map(str::to_string) });
    }
    let mut names = Names::default();
    Ok(UserSourcesAsOf { user: person(&mut names, db, user_id).await?, as_of: point, sources })
}
