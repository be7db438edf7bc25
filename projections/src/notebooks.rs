//! `notebooks_view` and `notes_view`: each user's notebooks, and the notes in them with a plain
//! text preview.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::notebook::{plain_text, preview, Note, NoteEvent, NotebookEvent, NotebookShelf};

use crate::runner::Projection;

pub struct Notebooks;

/// Returns the preview of a note body: its plain text, cut for lists.
fn preview_of(body: Option<&str>) -> String {
    body.map(|b| preview(&plain_text(b))).unwrap_or_default()
}

/// Moves a notebook's `updated_at`, for a change to it or to one of its notes.
async fn touch(tx: &mut Tx, notebook_id: &str, time: &str) -> anyhow::Result<()> {
    tx.write("UPDATE notebooks_view SET updated_at = $2 WHERE notebook_id = $1", args![notebook_id, time]).await?;
    Ok(())
}

#[async_trait]
impl Projection for Notebooks {
    fn name(&self) -> &'static str {
        "notebooks"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["notebooks_view", "notes_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[NotebookShelf::TYPE, Note::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        if event.aggregate_type == NotebookShelf::TYPE {
            match event.decode::<NotebookEvent>()? {
                NotebookEvent::NotebookCreated { user_id, notebook_id, name, notebook_type, feed_id, channel_id } => {
                    tx.write(
                        "INSERT INTO notebooks_view (notebook_id, user_id, name, notebook_type, feed_id, channel_id, \
                         created_at, updated_at, position) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8) \
                         ON CONFLICT (notebook_id) DO NOTHING",
                        args![
                            notebook_id,
                            user_id,
                            name,
                            notebook_type.as_str(),
                            feed_id,
                            channel_id,
                            time,
                            event.cursor.pos
                        ],
                    )
                    .await?;
                }
                NotebookEvent::NotebookRenamed { notebook_id, name, .. } => {
                    tx.write(
                        "UPDATE notebooks_view SET name = $2, updated_at = $3 WHERE notebook_id = $1",
                        args![notebook_id, name, time],
                    )
                    .await?;
                }
                NotebookEvent::NotebookDeleted { notebook_id, .. } => {
                    tx.write("DELETE FROM notes_view WHERE notebook_id = $1", args![notebook_id.as_str()]).await?;
                    tx.write("DELETE FROM notebooks_view WHERE notebook_id = $1", args![notebook_id]).await?;
                }
            }
        } else if event.aggregate_type == Note::TYPE {
            match event.decode::<NoteEvent>()? {
                NoteEvent::NoteCreated { user_id, notebook_id, note_id, name, body, snippet } => {
                    let preview = preview_of(body.as_deref());
                    let kind = if snippet.is_some() { "snippet" } else { "note" };
                    let snippet = snippet.unwrap_or_default();
                    // A note whose notebook was deleted before this event reached the feed stays
                    // out: the deletion took the notebook's notes with it already.
                    tx.write(
                        "INSERT INTO notes_view (note_id, notebook_id, user_id, kind, name, body, preview, version, \
                         snippet_deeplink, snippet_source, snippet_title, snippet_link, created_at, updated_at, \
                         position) \
                         SELECT $1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10, $11, $12, $12, $13 \
                         WHERE EXISTS (SELECT 1 FROM notebooks_view b WHERE b.notebook_id = $2 AND b.user_id = $3) \
                         ON CONFLICT (note_id) DO NOTHING",
                        args![
                            note_id,
                            notebook_id.as_str(),
                            user_id,
                            kind,
                            name,
                            body,
                            preview,
                            snippet.deeplink,
                            snippet.source,
                            snippet.title,
                            snippet.link,
                            time.as_str(),
                            event.cursor.pos
                        ],
                    )
                    .await?;
                    touch(tx, &notebook_id, &time).await?;
                }
                NoteEvent::NoteEdited { notebook_id, note_id, version, name, body, .. } => {
                    let preview = body.as_deref().map(|b| preview_of(Some(b)));
                    tx.write(
                        "UPDATE notes_view SET name = COALESCE($2, name), body = COALESCE($3, body), \
                         preview = COALESCE($4, preview), version = $5, updated_at = $6 WHERE note_id = $1",
                        args![note_id, name, body, preview, version as i64, time.as_str()],
                    )
                    .await?;
                    touch(tx, &notebook_id, &time).await?;
                }
                NoteEvent::NoteDeleted { notebook_id, note_id, .. } => {
                    tx.write("DELETE FROM notes_view WHERE note_id = $1", args![note_id]).await?;
                    touch(tx, &notebook_id, &time).await?;
                }
            }
        }
        Ok(())
    }
}
