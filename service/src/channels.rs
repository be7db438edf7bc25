//! Channels (the spec's groups) as the read models hold them, seen by one person.

use chrono::SecondsFormat;
use domain::channel::{ChannelError, Role};
use domain::channel_document::Actor;

use crate::error::{from_domain, Result};
use crate::policy::seen_channel_condition;

/// Returns the current time as the views keep times (RFC 3339, milliseconds, UTC).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Returns `$start, $start+1, ...` for `n` parameters.
pub fn placeholders(start: usize, n: usize) -> String {
    (start..start + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// A channel as the views hold it, with the viewer's role and reader state.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ChannelRow {
    pub channel_id: String,
    pub name: String,
    pub published: bool,
    pub created_by: String,
    pub created_at: String,
    pub updated_at: String,
    /// The viewer's role; `None` when they see a published channel without being in it.
    pub role: Option<String>,
    pub starred: Option<bool>,
    pub seen_at: Option<String>,
    pub member_count: i64,
    pub board_count: i64,
}

/// The channels the user `$1` sees in organisation `$2`.
pub const SEEN_CHANNELS: &str = concat!(
    "SELECT c.channel_id, c.name, c.published, c.created_by, c.created_at, c.updated_at, \
     me.role, r.starred, r.seen_at, \
     (SELECT COUNT(*) FROM channel_members_view x WHERE x.channel_id = c.channel_id) AS member_count, \
     (SELECT COUNT(*) FROM channel_boards_view b WHERE b.channel_id = c.channel_id) AS board_count \
     FROM channels_view c \
     LEFT JOIN channel_members_view me ON me.channel_id = c.channel_id AND me.user_id = $1 \
     LEFT JOIN channel_readers_view r ON r.channel_id = c.channel_id AND r.user_id = $1 \
     WHERE c.organization_id = $2 AND ",
    seen_channel_condition!()
);

/// A channel the user sees, and what they are in it.
#[derive(Debug, Clone)]
pub struct ChannelAccess {
    pub channel: ChannelRow,
    /// The user's role; someone who sees a published channel without being in it acts as a member.
    pub role: Role,
    /// Whether the user is a member in their own right (not only through publishing).
    pub member: bool,
}

impl ChannelAccess {
    pub fn actor(&self, user_id: &str) -> Actor {
        Actor { user_id: user_id.to_string(), role: self.role }
    }

    /// `forbidden` unless the user owns the channel.
    pub fn require_owner(&self) -> Result<()> {
        if self.role == Role::Owner {
            Ok(())
        } else {
            Err(from_domain(&ChannelError::NotOwner))
        }
    }
}
