//! What the user's data is made of: the category index behind My Data's tabs (with counts, and
//! whether each is connected), and the private and personal-store (needlbox) sources.
//!
//! A tab counts the documents its list shows: the documents the read policy puts in the user's
//! own data ([`visible_condition`]), in the tab's sub-category. The Notes tab counts notes.

use commands::args;
use serde::Serialize;

use crate::context::Context;
use crate::documents::{sub_category_condition, ASK_SOURCE, DRIVE_SOURCE, SUB_CATEGORIES};
use crate::error::Result;
use crate::policy::visible_condition;

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubCategory {
    pub key: String,
    pub label: String,
    /// Documents the user can read in it (for `notes`, the user's notes).
    pub count: i64,
    /// Whether the user has a source of this kind (followed feeds, uploads, ...).
    pub connected: bool,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Category {
    pub key: String,
    pub label: String,
    pub sources: Vec<SubCategory>,
}

#[derive(sqlx::FromRow)]
struct Count {
    n: i64,
}

async fn count(ctx: &Context, sql: &str, user_id: &str) -> Result<i64> {
    let row: Option<Count> = ctx.db.fetch_optional(sql, args![user_id]).await?;
    Ok(row.map_or(0, |r| r.n))
}

/// The documents in the user's own data that meet `condition` (on `d` and its source `s`).
async fn documents_in(ctx: &Context, user_id: &str, condition: &str) -> Result<i64> {
    let sql = format!(
        concat!(
            "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM documents_view d \
             LEFT JOIN sources_view s ON s.source_id = d.source_id WHERE ({}) AND ",
            visible_condition!()
        ),
        condition
    );
    count(ctx, &sql, user_id).await
}

/// The user's notes, in all their notebooks (a deleted notebook's notes are gone with it).
async fn notes_of(ctx: &Context, user_id: &str) -> Result<i64> {
    count(ctx, "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM notes_view WHERE user_id = $1", user_id).await
}

/// Whether the user follows a source of one of `kinds`.
async fn follows_kind(ctx: &Context, user_id: &str, kinds: &str) -> Result<bool> {
    let sql = format!(
        "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
         WHERE sub.user_id = $1 AND s.kind IN ({kinds})"
    );
    Ok(count(ctx, &sql, user_id).await? > 0)
}

/// The category index: My Data's sub-categories with counts and whether each is connected, so
/// the app lands on the first connected one; and the apps (the drive).
pub async fn categories(ctx: &Context, user_id: &str) -> Result<Vec<Category>> {
    let mut feeds = Vec::new();
    for (key, label) in SUB_CATEGORIES {
        let count = match (*key, sub_category_condition(key)) {
            // Notes are not documents: the tab counts the user's own notes.
            ("notes", _) => notes_of(ctx, user_id).await?,
            (_, Some(condition)) => documents_in(ctx, user_id, &condition).await?,
            (_, None) => 0,
        };
        let connected = match *key {
            "rss_news" => follows_kind(ctx, user_id, "'rss', 'website'").await?,
            "exchanges" => follows_kind(ctx, user_id, "'public'").await?,
            "drives" | "notes" => count > 0,
            _ => false,
        };
        feeds.push(SubCategory { key: key.to_string(), label: label.to_string(), count, connected });
    }
    let drive = drive_entry(ctx, user_id).await?;
    Ok(vec![
        Category { key: "feeds".into(), label: "My Data".into(), sources: feeds },
        Category { key: "apps".into(), label: "Apps".into(), sources: vec![drive] },
    ])
}

async fn owned_in(ctx: &Context, user_id: &str, source: &str) -> Result<i64> {
    documents_in(ctx, user_id, &format!("d.owner = $1 AND d.source_id = '{source}'")).await
}

async fn drive_entry(ctx: &Context, user_id: &str) -> Result<SubCategory> {
    // The drive is always there to upload to.
    Ok(SubCategory {
        key: DRIVE_SOURCE.into(),
        label: "Needl Drive".into(),
        count: owned_in(ctx, user_id, DRIVE_SOURCE).await?,
        connected: true,
    })
}

/// Sources only the user reads: their drive, and their assistant attachments when they have any.
pub async fn private_sources(ctx: &Context, user_id: &str) -> Result<Vec<SubCategory>> {
    let mut results = vec![drive_entry(ctx, user_id).await?];
    let attachments = owned_in(ctx, user_id, ASK_SOURCE).await?;
    if attachments > 0 {
        results.push(SubCategory {
            key: ASK_SOURCE.into(),
            label: "AskNeedl attachments".into(),
            count: attachments,
            connected: true,
        });
    }
    Ok(results)
}

/// The personal store's sources: the drive (bookmarks, tags and comments join it with the
/// organising features).
pub async fn needlbox_sources(ctx: &Context, user_id: &str) -> Result<Vec<SubCategory>> {
    Ok(vec![drive_entry(ctx, user_id).await?])
}
