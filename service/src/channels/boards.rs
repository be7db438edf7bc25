//! Feeds (boards) shared into a channel: list them, share or replace one (owners), take one out,
//! and make a feed and share it into several channels at once.

use std::collections::BTreeSet;

use commands::args;
use domain::channel::{BoardDefinition, ChannelCommand, ChannelError};
use serde::Serialize;
use serde_json::Value;

use super::refused;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::policy::visible_channel;
use crate::viewer::Viewer;

/// How many channels one [`create_and_share`] may share into.
const MAX_CHANNELS_PER_SHARE: usize = 20;

/// A feed shared into a channel, with the spec's fields.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ChannelBoard))]
pub struct Board {
    pub board_id: String,
    pub board_name: String,
    pub channel_id: String,
    pub created_at: String,
    pub updated_at: String,
    /// Shared feeds are always on.
    pub enabled: bool,
    /// Whether the feed was shared today (UTC).
    #[serde(rename = "isNew")]
    pub is_new: bool,
    pub shared_by: String,
    /// The feed's definition: name, description, keywords {include, exclude}, sources,
    /// secondary_sources, common, date_range, group, and for AI feeds companies, attributes,
    /// topics, currentTopic, type.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub definition: Value,
}

#[derive(sqlx::FromRow)]
struct BoardRow {
    board_id: String,
    name: String,
    channel_id: String,
    definition: String,
    shared_by: String,
    created_at: String,
    updated_at: String,
}

impl BoardRow {
    fn into_board(self, today: &str) -> Result<Board> {
        Ok(Board {
            is_new: self.created_at.starts_with(today),
            definition: serde_json::from_str(&self.definition).map_err(|e| Error::internal(format!("board: {e}")))?,
            board_id: self.board_id,
            board_name: self.name,
            channel_id: self.channel_id,
            created_at: self.created_at,
            updated_at: self.updated_at,
            enabled: true,
            shared_by: self.shared_by,
        })
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ChannelBoardList))]
pub struct BoardList {
    /// The first shared first.
    pub results: Vec<Board>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ChannelBoardResult))]
pub struct BoardResult {
    pub results: Board,
}

const BOARDS: &str = "SELECT board_id, name, channel_id, definition, shared_by, created_at, updated_at \
     FROM channel_boards_view WHERE channel_id = $1";

/// The feeds shared into `channel_id` (only `board_id`, when given), the first shared first.
async fn boards_of(ctx: &Context, channel_id: &str, board_id: Option<&str>) -> Result<Vec<Board>> {
    let rows: Vec<BoardRow> = ctx
        .db
        .fetch_all(
            &format!("{BOARDS} AND ($2 = '' OR board_id = $2) ORDER BY position, board_id"),
            args![channel_id, board_id.unwrap_or_default()],
        )
        .await?;
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    rows.into_iter().map(|row| row.into_board(&today)).collect()
}

/// The feeds shared into a channel the viewer sees.
pub async fn list(ctx: &Context, viewer: &Viewer, channel_id: &str) -> Result<BoardList> {
    visible_channel(ctx, &viewer.user_id, channel_id).await?;
    Ok(BoardList { results: boards_of(ctx, channel_id, None).await? })
}

async fn share_into(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    board_id: &str,
    definition: BoardDefinition,
) -> Result<Option<commands::Cursor>> {
    let command = ChannelCommand::ShareBoard {
        actor: viewer.user_id.clone(),
        board_id: board_id.to_string(),
        definition: Box::new(definition),
    };
    Ok(ctx.bus.execute(&ctx.bus.channels, channel_id, command, &viewer.metadata()).await?)
}

/// Shares a feed into a channel, or replaces the definition of the one shared before as
/// `board_id` (owners only); without a `board_id` a new feed is made. Answers the shared feed.
pub async fn share(
    ctx: &Context,
    viewer: &Viewer,
    channel_id: &str,
    board_id: Option<String>,
    definition: BoardDefinition,
) -> Result<BoardResult> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    access.require_owner()?;
    let board_id = crate::input::scope_id("board_id", board_id)?.unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    let cursor = share_into(ctx, viewer, channel_id, &board_id, definition).await?;
    ctx.settle(cursor).await;
    let board = boards_of(ctx, channel_id, Some(&board_id)).await?.into_iter().next();
    Ok(BoardResult { results: board.ok_or_else(|| Error::internal("a shared feed is not in the view"))? })
}

/// Takes a feed out of a channel (owners only).
pub async fn unshare(ctx: &Context, viewer: &Viewer, channel_id: &str, board_id: &str) -> Result<()> {
    let access = visible_channel(ctx, &viewer.user_id, channel_id).await?;
    access.require_owner()?;
    let command = ChannelCommand::UnshareBoard { actor: viewer.user_id.clone(), board_id: board_id.to_string() };
    ctx.command(&ctx.bus.channels, channel_id, command, &viewer.metadata()).await?;
    Ok(())
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedBoard {
    pub board_id: String,
    pub board_name: String,
    pub channel_ids: Vec<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedBoardResult {
    pub results: CreatedBoard,
}

/// Makes a feed from `definition` and shares it into `channel_ids` (1 to 20, each owned by the
/// viewer). Every channel is checked before anything is shared.
pub async fn create_and_share(
    ctx: &Context,
    viewer: &Viewer,
    channel_ids: Vec<String>,
    definition: BoardDefinition,
) -> Result<CreatedBoardResult> {
    let channel_ids: Vec<String> = channel_ids.into_iter().collect::<BTreeSet<_>>().into_iter().collect();
    if channel_ids.is_empty() || channel_ids.len() > MAX_CHANNELS_PER_SHARE {
        return Err(Error::invalid(
            "invalid_body",
            format!("name 1 to {MAX_CHANNELS_PER_SHARE} channels to share the feed into"),
        ));
    }
    let definition = definition.cleaned().map_err(|e| refused(ChannelError::Board(e)))?;
    for channel_id in &channel_ids {
        visible_channel(ctx, &viewer.user_id, channel_id).await?.require_owner()?;
    }
    let board_id = uuid::Uuid::now_v7().to_string();
    let mut cursor = None;
    for channel_id in &channel_ids {
        cursor = share_into(ctx, viewer, channel_id, &board_id, definition.clone()).await?.or(cursor);
    }
    ctx.settle(cursor).await;
    Ok(CreatedBoardResult { results: CreatedBoard { board_id, board_name: definition.name, channel_ids } })
}
