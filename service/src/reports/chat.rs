//! Report chat: follow-up questions over one report's files. The question is AskNeedl's, asked
//! over exactly the report's documents (its files that are documents now, and its feed's
//! documents), and is not an ask session: nothing is recorded, and its answer is marked
//! `report_chat`. Another user's report is not found.

use crate::context::Context;
use crate::error::Result;
use crate::viewer::Viewer;

use super::files::{place, FileStatus};
use super::{own, MAX_FEED_DOCUMENTS};

/// The documents a question over the viewer's report `report_id` is answered from: its files
/// processed into documents (a file still processing is left out until it is done), and its
/// feed's documents (as generation resolved them, or as the viewer may read them now before
/// it).
pub async fn documents(ctx: &Context, viewer: &Viewer, report_id: &str) -> Result<Vec<String>> {
    let row = own(ctx, viewer, report_id.trim()).await?;
    let mut deeplinks: Vec<String> = Vec::new();
    for file in row.files() {
        let place = place(ctx, &viewer.user_id, &file).await?;
        if let (FileStatus::Completed, Some(deeplink)) = (place.status, place.deeplink) {
            deeplinks.push(deeplink);
        }
    }
    let mut feed: Vec<String> = serde_json::from_str(&row.feed_documents).unwrap_or_default();
    if let (Some(feed_id), true) = (&row.feed_id, row.started_at.is_none()) {
        let page = crate::feeds::documents::documents(ctx, viewer, feed_id, None, 0, MAX_FEED_DOCUMENTS).await?;
        feed = page.results.documents.into_iter().map(|d| d.id).collect();
    }
    for deeplink in feed {
        if !deeplinks.contains(&deeplink) {
            deeplinks.push(deeplink);
        }
    }
    Ok(deeplinks)
}
