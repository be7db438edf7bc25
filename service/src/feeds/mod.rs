//! Custom feeds (boards): each user's feed definitions, and what they match.
//!
//! - this module: the feed as the app lists and edits it: create, define (re-evaluated over the
//!   whole history at once, since documents are matched at read time), undo, enable, duplicate,
//!   delete, alerts, share into groups.
//! - [`documents`]: a feed's documents and a draft's preview, through the search index.
//! - [`alerts`]: the worker that matches arriving documents against every feed, places them in
//!   stories, records matches (alerts) and sends digests.
//! - [`topics`]: AI feeds' topics classified by the embedding model, and feedback on them.
//! - [`refine`]: a feed's sources and make-up, keyword suggestions, and AI-feed drafts.
//! - [`choices`]: what the builder offers (sources, categories, date ranges, templates) and the
//!   suggestions made from what the user reads, follows and tags.
//!
//! A feed is its owner's alone: commands go with the viewer as actor and the aggregate refuses
//! anyone else as not found; reads filter by the viewer.

pub mod alerts;
pub mod choices;
pub mod documents;
pub mod refine;
pub mod templates;
pub mod topics;

use commands::args;
use domain::board::{Alerts, BoardCommand, BoardDefinition, Priority};
use domain::plan::PricingKey;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::plans;
use crate::policy::{flag_on, require_flag};
use crate::viewer::Viewer;

/// How many feeds one user may have.
pub const MAX_FEEDS_PER_USER: i64 = 200;

pub fn board_not_found() -> Error {
    Error::new(Kind::NotFound, "board_not_found", "feed not found")
}

/// A group a feed is shared into.
#[derive(Debug, Clone, Serialize, sqlx::FromRow)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedChannel {
    pub id: String,
    pub name: String,
}

/// A feed as lists and the builder show it, with the spec's field names.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Board {
    pub board_id: String,
    pub board_name: String,
    pub description: String,
    pub created_at: String,
    pub updated_at: String,
    pub enabled: bool,
    /// Created today (UTC).
    #[serde(rename = "isNew")]
    pub is_new: bool,
    /// `keyword` or `ai`.
    pub kind: String,
    /// HIGH, MEDIUM or LOW: which feeds' alerts go first.
    pub priority: String,
    /// `off`, `immediate` or `digest`.
    pub alerts: String,
    /// The groups it is shared into.
    pub channels: Vec<FeedChannel>,
    /// Whether the last change of its definition may be undone.
    pub can_undo: bool,
    /// The definition: name, description, keywords {include, exclude}, sources,
    /// secondary_sources, common, date_range, group, and for AI feeds companies, attributes,
    /// topics, currentTopic, type.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub definition: Value,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardResult {
    pub results: Board,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardList {
    /// The newest first.
    pub results: Vec<Board>,
}

#[derive(sqlx::FromRow)]
struct BoardRow {
    board_id: String,
    name: String,
    description: String,
    kind: String,
    definition: String,
    can_undo: bool,
    enabled: bool,
    alerts: String,
    priority: String,
    created_at: String,
    updated_at: String,
}

const BOARDS: &str = "SELECT board_id, name, description, kind, definition, \
     CASE WHEN previous_definition IS NULL THEN FALSE ELSE TRUE END AS can_undo, \
     enabled, alerts, priority, created_at, updated_at FROM boards_view WHERE user_id = $1";

impl BoardRow {
    fn into_board(self, today: &str, channels: Vec<FeedChannel>) -> Result<Board> {
        Ok(Board {
            is_new: self.created_at.starts_with(today),
            definition: serde_json::from_str(&self.definition).map_err(|e| Error::internal(format!("board: {e}")))?,
            board_id: self.board_id,
            board_name: self.name,
            description: self.description,
            created_at: self.created_at,
            updated_at: self.updated_at,
            enabled: self.enabled,
            kind: self.kind,
            priority: self.priority,
            alerts: self.alerts,
            channels,
            can_undo: self.can_undo,
        })
    }
}

/// The groups each of the user's feeds is shared into (that the user still sees), by feed.
async fn channels_of(ctx: &Context, user_id: &str, board_id: Option<&str>) -> Result<Vec<(String, FeedChannel)>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        board_id: String,
        id: String,
        name: String,
    }
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            "SELECT b.board_id, c.channel_id AS id, c.name FROM channel_boards_view b \
             JOIN boards_view f ON f.board_id = b.board_id AND f.user_id = $1 \
             JOIN channels_view c ON c.channel_id = b.channel_id \
             WHERE ($2 = '' OR b.board_id = $2) ORDER BY c.name",
            args![user_id, board_id.unwrap_or_default()],
        )
        .await?;
    Ok(rows.into_iter().map(|r| (r.board_id, FeedChannel { id: r.id, name: r.name })).collect())
}

fn today(ctx: &Context) -> String {
    ctx.clock.now().format("%Y-%m-%d").to_string()
}

/// The viewer's feeds, newest first; with `is_pricing` on, only the enabled ones.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<BoardList> {
    plans::require(ctx, viewer, &[PricingKey::ViewMyfeeds]).await?;
    let only_enabled = flag_on(ctx, &viewer.user_id, "is_pricing").await?;
    let rows: Vec<BoardRow> = ctx
        .db
        .fetch_all(
            &format!("{BOARDS} AND ($2 = FALSE OR enabled = TRUE) ORDER BY position DESC"),
            args![viewer.user_id.as_str(), only_enabled],
        )
        .await?;
    let mut channels: std::collections::HashMap<String, Vec<FeedChannel>> = std::collections::HashMap::new();
    for (board_id, channel) in channels_of(ctx, &viewer.user_id, None).await? {
        channels.entry(board_id).or_default().push(channel);
    }
    let today = today(ctx);
    rows.into_iter()
        .map(|row| {
            let shared = channels.remove(&row.board_id).unwrap_or_default();
            row.into_board(&today, shared)
        })
        .collect::<Result<Vec<_>>>()
        .map(|results| BoardList { results })
}

/// One of the viewer's feeds.
pub async fn get(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<Board> {
    let row: BoardRow = ctx
        .db
        .fetch_optional(&format!("{BOARDS} AND board_id = $2"), args![viewer.user_id.as_str(), board_id])
        .await?
        .ok_or_else(board_not_found)?;
    let channels = channels_of(ctx, &viewer.user_id, Some(board_id)).await?.into_iter().map(|(_, c)| c).collect();
    row.into_board(&today(ctx), channels)
}

/// The stored definition of one of the viewer's feeds.
pub async fn definition(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<BoardDefinition> {
    let board = get(ctx, viewer, board_id).await?;
    serde_json::from_value(board.definition).map_err(|e| Error::internal(format!("board: {e}")))
}

/// What the builder sends to make or change a feed.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DefinitionBody {
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub definition: BoardDefinition,
    /// New feeds only: on (the default) or off.
    #[serde(default)]
    pub enabled: Option<bool>,
}

/// Refuses a definition that would follow everything the user reads, or whose parts do not
/// hold together; answers it cleaned.
pub fn checked(definition: BoardDefinition) -> Result<BoardDefinition> {
    let definition = definition.cleaned().map_err(|e| crate::error::from_domain(&e))?;
    documents::filters(&definition)?;
    Ok(definition)
}

/// As [`checked`]; with the embedding model loaded, a topic of the user's own is also something
/// to follow (without it such a topic matches nothing, so it does not count).
pub fn checked_here(ctx: &Context, definition: BoardDefinition) -> Result<BoardDefinition> {
    if ctx.semantic.is_some() && topics::has_user_topics(&definition) {
        let definition = definition.cleaned().map_err(|e| crate::error::from_domain(&e))?;
        domain::feed_rules::Filters::of(&definition).map_err(|e| crate::error::from_domain(&e))?;
        return Ok(definition);
    }
    checked(definition)
}

pub(crate) async fn create_board(
    ctx: &Context,
    viewer: &Viewer,
    definition: BoardDefinition,
    enabled: bool,
    duplicated_from: Option<String>,
) -> Result<Board> {
    let gated: &[PricingKey] =
        if enabled { &[PricingKey::AddFeed, PricingKey::EnableFeed] } else { &[PricingKey::AddFeed] };
    plans::require(ctx, viewer, gated).await?;
    let count: (i64,) = ctx
        .db
        .fetch_optional("SELECT COUNT(*) FROM boards_view WHERE user_id = $1", args![viewer.user_id.as_str()])
        .await?
        .unwrap_or((0,));
    if count.0 >= MAX_FEEDS_PER_USER {
        return Err(Error::invalid("too_many_feeds", format!("You can have at most {MAX_FEEDS_PER_USER} feeds.")));
    }
    let board_id = uuid::Uuid::now_v7().to_string();
    let command = BoardCommand::Create {
        owner: viewer.user_id.clone(),
        definition: Box::new(definition),
        enabled,
        duplicated_from,
    };
    ctx.command(&ctx.bus.boards, &board_id, command, &viewer.metadata()).await?;
    get(ctx, viewer, &board_id).await
}

/// Makes a feed (flag `my_feeds`).
pub async fn create(ctx: &Context, viewer: &Viewer, body: DefinitionBody) -> Result<BoardResult> {
    require_flag(ctx, viewer, "my_feeds", "Custom feeds are not available for your account.").await?;
    let definition = checked_here(ctx, body.definition)?;
    Ok(BoardResult { results: create_board(ctx, viewer, definition, body.enabled.unwrap_or(true), None).await? })
}

/// Changes a feed's definition; its documents are those of the new definition at once, over the
/// whole history. The change may be undone.
pub async fn define(
    ctx: &Context,
    viewer: &Viewer,
    board_id: &str,
    definition: BoardDefinition,
) -> Result<BoardResult> {
    let definition = checked_here(ctx, definition)?;
    let command = BoardCommand::Define { actor: viewer.user_id.clone(), definition: Box::new(definition) };
    ctx.command(&ctx.bus.boards, board_id, command, &viewer.metadata()).await?;
    Ok(BoardResult { results: get(ctx, viewer, board_id).await? })
}

/// Goes back to the definition before the last change.
pub async fn undo(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<BoardResult> {
    ctx.command(&ctx.bus.boards, board_id, BoardCommand::Undo { actor: viewer.user_id.clone() }, &viewer.metadata())
        .await?;
    Ok(BoardResult { results: get(ctx, viewer, board_id).await? })
}

/// Turns a feed on or off.
pub async fn enable(ctx: &Context, viewer: &Viewer, board_id: &str, enabled: bool) -> Result<BoardResult> {
    if enabled && !get(ctx, viewer, board_id).await?.enabled {
        plans::require(ctx, viewer, &[PricingKey::EnableFeed]).await?;
    }
    let command = BoardCommand::Enable { actor: viewer.user_id.clone(), enabled };
    ctx.command(&ctx.bus.boards, board_id, command, &viewer.metadata()).await?;
    Ok(BoardResult { results: get(ctx, viewer, board_id).await? })
}

/// What a copy's name ends with.
const COPY_SUFFIX: &str = " (copy)";

/// Makes a copy of a feed named "{name} (copy)", on or off as the original is; its alerts start
/// off and it is shared nowhere.
pub async fn duplicate(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<BoardResult> {
    let original = get(ctx, viewer, board_id).await?;
    let mut definition: BoardDefinition =
        serde_json::from_value(original.definition).map_err(|e| Error::internal(format!("board: {e}")))?;
    let room = domain::board::MAX_BOARD_NAME_CHARS - COPY_SUFFIX.chars().count();
    definition.name = format!("{}{COPY_SUFFIX}", definition.name.chars().take(room).collect::<String>().trim_end());
    let board = create_board(ctx, viewer, definition, original.enabled, Some(board_id.to_string())).await?;
    Ok(BoardResult { results: board })
}

/// Deletes a feed. Its history stays in the event store.
pub async fn delete(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<()> {
    ctx.command(&ctx.bus.boards, board_id, BoardCommand::Delete { actor: viewer.user_id.clone() }, &viewer.metadata())
        .await?;
    Ok(())
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AlertsBody {
    /// `off`, `immediate` or `digest`.
    pub alerts: String,
    /// HIGH, MEDIUM or LOW (default MEDIUM).
    #[serde(default)]
    pub priority: Option<String>,
}

pub(crate) fn parse_alerts(alerts: &str) -> Result<Alerts> {
    match alerts {
        "off" => Ok(Alerts::Off),
        "immediate" => Ok(Alerts::Immediate),
        "digest" => Ok(Alerts::Digest),
        other => {
            Err(Error::invalid("invalid_alerts", format!("Unknown alert mode {other}: use off, immediate or digest.")))
        }
    }
}

pub(crate) fn parse_priority(priority: Option<&str>) -> Result<Priority> {
    match priority.unwrap_or("MEDIUM").to_uppercase().as_str() {
        "HIGH" => Ok(Priority::High),
        "MEDIUM" => Ok(Priority::Medium),
        "LOW" => Ok(Priority::Low),
        other => Err(Error::invalid("invalid_priority", format!("Unknown priority {other}: use HIGH, MEDIUM or LOW."))),
    }
}

/// Sets how a feed alerts on new matches, and its priority.
pub async fn set_alerts(ctx: &Context, viewer: &Viewer, board_id: &str, body: AlertsBody) -> Result<BoardResult> {
    let alerts = parse_alerts(&body.alerts)?;
    let priority = parse_priority(body.priority.as_deref())?;
    let command = BoardCommand::SetAlerts { actor: viewer.user_id.clone(), alerts, priority };
    ctx.command(&ctx.bus.boards, board_id, command, &viewer.metadata()).await?;
    Ok(BoardResult { results: get(ctx, viewer, board_id).await? })
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedChannels {
    pub results: Vec<FeedChannel>,
}

/// The groups a feed is shared into.
pub async fn channels(ctx: &Context, viewer: &Viewer, board_id: &str) -> Result<FeedChannels> {
    Ok(FeedChannels { results: get(ctx, viewer, board_id).await?.channels })
}

/// Shares a feed into groups the viewer owns (its definition as it is now; each member then sees
/// the documents of it they may read themselves).
pub async fn share(ctx: &Context, viewer: &Viewer, board_id: &str, channel_ids: Vec<String>) -> Result<FeedChannels> {
    let definition = definition(ctx, viewer, board_id).await?;
    if channel_ids.is_empty() || channel_ids.len() > 20 {
        return Err(Error::invalid("invalid_body", "name 1 to 20 groups to share the feed into"));
    }
    for channel_id in &channel_ids {
        crate::policy::visible_channel(ctx, &viewer.user_id, channel_id).await?.require_owner()?;
    }
    for channel_id in &channel_ids {
        crate::channels::boards::share(ctx, viewer, channel_id, Some(board_id.to_string()), definition.clone()).await?;
    }
    channels(ctx, viewer, board_id).await
}

/// One of the user's feeds, and whether it includes a given source.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SourceBoard {
    pub board_id: String,
    pub board_name: String,
    pub selected: bool,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SourceBoards {
    pub results: Vec<SourceBoard>,
}

/// Whether `definition` includes `source_id` as a source of its own.
fn includes_source(definition: &Value, source_id: &str) -> bool {
    definition["sources"][source_id]["filter"].as_bool().unwrap_or(false)
}

/// The source, if the viewer may build feeds on it; not found otherwise.
async fn readable_source(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<()> {
    if source_id == crate::documents::DRIVE_SOURCE {
        return Ok(());
    }
    let sources = choices::readable_sources(ctx, &viewer.user_id).await?;
    if sources.iter().any(|s| s.source_id == source_id) {
        Ok(())
    } else {
        Err(Error::not_found("source not found"))
    }
}

/// The viewer's feeds, each saying whether it includes `source_id` ("Add to Feeds").
pub async fn source_boards(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<SourceBoards> {
    readable_source(ctx, viewer, source_id).await?;
    let boards = list(ctx, viewer).await?.results;
    Ok(SourceBoards {
        results: boards
            .into_iter()
            .map(|b| SourceBoard {
                selected: includes_source(&b.definition, source_id),
                board_id: b.board_id,
                board_name: b.board_name,
            })
            .collect(),
    })
}

/// Makes exactly `board_ids` of the viewer's feeds include `source_id`: it is added to those
/// that lack it and taken out of the others. Every id is checked before anything changes.
pub async fn set_source_boards(
    ctx: &Context,
    viewer: &Viewer,
    source_id: &str,
    board_ids: Vec<String>,
) -> Result<SourceBoards> {
    readable_source(ctx, viewer, source_id).await?;
    let boards = list(ctx, viewer).await?.results;
    if let Some(unknown) = board_ids.iter().find(|id| !boards.iter().any(|b| &b.board_id == *id)) {
        return Err(Error::new(Kind::NotFound, "board_not_found", format!("feed {unknown} not found")));
    }
    for board in boards {
        let wanted = board_ids.contains(&board.board_id);
        if wanted == includes_source(&board.definition, source_id) {
            continue;
        }
        let mut definition: BoardDefinition =
            serde_json::from_value(board.definition).map_err(|e| Error::internal(format!("board: {e}")))?;
        let mut sources = match definition.sources.take() {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        if wanted {
            sources.insert(source_id.to_string(), serde_json::json!({"filter": true}));
        } else {
            sources.remove(source_id);
        }
        definition.sources = Value::Object(sources);
        define(ctx, viewer, &board.board_id, definition).await?;
    }
    source_boards(ctx, viewer, source_id).await
}
