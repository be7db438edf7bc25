//! Who may read what: the product's read rules, in one place.
//!
//! **Documents.** A person may read:
//! 1. their own uploads (drive files, assistant attachments);
//! 2. the documents of a shared source that is public, or that they follow;
//! 3. a document shared into a channel they see;
//! 4. any document, through its shared link's key.
//!
//! Rules 1 and 2 make a person's own data (My Data, the `my_data` search scope); adding 3 makes
//! everything they may open. Shared sources' documents, followed or not, are the public corpus
//! (Needl Web), searched but not part of anyone's data.
//!
//! **Channels.** A person sees a channel they are a member of, and a channel published to their
//! organisation (as a member would). Anyone else is told the channel does not exist.
//!
//! **Email addresses.** A person's email address is seen by administrators, by the person
//! themselves, and by the people who share a channel with them; nobody else, so no one can list
//! the organisation's addresses ([`email_seen_condition`]).
//!
//! **Flags.** Features an administrator can switch off per person are checked with
//! [`require_flag`].
//!
//! Each rule is written here once, in the forms its readers need: SQL conditions for the read
//! models (the `*_condition!` macros, spliced into queries), [`search_access`] for the search
//! index and the assistant's retrieval, and async checks for single things. The table test in
//! `api/tests/api/policy.rs` asks every reader the same questions and expects the same answers.

use commands::args;
use domain::channel::{Role, ORGANIZATION_ID};
use search::Access;

use crate::access::Purpose;
use crate::channels::{ChannelAccess, ChannelRow, SEEN_CHANNELS};
use crate::context::Context;
use crate::documents::{DocumentCard, DocumentRow, ANY, READABLE};
use crate::error::{Error, Result};
use crate::viewer::Viewer;

/// SQL: user `$1` may read document `d` (`documents_view`, with its source `s` from
/// `sources_view`) as part of their own data: rules 1 and 2.
macro_rules! visible_condition {
    () => {
        "(d.owner = $1 OR (d.owner IS NULL AND (s.kind = 'public' OR EXISTS \
          (SELECT 1 FROM subscriptions_view sub WHERE sub.user_id = $1 AND sub.source_id = d.source_id))))"
    };
}
pub(crate) use visible_condition;

/// SQL: user `$1` sees channel `c` (`channels_view`): a member, or it is published.
macro_rules! seen_channel_condition {
    () => {
        "(c.published OR EXISTS \
          (SELECT 1 FROM channel_members_view m WHERE m.channel_id = c.channel_id AND m.user_id = $1))"
    };
}
pub(crate) use seen_channel_condition;

/// SQL: document `d` is shared into a channel user `$1` sees: rule 3.
macro_rules! shared_with_condition {
    () => {
        concat!(
            "EXISTS (SELECT 1 FROM channel_items_view i JOIN channels_view c ON c.channel_id = i.channel_id \
              WHERE i.deeplink = d.deeplink AND ",
            $crate::policy::seen_channel_condition!(),
            ")"
        )
    };
}
pub(crate) use shared_with_condition;

/// SQL: user `$1` may open document `d` (with its source `s`): rules 1 to 3.
macro_rules! readable_condition {
    () => {
        concat!("(", $crate::policy::visible_condition!(), " OR ", $crate::policy::shared_with_condition!(), ")")
    };
}
pub(crate) use readable_condition;

/// SQL: `viewer` (bound as `$1`) may see the email address of user `u` (`users_view`): an
/// administrator sees everyone's; anyone else their own and their co-members' (people in a
/// channel with them). A query must not search a hidden address either, or a search would find
/// it out a letter at a time.
pub fn email_seen_condition(viewer: &Viewer) -> &'static str {
    if viewer.is_admin {
        "TRUE"
    } else {
        "(u.user_id = $1 OR EXISTS (SELECT 1 FROM channel_members_view mine \
          JOIN channel_members_view theirs ON theirs.channel_id = mine.channel_id \
          WHERE mine.user_id = $1 AND theirs.user_id = u.user_id))"
    }
}

/// The SQL condition that user `$1` sees channel `c`, for queries outside this crate.
pub const SEEN_CHANNEL: &str = seen_channel_condition!();

/// The SQL condition that user `$1` may open document `d` (source `s`), for queries outside
/// this crate.
pub const READABLE_DOCUMENT: &str = readable_condition!();

/// The document if the viewer may read it: by rules 1 to 3, or (rule 4) with its shared link's
/// key.
pub async fn readable(
    ctx: &Context,
    user_id: &str,
    deeplink: &str,
    public_access_key: Option<&str>,
) -> Result<DocumentCard> {
    let shared = public_access_key.is_some_and(|k| ctx.access.verify(Purpose::Public, deeplink, k));
    let rows = if shared { ANY } else { READABLE };
    let row: Option<DocumentRow> =
        ctx.db.fetch_optional(&format!("{rows} AND d.deeplink = $2"), args![user_id, deeplink]).await?;
    row.map(|r| DocumentCard::from_row(r, &ctx.access)).ok_or_else(|| Error::not_found("document not found"))
}

pub fn channel_not_found() -> Error {
    Error::new(crate::error::Kind::NotFound, "channel_not_found", "channel not found")
}

/// The channel if `user_id` sees it, with their role in it; `channel_not_found` when they do
/// not, whether or not it exists.
pub async fn visible_channel(ctx: &Context, user_id: &str, channel_id: &str) -> Result<ChannelAccess> {
    let row: Option<ChannelRow> = ctx
        .db
        .fetch_optional(&format!("{SEEN_CHANNELS} AND c.channel_id = $3"), args![user_id, ORGANIZATION_ID, channel_id])
        .await?;
    let channel = row.ok_or_else(channel_not_found)?;
    let role = channel.role.as_deref().and_then(Role::parse);
    Ok(ChannelAccess { member: role.is_some(), role: role.unwrap_or(Role::Member), channel })
}

#[derive(sqlx::FromRow)]
struct Deeplink {
    deeplink: String,
}

/// The documents shared into the channels `user_id` sees (rule 3 as a list: the `shared_data`
/// search scope).
pub async fn shared_deeplinks(ctx: &Context, user_id: &str) -> Result<Vec<String>> {
    let rows: Vec<Deeplink> = ctx
        .db
        .fetch_all(
            concat!(
                "SELECT DISTINCT i.deeplink FROM channel_items_view i JOIN channels_view c ON c.channel_id = i.channel_id \
                 WHERE ",
                seen_channel_condition!()
            ),
            args![user_id],
        )
        .await?;
    Ok(rows.into_iter().map(|r| r.deeplink).collect())
}

/// The documents shared into `channel_id`, if the user sees the channel.
pub async fn channel_deeplinks(ctx: &Context, user_id: &str, channel_id: &str) -> Result<Vec<String>> {
    visible_channel(ctx, user_id, channel_id).await?;
    let rows: Vec<Deeplink> =
        ctx.db.fetch_all("SELECT deeplink FROM channel_items_view WHERE channel_id = $1", args![channel_id]).await?;
    Ok(rows.into_iter().map(|r| r.deeplink).collect())
}

/// Where a search or a question looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchScope {
    /// The viewer's own data: rules 1 and 2.
    MyData,
    /// The public corpus: every shared source's documents.
    NeedlWeb,
    /// What is shared into the channels the viewer sees: rule 3.
    SharedData,
}

impl SearchScope {
    /// The scope a `search_type` names; empty or absent is My Data.
    pub fn parse(search_type: Option<&str>) -> Result<SearchScope> {
        match search_type.unwrap_or("") {
            "" | "my_data" => Ok(SearchScope::MyData),
            "needl_web" | "needlweb" => Ok(SearchScope::NeedlWeb),
            "shared_data" => Ok(SearchScope::SharedData),
            other => Err(Error::malformed(
                "unknown_search_type",
                format!("Unknown search type {other}: use needl_web or shared_data, or leave it out."),
            )),
        }
    }
}

#[derive(sqlx::FromRow)]
struct SourceId {
    source_id: String,
}

/// The shared sources whose documents are in `user_id`'s own data (rule 2): the ones they follow
/// and the public catalogue's. Takes the store alone, for workers that have no [`Context`].
pub async fn own_data_sources(db: &commands::store::Db, user_id: &str) -> Result<Vec<String>> {
    let rows: Vec<SourceId> = db
        .fetch_all(
            "SELECT source_id FROM subscriptions_view WHERE user_id = $1 \
             UNION SELECT source_id FROM sources_view WHERE kind = 'public'",
            args![user_id],
        )
        .await?;
    Ok(rows.into_iter().map(|r| r.source_id).collect())
}

/// The documents `scope` reaches for `user_id`, as the search index filters them.
pub async fn search_access(ctx: &Context, user_id: &str, scope: SearchScope) -> Result<Access> {
    match scope {
        SearchScope::MyData => {
            // Rules 1 and 2: the index matches the user's own documents and these sources'.
            Ok(Access::Mine { user_id: user_id.to_string(), sources: own_data_sources(&ctx.db, user_id).await? })
        }
        SearchScope::NeedlWeb => Ok(Access::Public),
        SearchScope::SharedData => Ok(Access::Documents(shared_deeplinks(ctx, user_id).await?)),
    }
}

/// Whether `flag` is on for `user_id`.
pub async fn flag_on(ctx: &Context, user_id: &str, flag: &str) -> Result<bool> {
    let flags = projections::queries::flag_values(&ctx.db, user_id).await?;
    Ok(flags.iter().any(|(f, value)| f == flag && domain::flags::is_on(value)))
}

/// `forbidden` with `message` when the viewer's flag `flag` is off.
pub async fn require_flag(ctx: &Context, viewer: &Viewer, flag: &str, message: &str) -> Result<()> {
    if flag_on(ctx, &viewer.user_id, flag).await? {
        Ok(())
    } else {
        Err(Error::forbidden(message))
    }
}
