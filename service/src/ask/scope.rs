//! What a question is asked over: the request's scope resolved for the asker, with the checks
//! that they may ask there.

use assistant::Scope;
use commands::args;
use domain::ask::AskScope;
use search::Access;

use super::nonempty;
use super::question::AskBody;
use crate::context::Context;
use crate::documents::{ASK_SOURCE, DRIVE_SOURCE};
use crate::error::{Error, Kind, Result};
use crate::policy::{channel_deeplinks, readable, require_flag, search_access, SearchScope};
use crate::viewer::Viewer;

/// The special scope ids of the spec.
const HOME: &str = "home";
const NEEDL_UNIVERSE: &str = "needl_universe";
/// At most this many documents one question names.
const MAX_DOCUMENTS: usize = 100;

/// A question's scope resolved: what it is recorded as, what the assistant searches, and what the
/// user may read there.
pub struct Resolved {
    pub scope: AskScope,
    pub search_scope: Scope,
    pub access: Access,
    /// The channel asked over: its citations open in the channel.
    pub channel_id: Option<String>,
}

/// Resolves the request's scope for the viewer, checking that they may ask there. Writes nothing.
pub async fn resolve(ctx: &Context, viewer: &Viewer, body: &AskBody) -> Result<Resolved> {
    let user_id = viewer.user_id.as_str();
    let channel_id = nonempty(body.channel_id.as_deref()).map(str::to_string);
    let source = nonempty(body.source.as_deref());
    let board = nonempty(body.board_id.as_deref()).filter(|b| *b != HOME);
    let documents: Vec<String> =
        body.document_id.iter().map(|d| d.trim().to_string()).filter(|d| !d.is_empty()).collect();
    if documents.len() > MAX_DOCUMENTS {
        return Err(Error::invalid("too_many_documents", format!("ask over at most {MAX_DOCUMENTS} documents")));
    }
    if !documents.is_empty() {
        let mut readable_ones = Vec::with_capacity(documents.len());
        for deeplink in &documents {
            let card = readable(ctx, user_id, deeplink, None).await?;
            if !readable_ones.contains(&card.deeplink) {
                readable_ones.push(card.deeplink);
            }
        }
        return Ok(Resolved {
            scope: AskScope::Documents { document_ids: readable_ones.clone() },
            search_scope: Scope::Documents(readable_ones.clone()),
            access: Access::Documents(readable_ones),
            channel_id,
        });
    }
    if let Some(channel) = &channel_id {
        // Not found for a channel the user does not see.
        let deeplinks = channel_deeplinks(ctx, user_id, channel).await?;
        return Ok(Resolved {
            scope: AskScope::Channel { channel_id: channel.clone() },
            search_scope: Scope::Documents(deeplinks.clone()),
            access: Access::Documents(deeplinks),
            channel_id,
        });
    }
    if body.web_search.unwrap_or(false) || source == Some(NEEDL_UNIVERSE) {
        require_flag(
            ctx,
            viewer,
            "ask_needl_dataset_selection_needl_universe",
            "asking the public corpus is turned off for you",
        )
        .await?;
        return Ok(Resolved {
            scope: AskScope::NeedlUniverse,
            search_scope: Scope::Universe,
            access: Access::Public,
            channel_id: None,
        });
    }
    let access = search_access(ctx, user_id, SearchScope::MyData).await?;
    let reaches = |id: &str| match &access {
        Access::Mine { sources, .. } => id == DRIVE_SOURCE || sources.iter().any(|s| s == id),
        _ => false,
    };
    let (scope, search_scope) = match (source, board) {
        (Some(ASK_SOURCE), feed) => {
            let search_scope = match feed {
                Some(feed_id) => attachments_feed(ctx, user_id, feed_id).await?,
                None => Scope::Attachments(vec![]),
            };
            (AskScope::Attachments { feed_id: feed.map(str::to_string) }, search_scope)
        }
        (_, Some(board)) => {
            // One of the user's custom feeds: the documents it matches now.
            if let Some(feed) = crate::feeds::documents::own_feed(ctx, user_id, board).await? {
                let deeplinks = crate::feeds::documents::feed_deeplinks(ctx, user_id, &feed).await?;
                return Ok(Resolved {
                    scope: AskScope::Feed { board_id: board.to_string() },
                    search_scope: Scope::Documents(deeplinks),
                    access,
                    channel_id: None,
                });
            }
            if !reaches(board) {
                return Err(unknown_scope(board));
            }
            (AskScope::Feed { board_id: board.to_string() }, Scope::Sources(vec![board.to_string()]))
        }
        (None | Some(HOME), None) => (AskScope::Home, Scope::Home),
        (Some(source), None) => {
            // A notebook (the spec's notebooks category, with the notebook as the source): its
            // notes, which the index keeps to their author and files under their notebook.
            if !reaches(source) && !own_notebook(ctx, user_id, source).await? {
                return Err(unknown_scope(source));
            }
            (AskScope::Source { source: source.to_string() }, Scope::Sources(vec![source.to_string()]))
        }
    };
    Ok(Resolved { scope, search_scope, access, channel_id: None })
}

/// The attachments of one of the user's attachments feeds that have been processed into
/// documents.
async fn attachments_feed(ctx: &Context, user_id: &str, feed_id: &str) -> Result<Scope> {
    #[derive(sqlx::FromRow)]
    struct Row {
        deeplink: String,
    }
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            "SELECT deeplink FROM uploads_view WHERE user_id = $1 AND source = $2 AND feed_id = $3 \
             AND deeplink IS NOT NULL",
            args![user_id, ASK_SOURCE, feed_id],
        )
        .await?;
    let deeplinks: Vec<String> = rows.into_iter().map(|r| r.deeplink).collect();
    // An attachments feed with nothing processed yet reaches nothing, not every attachment.
    Ok(if deeplinks.is_empty() { Scope::Documents(vec![]) } else { Scope::Attachments(deeplinks) })
}

/// Whether `id` is one of the user's notebooks: `false` when no notebook has that id, not found
/// when another user's has.
async fn own_notebook(ctx: &Context, user_id: &str, id: &str) -> Result<bool> {
    #[derive(sqlx::FromRow)]
    struct Row {
        user_id: String,
    }
    let row: Option<Row> =
        ctx.db.fetch_optional("SELECT user_id FROM notebooks_view WHERE notebook_id = $1", args![id]).await?;
    match row {
        None => Ok(false),
        Some(row) if row.user_id == user_id => Ok(true),
        Some(_) => Err(Error::new(Kind::NotFound, "notebook_not_found", "notebook not found")),
    }
}

fn unknown_scope(id: &str) -> Error {
    Error::malformed(
        "unknown_scope",
        format!(
            "Unknown scope {id}: ask over home, needl_universe, ask_needl, a feed, a source you follow or a notebook."
        ),
    )
}
