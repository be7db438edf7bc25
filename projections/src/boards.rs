//! `boards_view` (each user's custom feeds), `board_matches_view` (the new documents each feed
//! matched as they arrived) and `board_feedback_view` (more / less like this on AI feeds'
//! documents), from the board aggregates; `feed_templates_view` (the templates an administrator
//! offers), from the feed-templates aggregate.
//!
//! A definition is kept as JSON and changed by [`BoardDefinition::apply`], the function the
//! aggregate itself uses, so the view and the aggregate read every edit alike.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::board::{Alerts, Board, BoardDefinition, BoardEvent, MatchDay, MatchDayEvent, Priority};
use domain::feed_template::{FeedTemplate, FeedTemplates, FeedTemplatesEvent};

use crate::people::priority_str;
use crate::runner::Projection;

pub struct Boards;

/// Returns how an alert mode is stored and answered.
pub fn alerts_str(alerts: Alerts) -> &'static str {
    match alerts {
        Alerts::Off => "off",
        Alerts::Immediate => "immediate",
        Alerts::Digest => "digest",
    }
}

/// Returns whether a definition is an AI feed's: one that follows companies or topics, or says so.
pub fn kind_of(definition: &BoardDefinition) -> &'static str {
    let some = |v: &serde_json::Value| match v {
        serde_json::Value::Null => false,
        serde_json::Value::Array(a) => !a.is_empty(),
        serde_json::Value::Object(o) => !o.is_empty(),
        serde_json::Value::String(s) => !s.is_empty(),
        _ => true,
    };
    let typed_ai = definition.feed_type.as_deref().is_some_and(|t| t.to_lowercase().contains("ai"));
    if typed_ai || some(&definition.companies) || some(&definition.topics) {
        "ai"
    } else {
        "keyword"
    }
}

async fn definition_of(tx: &mut Tx, board_id: &str) -> anyhow::Result<Option<BoardDefinition>> {
    let row: Option<(String,)> =
        tx.fetch_optional("SELECT definition FROM boards_view WHERE board_id = $1", args![board_id]).await?;
    Ok(match row {
        Some((json,)) => Some(serde_json::from_str(&json)?),
        None => None,
    })
}

async fn store_definition(tx: &mut Tx, board_id: &str, definition: &BoardDefinition, time: &str) -> anyhow::Result<()> {
    tx.write(
        "UPDATE boards_view SET definition = $2, name = $3, description = $4, kind = $5, updated_at = $6 \
         WHERE board_id = $1",
        args![
            board_id,
            serde_json::to_string(definition)?,
            definition.name.as_str(),
            definition.description.as_str(),
            kind_of(definition),
            time
        ],
    )
    .await?;
    Ok(())
}

impl Boards {
    async fn board(&self, tx: &mut Tx, event: &StoredEvent, time: String) -> anyhow::Result<()> {
        let board_id = event.aggregate_id.as_str();
        let payload: BoardEvent = event.decode()?;
        match &payload {
            BoardEvent::BoardCreated { user_id, definition, enabled, duplicated_from } => {
                tx.write(
                    "INSERT INTO boards_view (board_id, user_id, name, description, kind, definition, enabled, alerts, \
                     priority, duplicated_from, created_at, updated_at, position) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12) ON CONFLICT (board_id) DO NOTHING",
                    args![
                        board_id,
                        user_id.as_str(),
                        definition.name.as_str(),
                        definition.description.as_str(),
                        kind_of(definition),
                        serde_json::to_string(definition)?,
                        *enabled,
                        alerts_str(Alerts::Off),
                        priority_str(Priority::Medium),
                        duplicated_from.clone(),
                        time,
                        event.cursor.pos
                    ],
                )
                .await?;
            }
            BoardEvent::BoardEdited { undo, .. } => {
                // The definition as it stands is what an undo of this edit returns to; after an
                // undo there is nothing left to undo.
                let sql = if *undo {
                    "UPDATE boards_view SET previous_definition = NULL WHERE board_id = $1"
                } else {
                    "UPDATE boards_view SET previous_definition = definition WHERE board_id = $1"
                };
                tx.write(sql, args![board_id]).await?;
            }
            BoardEvent::BoardEnabled { .. } | BoardEvent::BoardDisabled { .. } => {
                let enabled = matches!(payload, BoardEvent::BoardEnabled { .. });
                tx.write(
                    "UPDATE boards_view SET enabled = $2, updated_at = $3 WHERE board_id = $1",
                    args![board_id, enabled, time],
                )
                .await?;
            }
            BoardEvent::BoardAlertsSet { alerts, priority, .. } => {
                tx.write(
                    "UPDATE boards_view SET alerts = $2, priority = $3, updated_at = $4 WHERE board_id = $1",
                    args![board_id, alerts_str(*alerts), priority_str(*priority), time],
                )
                .await?;
            }
            BoardEvent::BoardDeleted { .. } => {
                tx.write("DELETE FROM boards_view WHERE board_id = $1", args![board_id]).await?;
                tx.write("DELETE FROM board_matches_view WHERE board_id = $1", args![board_id]).await?;
                tx.write("DELETE FROM board_feedback_view WHERE board_id = $1", args![board_id]).await?;
            }
            BoardEvent::BoardFeedbackGiven { user_id, deeplink, more } => {
                tx.write(
                    "INSERT INTO board_feedback_view (board_id, deeplink, user_id, more, given_at) \
                     VALUES ($1, $2, $3, $4, $5) \
                     ON CONFLICT (board_id, deeplink) DO UPDATE SET more = $4, given_at = $5",
                    args![board_id, deeplink.as_str(), user_id.as_str(), *more, time.as_str()],
                )
                .await?;
                // The feed's documents change with it: the feed matcher rebuilds its rules when
                // a feed's updated_at moves.
                tx.write("UPDATE boards_view SET updated_at = $2 WHERE board_id = $1", args![board_id, time]).await?;
            }
            change => {
                if let Some(mut definition) = definition_of(tx, board_id).await? {
                    definition.apply(change);
                    store_definition(tx, board_id, &definition, &time).await?;
                }
            }
        }
        Ok(())
    }

    async fn matches(&self, tx: &mut Tx, event: &StoredEvent, time: String) -> anyhow::Result<()> {
        match event.decode::<MatchDayEvent>()? {
            MatchDayEvent::BoardMatched { user_id, board_id, matches, .. } => {
                for m in matches {
                    tx.write(
                        "INSERT INTO board_matches_view (board_id, deeplink, user_id, story, matched_at) \
                         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (board_id, deeplink) DO NOTHING",
                        args![board_id.as_str(), m.deeplink, user_id.as_str(), m.story, time.as_str()],
                    )
                    .await?;
                }
            }
            MatchDayEvent::BoardDigestSent { board_id, matches, .. } => {
                for m in matches {
                    tx.write(
                        "UPDATE board_matches_view SET notified_at = $3 WHERE board_id = $1 AND deeplink = $2",
                        args![board_id.as_str(), m.deeplink, time.as_str()],
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }
}

impl Boards {
    async fn templates(&self, tx: &mut Tx, event: &StoredEvent, time: String) -> anyhow::Result<()> {
        let payload: FeedTemplatesEvent = event.decode()?;
        match payload {
            FeedTemplatesEvent::FeedTemplateAdded { template, .. } => {
                let (next,): (i64,) = tx
                    .fetch_optional("SELECT COALESCE(MAX(position) + 1, 0) FROM feed_templates_view", args![])
                    .await?
                    .unwrap_or((0,));
                store_template(tx, &template, next, &time).await?;
            }
            FeedTemplatesEvent::FeedTemplateChanged { template, .. } => {
                let position: Option<(i64,)> = tx
                    .fetch_optional(
                        "SELECT position FROM feed_templates_view WHERE template_id = $1",
                        args![template.id.as_str()],
                    )
                    .await?;
                store_template(tx, &template, position.map_or(0, |p| p.0), &time).await?;
            }
            FeedTemplatesEvent::FeedTemplateRemoved { template_id, .. } => {
                tx.write("DELETE FROM feed_templates_view WHERE template_id = $1", args![template_id.as_str()]).await?;
            }
            FeedTemplatesEvent::FeedTemplatesOrdered { template_ids, .. } => {
                for (position, id) in template_ids.iter().enumerate() {
                    tx.write(
                        "UPDATE feed_templates_view SET position = $2 WHERE template_id = $1",
                        args![id.as_str(), position as i64],
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }
}

async fn store_template(tx: &mut Tx, template: &FeedTemplate, position: i64, time: &str) -> anyhow::Result<()> {
    let definition = &template.definition;
    tx.write(
        "INSERT INTO feed_templates_view (template_id, position, name, description, definition, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (template_id) DO UPDATE SET position = $2, name = $3, \
         description = $4, definition = $5, updated_at = $6",
        args![
            template.id.as_str(),
            position,
            definition.name.as_str(),
            definition.description.as_str(),
            serde_json::to_string(definition)?,
            time
        ],
    )
    .await?;
    Ok(())
}

#[async_trait]
impl Projection for Boards {
    fn name(&self) -> &'static str {
        "boards"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["boards_view", "board_matches_view", "board_feedback_view", "feed_templates_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Board::TYPE, MatchDay::TYPE, FeedTemplates::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        if event.aggregate_type == Board::TYPE {
            self.board(tx, event, time).await
        } else if event.aggregate_type == MatchDay::TYPE {
            self.matches(tx, event, time).await
        } else if event.aggregate_type == FeedTemplates::TYPE {
            self.templates(tx, event, time).await
        } else {
            Ok(())
        }
    }
}
