//! Feed templates (`/connect/getFeedTemplates`, `/connect/setFeedTemplates`): the ready-made
//! definitions the builder's template pages offer. An administrator's own templates come first,
//! in the order they were saved, then the built-in one per finance topic.
//!
//! An administrator saves the whole list at once. Every definition is checked as a feed's would
//! be (a name, valid keywords, something to follow) before anything is recorded.

use commands::args;
use domain::board::BoardDefinition;
use domain::feed_template::{FeedTemplate, FeedTemplatesCommand, FEED_TEMPLATES_ID};
use serde::{Deserialize, Serialize};

use super::{checked_here, choices};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::viewer::Viewer;

/// Where a template comes from: the instance's administrators, or Needl itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum TemplateKind {
    /// Saved by an administrator of this instance; changed with `setFeedTemplates`.
    Organization,
    /// One of the built-in templates, one per finance topic; never changed.
    Builtin,
}

/// A ready-made definition.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Template {
    pub id: String,
    pub name: String,
    pub description: String,
    pub kind: TemplateKind,
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub definition: BoardDefinition,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Templates {
    pub results: Vec<Template>,
}

/// One template as an administrator saves it. Without `id` it is a new template; with one, it
/// replaces the saved template of that id. `name` and `description`, when given, are the
/// definition's.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TemplateInput {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub definition: BoardDefinition,
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SetTemplatesBody {
    /// Every template the instance offers, in order: one left out is removed.
    pub templates: Vec<TemplateInput>,
}

/// The instance's templates, in order.
async fn saved(ctx: &Context) -> Result<Vec<(String, BoardDefinition)>> {
    let rows: Vec<(String, String)> = ctx
        .db
        .fetch_all("SELECT template_id, definition FROM feed_templates_view ORDER BY position, template_id", args![])
        .await?;
    rows.into_iter().map(|(id, json)| Ok((id, serde_json::from_str(&json).map_err(anyhow::Error::from)?))).collect()
}

fn template(id: String, definition: BoardDefinition, kind: TemplateKind) -> Template {
    Template { id, name: definition.name.clone(), description: definition.description.clone(), kind, definition }
}

/// Every template a member is offered: the instance's, then the built-in ones.
pub async fn templates(ctx: &Context, _viewer: &Viewer) -> Result<Templates> {
    let own = saved(ctx).await?.into_iter().map(|(id, d)| template(id, d, TemplateKind::Organization));
    let builtin = choices::topic_templates().map(|(id, d)| template(id, d, TemplateKind::Builtin));
    Ok(Templates { results: own.chain(builtin).collect() })
}

/// Replaces the instance's templates with `body.templates`, in that order (administrators only).
/// Refused as a whole, with nothing recorded, when one definition would be refused as a feed, two
/// share a name, or an id names no saved template.
pub async fn set_templates(ctx: &Context, viewer: &Viewer, body: SetTemplatesBody) -> Result<Templates> {
    viewer.require_admin()?;
    let current: Vec<String> = saved(ctx).await?.into_iter().map(|(id, _)| id).collect();
    let mut wanted = Vec::with_capacity(body.templates.len());
    for (i, input) in body.templates.into_iter().enumerate() {
        let id = match input.id.map(|id| id.trim().to_string()).filter(|id| !id.is_empty()) {
            Some(id) if current.contains(&id) => id,
            Some(_) => {
                return Err(Error::invalid(
                    "unknown_template",
                    format!("Template {} is not one of the saved templates; leave its id out to add it.", i + 1),
                ))
            }
            None => format!("org-{}", uuid::Uuid::now_v7()),
        };
        let mut definition = input.definition;
        if let Some(name) = input.name {
            definition.name = name;
        }
        if let Some(description) = input.description {
            definition.description = description;
        }
        let definition = checked_here(ctx, definition)
            .map_err(|e| Error { message: format!("Template {}: {}", i + 1, e.message), ..e })?;
        wanted.push(FeedTemplate { id, definition });
    }
    let command = FeedTemplatesCommand::Set { actor: viewer.user_id.clone(), templates: wanted };
    ctx.command(&ctx.bus.feed_templates, FEED_TEMPLATES_ID, command, &viewer.metadata()).await?;
    templates(ctx, viewer).await
}
