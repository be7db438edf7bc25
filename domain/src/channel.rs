//! Channels (the spec's groups): their names, members and roles, publishing to the
//! organisation, the feeds shared into them, and each member's starred status and last visit.
//!
//! A [`ChannelDirectory`] is one organisation's channel names (the aggregate id is the
//! organisation id): it guards that names follow the spec's rules and are unique in the
//! organisation whatever their case, so two people creating the same name at once race on one
//! aggregate and one of them is refused. Creating a channel reserves its name there first, then
//! creates the [`Channel`]; a rename is the directory's alone (only owners, as the caller read
//! the roles), so two renames of one channel cannot end with the directory and the channel
//! disagreeing.
//!
//! A [`Channel`] is one channel (the aggregate id is the channel id): it guards its members and
//! their roles (only owners manage it, and it always keeps an owner), who may publish it to the
//! organisation, and the feeds (boards) shared into it with their definitions.
//!
//! A [`ChannelReader`] is one member's own view of one channel (id [`reader_id`]): starred or
//! not, when they last saw it, and when they last saw each document's comments. That the reader
//! may see the channel is checked against the read model by the caller.
//!
//! Documents shared into a channel and the comments on them are in [`crate::channel_document`].

use std::collections::{BTreeMap, BTreeSet};

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// The id of this instance's organisation: every user belongs to it, and channel names are
/// unique in it.
pub const ORGANIZATION_ID: i64 = 1;
/// The organisation whose publish title is "ALL" (the spec's rule).
pub const ALL_ORGANIZATION_ID: i64 = 2;
/// The longest channel name, in characters.
pub const MAX_CHANNEL_NAME_CHARS: usize = 100;
/// How many members one channel may have.
pub const MAX_MEMBERS_PER_CHANNEL: usize = 5000;
/// How many feeds one channel may have shared into it.
pub const MAX_BOARDS_PER_CHANNEL: usize = 100;
pub use crate::board::{
    MAX_BOARD_DEFINITION_BYTES, MAX_BOARD_DESCRIPTION_CHARS, MAX_BOARD_KEYWORDS, MAX_BOARD_NAME_CHARS,
};

/// Returns the directory aggregate's id for the organisation `organization_id`.
pub fn directory_id(organization_id: i64) -> String {
    organization_id.to_string()
}

/// Returns the id of one member's reader state of one channel.
pub fn reader_id(channel_id: &str, user_id: &str) -> String {
    format!("{channel_id}/{user_id}")
}

/// Returns a channel name as it is kept: trimmed, with runs of white space made one space.
pub fn clean_name(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Returns the form under which a channel name is unique in its organisation.
pub fn name_key(name: &str) -> String {
    clean_name(name).to_lowercase()
}

/// Returns the cleaned name, or why the spec refuses it: required; only letters (a-z, either
/// case), digits, hyphen, underscore and spaces, with at least one letter or digit.
pub fn valid_name(name: &str) -> Result<String, ChannelError> {
    let name = clean_name(name);
    if name.is_empty() {
        return Err(ChannelError::NameRequired);
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == ' ';
    if !name.chars().all(allowed) || !name.chars().any(|c| c.is_ascii_alphanumeric()) {
        return Err(ChannelError::NameInvalid);
    }
    if name.chars().count() > MAX_CHANNEL_NAME_CHARS {
        return Err(ChannelError::NameTooLong);
    }
    Ok(name)
}

/// Returns what the publish option is called (the spec's rule): "ALL" for organisation 2,
/// otherwise the organisation's domain, or its name, or "your".
pub fn publish_title(organization_id: i64, domain: &str, name: &str) -> String {
    if organization_id == ALL_ORGANIZATION_ID {
        "ALL".to_string()
    } else if !domain.trim().is_empty() {
        domain.trim().to_string()
    } else if !name.trim().is_empty() {
        name.trim().to_string()
    } else {
        "your".to_string()
    }
}

/// A member's role in a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Role {
    Member,
    /// Manages the channel: its name, members, publishing and feeds.
    Owner,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Member => "member",
            Role::Owner => "owner",
        }
    }

    pub fn parse(role: &str) -> Option<Role> {
        match role {
            "member" => Some(Role::Member),
            "owner" => Some(Role::Owner),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChannelError {
    /// The spec's text.
    #[error("Group Name is required")]
    NameRequired,
    /// The spec's text.
    #[error("Sorry, only letters (a-z), numbers (0-9), hyphen (-) and underscore (_) are allowed.")]
    NameInvalid,
    #[error("Group Name must be at most {MAX_CHANNEL_NAME_CHARS} characters")]
    NameTooLong,
    /// The spec's text.
    #[error("Group Name already exists in your organization!")]
    NameTaken,
    #[error("channel not found")]
    NotFound,
    #[error("this channel id is taken")]
    IdTaken,
    #[error("only an owner of this channel may do this")]
    NotOwner,
    #[error("you may not publish channels to your organization")]
    PublishNotAllowed,
    #[error("a channel needs an owner: make another member an owner first")]
    LastOwner,
    #[error("that user is not a member of this channel")]
    NotAMember,
    #[error("name at least one person to add")]
    NobodyToAdd,
    #[error("a channel can have at most {MAX_MEMBERS_PER_CHANNEL} members")]
    TooManyMembers,
    #[error("feed not found in this channel")]
    BoardNotFound,
    #[error("a channel can have at most {MAX_BOARDS_PER_CHANNEL} feeds")]
    TooManyBoards,
    #[error("{0}")]
    Board(BoardError),
}

impl DomainError for ChannelError {
    fn kind(&self) -> ErrorKind {
        match self {
            ChannelError::NameRequired
            | ChannelError::NameInvalid
            | ChannelError::NameTooLong
            | ChannelError::NobodyToAdd
            | ChannelError::TooManyMembers
            | ChannelError::TooManyBoards
            | ChannelError::LastOwner
            | ChannelError::Board(_) => ErrorKind::Invalid,
            ChannelError::NameTaken | ChannelError::IdTaken => ErrorKind::Conflict,
            ChannelError::NotFound | ChannelError::NotAMember | ChannelError::BoardNotFound => ErrorKind::NotFound,
            ChannelError::NotOwner | ChannelError::PublishNotAllowed => ErrorKind::Forbidden,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            ChannelError::NameRequired => "channel_name_required",
            ChannelError::NameInvalid => "channel_name_invalid",
            ChannelError::NameTooLong => "channel_name_too_long",
            ChannelError::NameTaken => "channel_name_taken",
            ChannelError::NotFound => "channel_not_found",
            ChannelError::IdTaken => "channel_id_taken",
            ChannelError::NotOwner => "not_channel_owner",
            ChannelError::PublishNotAllowed => "publish_not_allowed",
            ChannelError::LastOwner => "last_channel_owner",
            ChannelError::NotAMember => "channel_member_not_found",
            ChannelError::NobodyToAdd => "no_members_named",
            ChannelError::TooManyMembers => "too_many_channel_members",
            ChannelError::BoardNotFound => "board_not_found",
            ChannelError::TooManyBoards => "too_many_channel_boards",
            ChannelError::Board(_) => "board_invalid",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The organisation's directory of channel names

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DirectoryCommand {
    /// Reserves a new channel's name, before the channel is created.
    Reserve { channel_id: String, name: String },
    /// Renames a channel. The directory holds the names, so a rename is decided here in one step
    /// (a second aggregate recording it could apply two concurrent renames in the other order).
    /// `actor_is_owner` is the actor's role as the caller read it.
    Rename { channel_id: String, name: String, actor: String, actor_is_owner: bool },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DirectoryEvent {
    ChannelNameReserved {
        channel_id: String,
        name: String,
    },
    /// `from` is the name before, now free.
    ChannelRenamed {
        channel_id: String,
        from: String,
        name: String,
        renamed_by: String,
    },
}

crate::impl_domain_event! {
    DirectoryEvent, versions {
        ChannelNameReserved: "1",
        ChannelRenamed: "1",
    }
}

/// One organisation's channel names, by channel id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChannelDirectory {
    names: BTreeMap<String, String>,
}

impl ChannelDirectory {
    /// Returns the cleaned name, or why `channel_id` may not have it.
    fn free_name(&self, channel_id: &str, name: &str) -> Result<String, ChannelError> {
        let name = valid_name(name)?;
        let key = name.to_lowercase();
        if self.names.iter().any(|(id, held)| id != channel_id && held.to_lowercase() == key) {
            return Err(ChannelError::NameTaken);
        }
        Ok(name)
    }

    pub fn decide(&self, command: DirectoryCommand) -> Result<Vec<DirectoryEvent>, ChannelError> {
        match command {
            DirectoryCommand::Reserve { channel_id, name } => {
                if self.names.contains_key(&channel_id) {
                    return Err(ChannelError::IdTaken);
                }
                let name = self.free_name(&channel_id, &name)?;
                Ok(vec![DirectoryEvent::ChannelNameReserved { channel_id, name }])
            }
            DirectoryCommand::Rename { channel_id, name, actor, actor_is_owner } => {
                let from = self.names.get(&channel_id).ok_or(ChannelError::NotFound)?;
                if !actor_is_owner {
                    return Err(ChannelError::NotOwner);
                }
                let name = self.free_name(&channel_id, &name)?;
                Ok(if *from == name {
                    vec![]
                } else {
                    vec![DirectoryEvent::ChannelRenamed { channel_id, from: from.clone(), name, renamed_by: actor }]
                })
            }
        }
    }
}

impl Aggregate for ChannelDirectory {
    const TYPE: &'static str = "channel_directory";
    type Command = DirectoryCommand;
    type Event = DirectoryEvent;
    type Error = ChannelError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            DirectoryEvent::ChannelNameReserved { channel_id, name }
            | DirectoryEvent::ChannelRenamed { channel_id, name, .. } => {
                self.names.insert(channel_id, name);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Feed definitions shared into channels: see [`crate::board`].

pub use crate::board::{BoardDefinition, BoardError, BoardKeyword, BoardKeywords};

// ---------------------------------------------------------------------------------------------
// The channel

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChannelCommand {
    /// Creates a channel whose name the directory reserved; `created_by` becomes its owner and
    /// `members` its members. `can_publish` says whether the creator may publish channels to
    /// the organisation (the spec's canPublishChannels).
    Create {
        channel_id: String,
        name: String,
        created_by: String,
        publish: bool,
        can_publish: bool,
        members: Vec<String>,
    },
    /// Publishes the channel to the organisation, or takes it back. Publishing needs
    /// `can_publish`; an owner may always take a published channel back.
    SetPublished {
        actor: String,
        publish: bool,
        can_publish: bool,
    },
    /// Adds people with `role`; those already members keep their role.
    AddMembers {
        actor: String,
        user_ids: Vec<String>,
        role: Role,
    },
    ChangeRole {
        actor: String,
        user_id: String,
        role: Role,
    },
    /// Removes a member: an owner removes anyone, a member may remove themselves (leave).
    RemoveMember {
        actor: String,
        user_id: String,
    },
    /// Shares a feed into the channel, or replaces the definition of one shared before.
    ShareBoard {
        actor: String,
        board_id: String,
        definition: Box<BoardDefinition>,
    },
    UnshareBoard {
        actor: String,
        board_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ChannelEvent {
    /// Followed by a `MemberAdded` of the creator as owner, and one per initial member. `name`
    /// is the name the directory reserved; renames are the directory's events.
    ChannelCreated {
        channel_id: String,
        name: String,
        created_by: String,
        organization_id: i64,
        published: bool,
    },
    ChannelPublished {
        channel_id: String,
        published_by: String,
    },
    ChannelUnpublished {
        channel_id: String,
        unpublished_by: String,
    },
    MemberAdded {
        channel_id: String,
        user_id: String,
        role: Role,
        added_by: String,
    },
    MemberRoleChanged {
        channel_id: String,
        user_id: String,
        from: Role,
        role: Role,
        changed_by: String,
    },
    /// `removed_by` is the member themselves when they left.
    MemberRemoved {
        channel_id: String,
        user_id: String,
        removed_by: String,
    },
    /// The definition as kept; a second share of one board id replaces its definition.
    BoardShared {
        channel_id: String,
        board_id: String,
        definition: Box<BoardDefinition>,
        shared_by: String,
    },
    BoardUnshared {
        channel_id: String,
        board_id: String,
        unshared_by: String,
    },
}

crate::impl_domain_event! {
    ChannelEvent, versions {
        ChannelCreated: "1",
        ChannelPublished: "1",
        ChannelUnpublished: "1",
        MemberAdded: "1",
        MemberRoleChanged: "1",
        MemberRemoved: "1",
        BoardShared: "1",
        BoardUnshared: "1",
    }
}

/// One channel: whether it is published, its members by user id, and its feeds. Its name is the
/// directory's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Channel {
    channel_id: Option<String>,
    published: bool,
    members: BTreeMap<String, Role>,
    boards: BTreeSet<String>,
}

impl Channel {
    fn owners(&self) -> usize {
        self.members.values().filter(|r| **r == Role::Owner).count()
    }

    /// Returns the channel's id if `actor` may manage it. Someone who is not a member does not
    /// see an unpublished channel at all; a published one every user of the organisation sees.
    fn managed_by(&self, actor: &str) -> Result<String, ChannelError> {
        let channel_id = self.channel_id.clone().ok_or(ChannelError::NotFound)?;
        match self.members.get(actor) {
            Some(Role::Owner) => Ok(channel_id),
            Some(Role::Member) => Err(ChannelError::NotOwner),
            None if self.published => Err(ChannelError::NotOwner),
            None => Err(ChannelError::NotFound),
        }
    }

    pub fn decide(&self, command: ChannelCommand) -> Result<Vec<ChannelEvent>, ChannelError> {
        match command {
            ChannelCommand::Create { channel_id, name, created_by, publish, can_publish, members } => {
                if self.channel_id.is_some() {
                    return Err(ChannelError::IdTaken);
                }
                let name = valid_name(&name)?;
                if publish && !can_publish {
                    return Err(ChannelError::PublishNotAllowed);
                }
                let others: BTreeSet<String> = members.into_iter().filter(|m| *m != created_by).collect();
                if others.len() + 1 > MAX_MEMBERS_PER_CHANNEL {
                    return Err(ChannelError::TooManyMembers);
                }
                let mut events = vec![
                    ChannelEvent::ChannelCreated {
                        channel_id: channel_id.clone(),
                        name,
                        created_by: created_by.clone(),
                        organization_id: ORGANIZATION_ID,
                        published: publish,
                    },
                    ChannelEvent::MemberAdded {
                        channel_id: channel_id.clone(),
                        user_id: created_by.clone(),
                        role: Role::Owner,
                        added_by: created_by.clone(),
                    },
                ];
                events.extend(others.into_iter().map(|user_id| ChannelEvent::MemberAdded {
                    channel_id: channel_id.clone(),
                    user_id,
                    role: Role::Member,
                    added_by: created_by.clone(),
                }));
                Ok(events)
            }
            ChannelCommand::SetPublished { actor, publish, can_publish } => {
                let channel_id = self.managed_by(&actor)?;
                if publish == self.published {
                    return Ok(vec![]);
                }
                if publish && !can_publish {
                    return Err(ChannelError::PublishNotAllowed);
                }
                Ok(vec![if publish {
                    ChannelEvent::ChannelPublished { channel_id, published_by: actor }
                } else {
                    ChannelEvent::ChannelUnpublished { channel_id, unpublished_by: actor }
                }])
            }
            ChannelCommand::AddMembers { actor, user_ids, role } => {
                let channel_id = self.managed_by(&actor)?;
                let new: BTreeSet<String> =
                    user_ids.iter().filter(|u| !self.members.contains_key(*u)).cloned().collect();
                if user_ids.is_empty() {
                    return Err(ChannelError::NobodyToAdd);
                }
                if self.members.len() + new.len() > MAX_MEMBERS_PER_CHANNEL {
                    return Err(ChannelError::TooManyMembers);
                }
                Ok(new
                    .into_iter()
                    .map(|user_id| ChannelEvent::MemberAdded {
                        channel_id: channel_id.clone(),
                        user_id,
                        role,
                        added_by: actor.clone(),
                    })
                    .collect())
            }
            ChannelCommand::ChangeRole { actor, user_id, role } => {
                let channel_id = self.managed_by(&actor)?;
                let from = *self.members.get(&user_id).ok_or(ChannelError::NotAMember)?;
                if from == role {
                    return Ok(vec![]);
                }
                if from == Role::Owner && self.owners() == 1 {
                    return Err(ChannelError::LastOwner);
                }
                Ok(vec![ChannelEvent::MemberRoleChanged { channel_id, user_id, from, role, changed_by: actor }])
            }
            ChannelCommand::RemoveMember { actor, user_id } => {
                let channel_id = if actor == user_id {
                    // Leaving needs no owner; a member leaves their own membership only.
                    let channel_id = self.channel_id.clone().ok_or(ChannelError::NotFound)?;
                    if !self.members.contains_key(&actor) {
                        return Err(if self.published { ChannelError::NotAMember } else { ChannelError::NotFound });
                    }
                    channel_id
                } else {
                    let channel_id = self.managed_by(&actor)?;
                    if !self.members.contains_key(&user_id) {
                        return Err(ChannelError::NotAMember);
                    }
                    channel_id
                };
                if self.members.get(&user_id) == Some(&Role::Owner) && self.owners() == 1 {
                    return Err(ChannelError::LastOwner);
                }
                Ok(vec![ChannelEvent::MemberRemoved { channel_id, user_id, removed_by: actor }])
            }
            ChannelCommand::ShareBoard { actor, board_id, definition } => {
                let channel_id = self.managed_by(&actor)?;
                let definition = Box::new(definition.cleaned().map_err(ChannelError::Board)?);
                if !self.boards.contains(&board_id) && self.boards.len() >= MAX_BOARDS_PER_CHANNEL {
                    return Err(ChannelError::TooManyBoards);
                }
                Ok(vec![ChannelEvent::BoardShared { channel_id, board_id, definition, shared_by: actor }])
            }
            ChannelCommand::UnshareBoard { actor, board_id } => {
                let channel_id = self.managed_by(&actor)?;
                if !self.boards.contains(&board_id) {
                    return Err(ChannelError::BoardNotFound);
                }
                Ok(vec![ChannelEvent::BoardUnshared { channel_id, board_id, unshared_by: actor }])
            }
        }
    }
}

impl Aggregate for Channel {
    const TYPE: &'static str = "channel";
    type Command = ChannelCommand;
    type Event = ChannelEvent;
    type Error = ChannelError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            ChannelEvent::ChannelCreated { channel_id, published, .. } => {
                self.channel_id = Some(channel_id);
                self.published = published;
            }
            ChannelEvent::ChannelPublished { .. } => self.published = true,
            ChannelEvent::ChannelUnpublished { .. } => self.published = false,
            ChannelEvent::MemberAdded { user_id, role, .. } | ChannelEvent::MemberRoleChanged { user_id, role, .. } => {
                self.members.insert(user_id, role);
            }
            ChannelEvent::MemberRemoved { user_id, .. } => {
                self.members.remove(&user_id);
            }
            ChannelEvent::BoardShared { board_id, .. } => {
                self.boards.insert(board_id);
            }
            ChannelEvent::BoardUnshared { board_id, .. } => {
                self.boards.remove(&board_id);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// One member's own view of a channel

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReaderCommand {
    Star {
        channel_id: String,
        user_id: String,
        starred: bool,
    },
    /// Records that the member looked at the channel at `at` (RFC 3339, chosen by the caller).
    MarkSeen {
        channel_id: String,
        user_id: String,
        at: String,
    },
    /// Records that the member saw the comments on `deeplink` at `at`.
    MarkCommentsSeen {
        channel_id: String,
        user_id: String,
        deeplink: String,
        at: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ReaderEvent {
    ChannelStarred { channel_id: String, user_id: String },
    ChannelUnstarred { channel_id: String, user_id: String },
    ChannelSeen { channel_id: String, user_id: String, at: String },
    CommentsSeen { channel_id: String, user_id: String, deeplink: String, at: String },
}

crate::impl_domain_event! {
    ReaderEvent, versions {
        ChannelStarred: "1",
        ChannelUnstarred: "1",
        ChannelSeen: "1",
        CommentsSeen: "1",
    }
}

/// A reader command cannot fail; the type is there because the framework asks for one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReaderError {}

impl DomainError for ReaderError {
    fn kind(&self) -> ErrorKind {
        match *self {}
    }

    fn code(&self) -> &'static str {
        match *self {}
    }
}

/// Whether the member starred the channel, and when they last saw it and each document's
/// comments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChannelReader {
    starred: bool,
    seen: Option<String>,
    comments_seen: BTreeMap<String, String>,
}

impl ChannelReader {
    /// Times are RFC 3339 in UTC with a fixed number of digits, so they compare as text; a time
    /// not after the one recorded records nothing.
    pub fn decide(&self, command: ReaderCommand) -> Result<Vec<ReaderEvent>, ReaderError> {
        Ok(match command {
            ReaderCommand::Star { channel_id, user_id, starred } if starred != self.starred => {
                vec![if starred {
                    ReaderEvent::ChannelStarred { channel_id, user_id }
                } else {
                    ReaderEvent::ChannelUnstarred { channel_id, user_id }
                }]
            }
            ReaderCommand::Star { .. } => vec![],
            ReaderCommand::MarkSeen { channel_id, user_id, at } => {
                if self.seen.as_ref().is_some_and(|seen| *seen >= at) {
                    vec![]
                } else {
                    vec![ReaderEvent::ChannelSeen { channel_id, user_id, at }]
                }
            }
            ReaderCommand::MarkCommentsSeen { channel_id, user_id, deeplink, at } => {
                if self.comments_seen.get(&deeplink).is_some_and(|seen| *seen >= at) {
                    vec![]
                } else {
                    vec![ReaderEvent::CommentsSeen { channel_id, user_id, deeplink, at }]
                }
            }
        })
    }
}

impl Aggregate for ChannelReader {
    const TYPE: &'static str = "channel_reader";
    type Command = ReaderCommand;
    type Event = ReaderEvent;
    type Error = ReaderError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            ReaderEvent::ChannelStarred { .. } => self.starred = true,
            ReaderEvent::ChannelUnstarred { .. } => self.starred = false,
            ReaderEvent::ChannelSeen { at, .. } => self.seen = Some(at),
            ReaderEvent::CommentsSeen { deeplink, at, .. } => {
                self.comments_seen.insert(deeplink, at);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn reserve(channel_id: &str, name: &str) -> DirectoryCommand {
        DirectoryCommand::Reserve { channel_id: channel_id.into(), name: name.into() }
    }

    fn reserved(channel_id: &str, name: &str) -> DirectoryEvent {
        DirectoryEvent::ChannelNameReserved { channel_id: channel_id.into(), name: name.into() }
    }

    fn rename(channel_id: &str, name: &str, actor_is_owner: bool) -> DirectoryCommand {
        DirectoryCommand::Rename {
            channel_id: channel_id.into(),
            name: name.into(),
            actor: "owner".into(),
            actor_is_owner,
        }
    }

    fn renamed(channel_id: &str, from: &str, name: &str) -> DirectoryEvent {
        DirectoryEvent::ChannelRenamed {
            channel_id: channel_id.into(),
            from: from.into(),
            name: name.into(),
            renamed_by: "owner".into(),
        }
    }

    fn created(published: bool) -> Vec<ChannelEvent> {
        vec![
            ChannelEvent::ChannelCreated {
                channel_id: "c1".into(),
                name: "Research".into(),
                created_by: "owner".into(),
                organization_id: ORGANIZATION_ID,
                published,
            },
            added("owner", Role::Owner, "owner"),
        ]
    }

    fn added(user_id: &str, role: Role, by: &str) -> ChannelEvent {
        ChannelEvent::MemberAdded { channel_id: "c1".into(), user_id: user_id.into(), role, added_by: by.into() }
    }

    fn with_member(user_id: &str) -> Vec<ChannelEvent> {
        let mut events = created(false);
        events.push(added(user_id, Role::Member, "owner"));
        events
    }

    fn create(name: &str, publish: bool, can_publish: bool, members: &[&str]) -> ChannelCommand {
        ChannelCommand::Create {
            channel_id: "c1".into(),
            name: name.into(),
            created_by: "owner".into(),
            publish,
            can_publish,
            members: members.iter().map(|m| m.to_string()).collect(),
        }
    }

    fn board(name: &str) -> BoardDefinition {
        BoardDefinition { name: name.into(), ..Default::default() }
    }

    #[test]
    fn a_channel_name_follows_the_specs_rules_with_its_messages() {
        assert_eq!(valid_name("  Risk   team_2-a "), Ok("Risk team_2-a".into()));
        assert_eq!(valid_name("   "), Err(ChannelError::NameRequired));
        assert_eq!(ChannelError::NameRequired.to_string(), "Group Name is required");
        for bad in ["risk!", "équipe", "a/b", "-_-", "___", "tab\there"] {
            let expected = if bad == "tab\there" { Ok("tab here".to_string()) } else { Err(ChannelError::NameInvalid) };
            assert_eq!(valid_name(bad), expected, "{bad}");
        }
        assert_eq!(
            ChannelError::NameInvalid.to_string(),
            "Sorry, only letters (a-z), numbers (0-9), hyphen (-) and underscore (_) are allowed."
        );
        assert_eq!(valid_name(&"a".repeat(MAX_CHANNEL_NAME_CHARS + 1)), Err(ChannelError::NameTooLong));
        assert_eq!(ChannelError::NameTaken.to_string(), "Group Name already exists in your organization!");
    }

    #[test]
    fn a_name_another_channel_holds_in_any_case_is_taken_in_the_organization() {
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "Research")])
            .when(reserve("c2", " RESEARCH "))
            .then_expect_error(ChannelError::NameTaken);
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "Research")])
            .when(reserve("c2", "  Research   2 "))
            .then_expect_events(vec![reserved("c2", "Research 2")]);
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "Research")])
            .when(reserve("c1", "Other"))
            .then_expect_error(ChannelError::IdTaken);
    }

    #[test]
    fn a_rename_records_the_old_name_frees_it_and_may_change_only_the_case() {
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "research")])
            .when(rename("c1", "Research", true))
            .then_expect_events(vec![renamed("c1", "research", "Research")]);
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "Research"), renamed("c1", "Research", "Macro")])
            .when(reserve("c2", "research"))
            .then_expect_events(vec![reserved("c2", "research")]);
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "Research")])
            .when(rename("c1", " Research", true))
            .then_expect_events(vec![]);
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "Research"), reserved("c2", "Macro")])
            .when(rename("c2", "RESEARCH", true))
            .then_expect_error(ChannelError::NameTaken);
    }

    #[test]
    fn only_an_owner_renames_a_channel_the_directory_knows() {
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "Research")])
            .when(rename("c1", "Macro", false))
            .then_expect_error(ChannelError::NotOwner);
        TestFramework::<ChannelDirectory>::with(())
            .given(vec![reserved("c1", "Research")])
            .when(rename("c9", "Macro", true))
            .then_expect_error(ChannelError::NotFound);
    }

    #[test]
    fn the_directory_refuses_names_against_the_rules_before_uniqueness() {
        TestFramework::<ChannelDirectory>::with(())
            .given_no_previous_events()
            .when(reserve("c1", ""))
            .then_expect_error(ChannelError::NameRequired);
        TestFramework::<ChannelDirectory>::with(())
            .given_no_previous_events()
            .when(reserve("c1", "news & views"))
            .then_expect_error(ChannelError::NameInvalid);
    }

    #[test]
    fn creating_a_channel_makes_the_creator_its_owner_and_adds_the_others_once() {
        let mut expected = created(false);
        expected.push(added("ann", Role::Member, "owner"));
        expected.push(added("bob", Role::Member, "owner"));
        TestFramework::<Channel>::with(())
            .given_no_previous_events()
            .when(create(" Research ", false, false, &["bob", "ann", "owner", "bob"]))
            .then_expect_events(expected);
    }

    #[test]
    fn only_someone_allowed_to_publish_creates_a_published_channel() {
        TestFramework::<Channel>::with(())
            .given_no_previous_events()
            .when(create("Research", true, false, &[]))
            .then_expect_error(ChannelError::PublishNotAllowed);
        TestFramework::<Channel>::with(())
            .given_no_previous_events()
            .when(create("Research", true, true, &[]))
            .then_expect_events(created(true));
    }

    #[test]
    fn creating_a_channel_twice_is_refused() {
        TestFramework::<Channel>::with(())
            .given(created(false))
            .when(create("Research", false, false, &[]))
            .then_expect_error(ChannelError::IdTaken);
    }

    #[test]
    fn only_owners_manage_a_channel_and_non_members_do_not_see_it() {
        let manage = |actor: &str| {
            vec![
                ChannelCommand::SetPublished { actor: actor.into(), publish: true, can_publish: true },
                ChannelCommand::AddMembers { actor: actor.into(), user_ids: vec!["zed".into()], role: Role::Member },
                ChannelCommand::ChangeRole { actor: actor.into(), user_id: "owner".into(), role: Role::Member },
                ChannelCommand::RemoveMember { actor: actor.into(), user_id: "owner".into() },
                ChannelCommand::ShareBoard {
                    actor: actor.into(),
                    board_id: "b1".into(),
                    definition: Box::new(board("Feed")),
                },
                ChannelCommand::UnshareBoard { actor: actor.into(), board_id: "b1".into() },
            ]
        };
        for command in manage("ann") {
            TestFramework::<Channel>::with(())
                .given(with_member("ann"))
                .when(command)
                .then_expect_error(ChannelError::NotOwner);
        }
        for command in manage("stranger") {
            TestFramework::<Channel>::with(())
                .given(with_member("ann"))
                .when(command)
                .then_expect_error(ChannelError::NotFound);
        }
        // A published channel is seen by the whole organisation, and still managed by its owners.
        let mut published = created(true);
        published.push(added("ann", Role::Member, "owner"));
        for command in manage("stranger") {
            TestFramework::<Channel>::with(())
                .given(published.clone())
                .when(command)
                .then_expect_error(ChannelError::NotOwner);
        }
        TestFramework::<Channel>::with(())
            .given_no_previous_events()
            .when(ChannelCommand::SetPublished { actor: "owner".into(), publish: true, can_publish: true })
            .then_expect_error(ChannelError::NotFound);
    }

    #[test]
    fn an_owner_adds_members_and_those_already_in_keep_their_role() {
        TestFramework::<Channel>::with(())
            .given(with_member("ann"))
            .when(ChannelCommand::AddMembers {
                actor: "owner".into(),
                user_ids: vec!["ann".into(), "bob".into(), "bob".into()],
                role: Role::Owner,
            })
            .then_expect_events(vec![added("bob", Role::Owner, "owner")]);
        TestFramework::<Channel>::with(())
            .given(with_member("ann"))
            .when(ChannelCommand::AddMembers { actor: "owner".into(), user_ids: vec![], role: Role::Member })
            .then_expect_error(ChannelError::NobodyToAdd);
    }

    #[test]
    fn the_last_owner_can_neither_leave_nor_be_removed_nor_demoted() {
        TestFramework::<Channel>::with(())
            .given(with_member("ann"))
            .when(ChannelCommand::RemoveMember { actor: "owner".into(), user_id: "owner".into() })
            .then_expect_error(ChannelError::LastOwner);
        TestFramework::<Channel>::with(())
            .given(with_member("ann"))
            .when(ChannelCommand::ChangeRole { actor: "owner".into(), user_id: "owner".into(), role: Role::Member })
            .then_expect_error(ChannelError::LastOwner);
        assert_eq!(ChannelError::LastOwner.kind(), ErrorKind::Invalid);
        // With a second owner, the first may step down or leave.
        let mut two_owners = with_member("ann");
        two_owners.push(ChannelEvent::MemberRoleChanged {
            channel_id: "c1".into(),
            user_id: "ann".into(),
            from: Role::Member,
            role: Role::Owner,
            changed_by: "owner".into(),
        });
        TestFramework::<Channel>::with(())
            .given(two_owners.clone())
            .when(ChannelCommand::RemoveMember { actor: "owner".into(), user_id: "owner".into() })
            .then_expect_events(vec![ChannelEvent::MemberRemoved {
                channel_id: "c1".into(),
                user_id: "owner".into(),
                removed_by: "owner".into(),
            }]);
        TestFramework::<Channel>::with(())
            .given(two_owners)
            .when(ChannelCommand::RemoveMember { actor: "ann".into(), user_id: "owner".into() })
            .then_expect_events(vec![ChannelEvent::MemberRemoved {
                channel_id: "c1".into(),
                user_id: "owner".into(),
                removed_by: "ann".into(),
            }]);
    }

    #[test]
    fn a_member_may_leave_but_not_remove_others() {
        let mut events = with_member("ann");
        events.push(added("bob", Role::Member, "owner"));
        TestFramework::<Channel>::with(())
            .given(events.clone())
            .when(ChannelCommand::RemoveMember { actor: "ann".into(), user_id: "ann".into() })
            .then_expect_events(vec![ChannelEvent::MemberRemoved {
                channel_id: "c1".into(),
                user_id: "ann".into(),
                removed_by: "ann".into(),
            }]);
        TestFramework::<Channel>::with(())
            .given(events.clone())
            .when(ChannelCommand::RemoveMember { actor: "ann".into(), user_id: "bob".into() })
            .then_expect_error(ChannelError::NotOwner);
        TestFramework::<Channel>::with(())
            .given(events)
            .when(ChannelCommand::RemoveMember { actor: "owner".into(), user_id: "zed".into() })
            .then_expect_error(ChannelError::NotAMember);
    }

    #[test]
    fn roles_change_only_when_they_differ() {
        TestFramework::<Channel>::with(())
            .given(with_member("ann"))
            .when(ChannelCommand::ChangeRole { actor: "owner".into(), user_id: "ann".into(), role: Role::Owner })
            .then_expect_events(vec![ChannelEvent::MemberRoleChanged {
                channel_id: "c1".into(),
                user_id: "ann".into(),
                from: Role::Member,
                role: Role::Owner,
                changed_by: "owner".into(),
            }]);
        TestFramework::<Channel>::with(())
            .given(with_member("ann"))
            .when(ChannelCommand::ChangeRole { actor: "owner".into(), user_id: "ann".into(), role: Role::Member })
            .then_expect_events(vec![]);
    }

    #[test]
    fn publishing_needs_the_permission_and_an_owner_may_always_take_it_back() {
        TestFramework::<Channel>::with(())
            .given(created(false))
            .when(ChannelCommand::SetPublished { actor: "owner".into(), publish: true, can_publish: false })
            .then_expect_error(ChannelError::PublishNotAllowed);
        TestFramework::<Channel>::with(())
            .given(created(false))
            .when(ChannelCommand::SetPublished { actor: "owner".into(), publish: true, can_publish: true })
            .then_expect_events(vec![ChannelEvent::ChannelPublished {
                channel_id: "c1".into(),
                published_by: "owner".into(),
            }]);
        TestFramework::<Channel>::with(())
            .given(created(true))
            .when(ChannelCommand::SetPublished { actor: "owner".into(), publish: false, can_publish: false })
            .then_expect_events(vec![ChannelEvent::ChannelUnpublished {
                channel_id: "c1".into(),
                unpublished_by: "owner".into(),
            }]);
        TestFramework::<Channel>::with(())
            .given(created(true))
            .when(ChannelCommand::SetPublished { actor: "owner".into(), publish: true, can_publish: false })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_shared_feed_keeps_its_cleaned_definition_and_can_be_unshared() {
        let sent = BoardDefinition {
            name: "  Rates ".into(),
            keywords: BoardKeywords {
                include: vec![
                    BoardKeyword { keyword: " inflation ".into(), valid: false },
                    BoardKeyword { keyword: "Inflation".into(), valid: true },
                    BoardKeyword { keyword: "".into(), valid: true },
                ],
                exclude: vec![BoardKeyword { keyword: "inflation".into(), valid: true }],
            },
            date_range: Some("1M".into()),
            sources: serde_json::json!({"rss_news": {"filter": ["a"]}}),
            ..Default::default()
        };
        let kept = BoardDefinition {
            name: "Rates".into(),
            keywords: BoardKeywords {
                include: vec![BoardKeyword { keyword: "inflation".into(), valid: true }],
                exclude: vec![],
            },
            date_range: Some("1M".into()),
            group: Some("default".into()),
            sources: serde_json::json!({"rss_news": {"filter": ["a"]}}),
            ..Default::default()
        };
        TestFramework::<Channel>::with(())
            .given(created(false))
            .when(ChannelCommand::ShareBoard {
                actor: "owner".into(),
                board_id: "b1".into(),
                definition: Box::new(sent),
            })
            .then_expect_events(vec![ChannelEvent::BoardShared {
                channel_id: "c1".into(),
                board_id: "b1".into(),
                definition: Box::new(kept.clone()),
                shared_by: "owner".into(),
            }]);
        let mut shared = created(false);
        shared.push(ChannelEvent::BoardShared {
            channel_id: "c1".into(),
            board_id: "b1".into(),
            definition: Box::new(kept),
            shared_by: "owner".into(),
        });
        TestFramework::<Channel>::with(())
            .given(shared)
            .when(ChannelCommand::UnshareBoard { actor: "owner".into(), board_id: "b1".into() })
            .then_expect_events(vec![ChannelEvent::BoardUnshared {
                channel_id: "c1".into(),
                board_id: "b1".into(),
                unshared_by: "owner".into(),
            }]);
        TestFramework::<Channel>::with(())
            .given(created(false))
            .when(ChannelCommand::UnshareBoard { actor: "owner".into(), board_id: "b9".into() })
            .then_expect_error(ChannelError::BoardNotFound);
    }

    #[test]
    fn a_feed_definition_is_refused_with_the_specs_keyword_and_date_messages() {
        let with_keyword = |k: &str| BoardDefinition {
            keywords: BoardKeywords { include: vec![BoardKeyword { keyword: k.into(), valid: true }], exclude: vec![] },
            ..board("Feed")
        };
        assert_eq!(
            with_keyword("(rates").cleaned().unwrap_err().to_string(),
            "Invalid keyword. Paranthesis are imbalanced."
        );
        assert_eq!(
            with_keyword("rates AND").cleaned().unwrap_err().to_string(),
            "Invalid keyword. Unused Boolean Operators at ends."
        );
        let dated = BoardDefinition { date_range: Some("2 weeks".into()), ..board("Feed") };
        assert_eq!(dated.cleaned(), Err(BoardError::DateRange));
        assert_eq!(board("  ").cleaned(), Err(BoardError::NameRequired));
        let huge = BoardDefinition { common: serde_json::json!("x".repeat(MAX_BOARD_DEFINITION_BYTES)), ..board("F") };
        assert_eq!(huge.cleaned(), Err(BoardError::TooLarge));
    }

    #[test]
    fn a_readers_star_and_visits_record_only_changes() {
        let star = |starred| ReaderCommand::Star { channel_id: "c1".into(), user_id: "ann".into(), starred };
        let starred = ReaderEvent::ChannelStarred { channel_id: "c1".into(), user_id: "ann".into() };
        TestFramework::<ChannelReader>::with(())
            .given_no_previous_events()
            .when(star(true))
            .then_expect_events(vec![starred.clone()]);
        TestFramework::<ChannelReader>::with(())
            .given(vec![starred.clone()])
            .when(star(true))
            .then_expect_events(vec![]);
        TestFramework::<ChannelReader>::with(())
            .given(vec![starred])
            .when(star(false))
            .then_expect_events(vec![ReaderEvent::ChannelUnstarred { channel_id: "c1".into(), user_id: "ann".into() }]);
        let seen = |at: &str| ReaderEvent::CommentsSeen {
            channel_id: "c1".into(),
            user_id: "ann".into(),
            deeplink: "d1".into(),
            at: at.into(),
        };
        let mark = |at: &str| ReaderCommand::MarkCommentsSeen {
            channel_id: "c1".into(),
            user_id: "ann".into(),
            deeplink: "d1".into(),
            at: at.into(),
        };
        TestFramework::<ChannelReader>::with(())
            .given(vec![seen("2026-01-02T00:00:00.000Z")])
            .when(mark("2026-01-01T00:00:00.000Z"))
            .then_expect_events(vec![]);
        TestFramework::<ChannelReader>::with(())
            .given(vec![seen("2026-01-02T00:00:00.000Z")])
            .when(mark("2026-01-03T00:00:00.000Z"))
            .then_expect_events(vec![seen("2026-01-03T00:00:00.000Z")]);
        TestFramework::<ChannelReader>::with(())
            .given_no_previous_events()
            .when(ReaderCommand::MarkSeen { channel_id: "c1".into(), user_id: "ann".into(), at: "t1".into() })
            .then_expect_events(vec![ReaderEvent::ChannelSeen {
                channel_id: "c1".into(),
                user_id: "ann".into(),
                at: "t1".into(),
            }]);
    }

    #[test]
    fn the_publish_title_follows_the_specs_rule() {
        assert_eq!(publish_title(ALL_ORGANIZATION_ID, "example.com", "Acme"), "ALL");
        assert_eq!(publish_title(ORGANIZATION_ID, "example.com", "Acme"), "example.com");
        assert_eq!(publish_title(ORGANIZATION_ID, "", "Acme"), "Acme");
        assert_eq!(publish_title(ORGANIZATION_ID, " ", ""), "your");
    }
}
