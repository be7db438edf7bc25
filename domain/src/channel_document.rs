//! One document in one channel: whether it is shared there, and the comments on it.
//!
//! A [`ChannelDocument`] (id [`channel_document_id`] of the channel and the deeplink) guards
//! who may unshare the document (whoever shared it, or an owner) and its comments: present, not
//! too long, not on a card from a chat; mentions only of the channel's members and only when the
//! channel is not published to the organisation; edits by the author only; deletion by the
//! author or a channel owner. Every comment, edit and deletion is an event, and a comment's
//! events carry the ids of the people it mentions, so notifications can be built from them.
//!
//! That the actor may see the channel, their role in it, the mentioned people's membership and
//! whether the document came from a chat are read by the caller and passed in with the command
//! ([`Actor`], [`CommentContext`]).

use std::collections::{BTreeMap, BTreeSet};

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::channel::Role;
use crate::error::{DomainError, ErrorKind};

/// The longest comment, in characters.
pub const MAX_COMMENT_CHARS: usize = 10_000;
/// How many people one comment may mention.
pub const MAX_MENTIONS: usize = 50;
/// Source keys of chat apps: their cards cannot be commented upon.
pub const CHAT_SOURCES: &[&str] = &["chats", "whatsapp", "telegram", "slack", "teams", "discord"];

/// Returns whether a document of the source `key` (or in the category `key`) came from a chat.
pub fn is_chat_source(key: &str) -> bool {
    CHAT_SOURCES.contains(&key)
}

/// Returns the id of one document's state in one channel.
pub fn channel_document_id(channel_id: &str, deeplink: &str) -> String {
    format!("{channel_id}/{deeplink}")
}

/// Who acts, and their role in the channel (someone who sees a published channel without being
/// a member acts as a member).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actor {
    pub user_id: String,
    pub role: Role,
}

/// What the caller read about the channel and the document for a comment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommentContext {
    /// Whether the channel is published to the organisation: mentions are refused there.
    pub published: bool,
    /// The channel's members, or at least those of them the comment mentions.
    pub members: BTreeSet<String>,
    /// Whether the document came from a chat.
    pub from_chat: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChannelDocumentCommand {
    /// Shares the document into the channel; sharing it again changes nothing.
    Share {
        channel_id: String,
        deeplink: String,
        actor: Actor,
    },
    Unshare {
        channel_id: String,
        deeplink: String,
        actor: Actor,
    },
    /// Adds a comment; `comment_id` is chosen by the caller (a fresh, time-ordered UUID).
    /// `mentions` are user ids.
    AddComment {
        channel_id: String,
        deeplink: String,
        comment_id: String,
        actor: Actor,
        text: String,
        mentions: Vec<String>,
        context: CommentContext,
    },
    EditComment {
        channel_id: String,
        deeplink: String,
        comment_id: String,
        actor: Actor,
        text: String,
        mentions: Vec<String>,
        context: CommentContext,
    },
    DeleteComment {
        channel_id: String,
        deeplink: String,
        comment_id: String,
        actor: Actor,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ChannelDocumentEvent {
    DocumentShared {
        channel_id: String,
        deeplink: String,
        shared_by: String,
    },
    DocumentUnshared {
        channel_id: String,
        deeplink: String,
        unshared_by: String,
    },
    /// `mentioned`: the ids of the people the comment mentions, sorted.
    CommentAdded {
        channel_id: String,
        deeplink: String,
        comment_id: String,
        author: String,
        text: String,
        mentioned: Vec<String>,
    },
    /// The comment's whole new text and mentions; `newly_mentioned` are the people mentioned now
    /// who were not before.
    CommentEdited {
        channel_id: String,
        deeplink: String,
        comment_id: String,
        author: String,
        text: String,
        mentioned: Vec<String>,
        newly_mentioned: Vec<String>,
    },
    CommentDeleted {
        channel_id: String,
        deeplink: String,
        comment_id: String,
        author: String,
        deleted_by: String,
    },
}

crate::impl_domain_event! {
    ChannelDocumentEvent, versions {
        DocumentShared: "1",
        DocumentUnshared: "1",
        CommentAdded: "1",
        CommentEdited: "1",
        CommentDeleted: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChannelDocumentError {
    #[error("comment cannot be empty")]
    EmptyComment,
    #[error("comment must be at most {MAX_COMMENT_CHARS} characters")]
    CommentTooLong,
    #[error("comment cannot contain control characters")]
    ControlCharacters,
    /// The spec's text.
    #[error("Cards originating from chats cannot be commented upon")]
    ChatCard,
    #[error("mentions are allowed only in channels that are not published to the organization")]
    MentionsInPublishedChannel,
    #[error("only members of this channel can be mentioned")]
    MentionNotAMember,
    #[error("a comment can mention at most {MAX_MENTIONS} people")]
    TooManyMentions,
    #[error("comment not found")]
    CommentNotFound,
    #[error("this comment id is taken")]
    IdTaken,
    #[error("only its author may edit a comment")]
    NotAuthor,
    #[error("only its author or an owner of the channel may delete a comment")]
    MayNotDelete,
    #[error("only the member who shared it or an owner of the channel may unshare it")]
    MayNotUnshare,
}

impl DomainError for ChannelDocumentError {
    fn kind(&self) -> ErrorKind {
        match self {
            ChannelDocumentError::EmptyComment
            | ChannelDocumentError::CommentTooLong
            | ChannelDocumentError::ControlCharacters
            | ChannelDocumentError::ChatCard
            | ChannelDocumentError::MentionsInPublishedChannel
            | ChannelDocumentError::MentionNotAMember
            | ChannelDocumentError::TooManyMentions => ErrorKind::Invalid,
            ChannelDocumentError::CommentNotFound => ErrorKind::NotFound,
            ChannelDocumentError::IdTaken => ErrorKind::Conflict,
            ChannelDocumentError::NotAuthor
            | ChannelDocumentError::MayNotDelete
            | ChannelDocumentError::MayNotUnshare => ErrorKind::Forbidden,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            ChannelDocumentError::EmptyComment => "comment_empty",
            ChannelDocumentError::CommentTooLong => "comment_too_long",
            ChannelDocumentError::ControlCharacters => "comment_invalid",
            ChannelDocumentError::ChatCard => "chat_card_not_commentable",
            ChannelDocumentError::MentionsInPublishedChannel => "mentions_not_allowed",
            ChannelDocumentError::MentionNotAMember => "mention_not_a_member",
            ChannelDocumentError::TooManyMentions => "too_many_mentions",
            ChannelDocumentError::CommentNotFound => "comment_not_found",
            ChannelDocumentError::IdTaken => "comment_id_taken",
            ChannelDocumentError::NotAuthor => "not_comment_author",
            ChannelDocumentError::MayNotDelete => "may_not_delete_comment",
            ChannelDocumentError::MayNotUnshare => "may_not_unshare",
        }
    }
}

/// Returns a comment's text as it is kept (trimmed at both ends; line breaks inside stay), or
/// why it is refused.
pub fn valid_text(text: &str) -> Result<String, ChannelDocumentError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ChannelDocumentError::EmptyComment);
    }
    if text.chars().count() > MAX_COMMENT_CHARS {
        return Err(ChannelDocumentError::CommentTooLong);
    }
    if text.chars().any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r') {
        return Err(ChannelDocumentError::ControlCharacters);
    }
    Ok(text.replace("\r\n", "\n"))
}

/// Returns the mentioned ids, sorted and without duplicates, or why they are refused.
fn valid_mentions(mentions: Vec<String>, context: &CommentContext) -> Result<Vec<String>, ChannelDocumentError> {
    let mentioned: BTreeSet<String> = mentions.into_iter().collect();
    if mentioned.is_empty() {
        return Ok(vec![]);
    }
    if context.published {
        return Err(ChannelDocumentError::MentionsInPublishedChannel);
    }
    if mentioned.len() > MAX_MENTIONS {
        return Err(ChannelDocumentError::TooManyMentions);
    }
    if !mentioned.is_subset(&context.members) {
        return Err(ChannelDocumentError::MentionNotAMember);
    }
    Ok(mentioned.into_iter().collect())
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct PostedComment {
    author: String,
    text: String,
    mentioned: Vec<String>,
}

/// One document in one channel: who shared it (if it is shared), and its comments by id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChannelDocument {
    shared_by: Option<String>,
    comments: BTreeMap<String, PostedComment>,
    /// Ids of deleted comments: never reused, and not found for edits.
    deleted: BTreeSet<String>,
}

impl ChannelDocument {
    fn comment(&self, comment_id: &str) -> Result<&PostedComment, ChannelDocumentError> {
        self.comments.get(comment_id).ok_or(ChannelDocumentError::CommentNotFound)
    }

    pub fn decide(&self, command: ChannelDocumentCommand) -> Result<Vec<ChannelDocumentEvent>, ChannelDocumentError> {
        use ChannelDocumentCommand as C;
        use ChannelDocumentEvent as E;
        match command {
            C::Share { channel_id, deeplink, actor } => Ok(if self.shared_by.is_some() {
                vec![]
            } else {
                vec![E::DocumentShared { channel_id, deeplink, shared_by: actor.user_id }]
            }),
            C::Unshare { channel_id, deeplink, actor } => match &self.shared_by {
                None => Ok(vec![]),
                Some(by) if *by == actor.user_id || actor.role == Role::Owner => {
                    Ok(vec![E::DocumentUnshared { channel_id, deeplink, unshared_by: actor.user_id }])
                }
                Some(_) => Err(ChannelDocumentError::MayNotUnshare),
            },
            C::AddComment { channel_id, deeplink, comment_id, actor, text, mentions, context } => {
                if context.from_chat {
                    return Err(ChannelDocumentError::ChatCard);
                }
                if self.comments.contains_key(&comment_id) || self.deleted.contains(&comment_id) {
                    return Err(ChannelDocumentError::IdTaken);
                }
                let text = valid_text(&text)?;
                let mentioned = valid_mentions(mentions, &context)?;
                Ok(vec![E::CommentAdded { channel_id, deeplink, comment_id, author: actor.user_id, text, mentioned }])
            }
            C::EditComment { channel_id, deeplink, comment_id, actor, text, mentions, context } => {
                let posted = self.comment(&comment_id)?;
                if posted.author != actor.user_id {
                    return Err(ChannelDocumentError::NotAuthor);
                }
                let text = valid_text(&text)?;
                let mentioned = valid_mentions(mentions, &context)?;
                if text == posted.text && mentioned == posted.mentioned {
                    return Ok(vec![]);
                }
                let newly_mentioned = mentioned.iter().filter(|m| !posted.mentioned.contains(m)).cloned().collect();
                Ok(vec![E::CommentEdited {
                    channel_id,
                    deeplink,
                    comment_id,
                    author: actor.user_id,
                    text,
                    mentioned,
                    newly_mentioned,
                }])
            }
            C::DeleteComment { channel_id, deeplink, comment_id, actor } => {
                let posted = self.comment(&comment_id)?;
                if posted.author != actor.user_id && actor.role != Role::Owner {
                    return Err(ChannelDocumentError::MayNotDelete);
                }
                Ok(vec![E::CommentDeleted {
                    channel_id,
                    deeplink,
                    comment_id,
                    author: posted.author.clone(),
                    deleted_by: actor.user_id,
                }])
            }
        }
    }
}

impl Aggregate for ChannelDocument {
    const TYPE: &'static str = "channel_document";
    type Command = ChannelDocumentCommand;
    type Event = ChannelDocumentEvent;
    type Error = ChannelDocumentError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            ChannelDocumentEvent::DocumentShared { shared_by, .. } => self.shared_by = Some(shared_by),
            ChannelDocumentEvent::DocumentUnshared { .. } => self.shared_by = None,
            ChannelDocumentEvent::CommentAdded { comment_id, author, text, mentioned, .. }
            | ChannelDocumentEvent::CommentEdited { comment_id, author, text, mentioned, .. } => {
                self.comments.insert(comment_id, PostedComment { author, text, mentioned });
            }
            ChannelDocumentEvent::CommentDeleted { comment_id, .. } => {
                self.comments.remove(&comment_id);
                self.deleted.insert(comment_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn member(user_id: &str) -> Actor {
        Actor { user_id: user_id.into(), role: Role::Member }
    }

    fn owner(user_id: &str) -> Actor {
        Actor { user_id: user_id.into(), role: Role::Owner }
    }

    fn members(ids: &[&str]) -> CommentContext {
        CommentContext { members: ids.iter().map(|m| m.to_string()).collect(), ..Default::default() }
    }

    fn add(
        comment_id: &str,
        author: &str,
        text: &str,
        mentions: &[&str],
        context: CommentContext,
    ) -> ChannelDocumentCommand {
        ChannelDocumentCommand::AddComment {
            channel_id: "c1".into(),
            deeplink: "d1".into(),
            comment_id: comment_id.into(),
            actor: member(author),
            text: text.into(),
            mentions: mentions.iter().map(|m| m.to_string()).collect(),
            context,
        }
    }

    fn edit(comment_id: &str, actor: Actor, text: &str, mentions: &[&str]) -> ChannelDocumentCommand {
        ChannelDocumentCommand::EditComment {
            channel_id: "c1".into(),
            deeplink: "d1".into(),
            comment_id: comment_id.into(),
            actor,
            text: text.into(),
            mentions: mentions.iter().map(|m| m.to_string()).collect(),
            context: members(&["ann", "bob", "cat"]),
        }
    }

    fn delete(comment_id: &str, actor: Actor) -> ChannelDocumentCommand {
        ChannelDocumentCommand::DeleteComment {
            channel_id: "c1".into(),
            deeplink: "d1".into(),
            comment_id: comment_id.into(),
            actor,
        }
    }

    fn added(comment_id: &str, author: &str, text: &str, mentioned: &[&str]) -> ChannelDocumentEvent {
        ChannelDocumentEvent::CommentAdded {
            channel_id: "c1".into(),
            deeplink: "d1".into(),
            comment_id: comment_id.into(),
            author: author.into(),
            text: text.into(),
            mentioned: mentioned.iter().map(|m| m.to_string()).collect(),
        }
    }

    fn shared(by: &str) -> ChannelDocumentEvent {
        ChannelDocumentEvent::DocumentShared { channel_id: "c1".into(), deeplink: "d1".into(), shared_by: by.into() }
    }

    #[test]
    fn a_comment_is_kept_trimmed_with_its_mentions_sorted_once() {
        TestFramework::<ChannelDocument>::with(())
            .given_no_previous_events()
            .when(add(
                "m1",
                "ann",
                "  look at this\r\nplease @bob ",
                &["cat", "bob", "cat"],
                members(&["ann", "bob", "cat"]),
            ))
            .then_expect_events(vec![added("m1", "ann", "look at this\nplease @bob", &["bob", "cat"])]);
    }

    #[test]
    fn an_empty_or_overlong_comment_is_refused() {
        for (text, error) in [
            (" \n\t ".to_string(), ChannelDocumentError::EmptyComment),
            ("x".repeat(MAX_COMMENT_CHARS + 1), ChannelDocumentError::CommentTooLong),
            ("bell\u{7}".to_string(), ChannelDocumentError::ControlCharacters),
        ] {
            TestFramework::<ChannelDocument>::with(())
                .given_no_previous_events()
                .when(add("m1", "ann", &text, &[], CommentContext::default()))
                .then_expect_error(error);
        }
    }

    #[test]
    fn a_card_from_a_chat_cannot_be_commented_upon_with_the_specs_text() {
        TestFramework::<ChannelDocument>::with(())
            .given_no_previous_events()
            .when(add("m1", "ann", "hi", &[], CommentContext { from_chat: true, ..Default::default() }))
            .then_expect_error(ChannelDocumentError::ChatCard);
        assert_eq!(ChannelDocumentError::ChatCard.to_string(), "Cards originating from chats cannot be commented upon");
        assert!(is_chat_source("whatsapp") && is_chat_source("chats") && !is_chat_source("rss_news"));
    }

    #[test]
    fn mentions_are_of_members_only_and_never_in_a_published_channel() {
        TestFramework::<ChannelDocument>::with(())
            .given_no_previous_events()
            .when(add("m1", "ann", "hi @zed", &["zed"], members(&["ann", "bob"])))
            .then_expect_error(ChannelDocumentError::MentionNotAMember);
        TestFramework::<ChannelDocument>::with(())
            .given_no_previous_events()
            .when(add("m1", "ann", "hi @bob", &["bob"], CommentContext { published: true, ..members(&["ann", "bob"]) }))
            .then_expect_error(ChannelDocumentError::MentionsInPublishedChannel);
        // Without mentions, a published channel takes comments.
        TestFramework::<ChannelDocument>::with(())
            .given_no_previous_events()
            .when(add("m1", "ann", "hi all", &[], CommentContext { published: true, ..Default::default() }))
            .then_expect_events(vec![added("m1", "ann", "hi all", &[])]);
        let many: Vec<String> = (0..=MAX_MENTIONS).map(|i| format!("u{i}")).collect();
        let refs: Vec<&str> = many.iter().map(String::as_str).collect();
        TestFramework::<ChannelDocument>::with(())
            .given_no_previous_events()
            .when(add("m1", "ann", "all of you", &refs, members(&refs)))
            .then_expect_error(ChannelDocumentError::TooManyMentions);
    }

    #[test]
    fn only_the_author_edits_and_an_edit_names_the_newly_mentioned() {
        TestFramework::<ChannelDocument>::with(())
            .given(vec![added("m1", "ann", "first", &["bob"])])
            .when(edit("m1", member("ann"), "second", &["bob", "cat"]))
            .then_expect_events(vec![ChannelDocumentEvent::CommentEdited {
                channel_id: "c1".into(),
                deeplink: "d1".into(),
                comment_id: "m1".into(),
                author: "ann".into(),
                text: "second".into(),
                mentioned: vec!["bob".into(), "cat".into()],
                newly_mentioned: vec!["cat".into()],
            }]);
        TestFramework::<ChannelDocument>::with(())
            .given(vec![added("m1", "ann", "first", &[])])
            .when(edit("m1", owner("bob"), "mine now", &[]))
            .then_expect_error(ChannelDocumentError::NotAuthor);
        TestFramework::<ChannelDocument>::with(())
            .given(vec![added("m1", "ann", "first", &[])])
            .when(edit("m1", member("ann"), "  first ", &[]))
            .then_expect_events(vec![]);
        TestFramework::<ChannelDocument>::with(())
            .given(vec![added("m1", "ann", "first", &[])])
            .when(edit("m1", member("ann"), "  ", &[]))
            .then_expect_error(ChannelDocumentError::EmptyComment);
    }

    #[test]
    fn the_author_or_an_owner_deletes_a_comment_and_it_stays_deleted() {
        let deleted = |by: &str| ChannelDocumentEvent::CommentDeleted {
            channel_id: "c1".into(),
            deeplink: "d1".into(),
            comment_id: "m1".into(),
            author: "ann".into(),
            deleted_by: by.into(),
        };
        TestFramework::<ChannelDocument>::with(())
            .given(vec![added("m1", "ann", "first", &[])])
            .when(delete("m1", member("ann")))
            .then_expect_events(vec![deleted("ann")]);
        TestFramework::<ChannelDocument>::with(())
            .given(vec![added("m1", "ann", "first", &[])])
            .when(delete("m1", owner("bob")))
            .then_expect_events(vec![deleted("bob")]);
        TestFramework::<ChannelDocument>::with(())
            .given(vec![added("m1", "ann", "first", &[])])
            .when(delete("m1", member("bob")))
            .then_expect_error(ChannelDocumentError::MayNotDelete);
        for command in [delete("m1", member("ann")), edit("m1", member("ann"), "again", &[])] {
            TestFramework::<ChannelDocument>::with(())
                .given(vec![added("m1", "ann", "first", &[]), deleted("ann")])
                .when(command)
                .then_expect_error(ChannelDocumentError::CommentNotFound);
        }
        TestFramework::<ChannelDocument>::with(())
            .given(vec![added("m1", "ann", "first", &[]), deleted("ann")])
            .when(add("m1", "ann", "again", &[], CommentContext::default()))
            .then_expect_error(ChannelDocumentError::IdTaken);
    }

    #[test]
    fn sharing_is_recorded_once_and_undone_by_the_sharer_or_an_owner() {
        let share =
            ChannelDocumentCommand::Share { channel_id: "c1".into(), deeplink: "d1".into(), actor: member("ann") };
        TestFramework::<ChannelDocument>::with(())
            .given_no_previous_events()
            .when(share.clone())
            .then_expect_events(vec![shared("ann")]);
        TestFramework::<ChannelDocument>::with(()).given(vec![shared("bob")]).when(share).then_expect_events(vec![]);
        let unshare =
            |actor: Actor| ChannelDocumentCommand::Unshare { channel_id: "c1".into(), deeplink: "d1".into(), actor };
        TestFramework::<ChannelDocument>::with(())
            .given(vec![shared("bob")])
            .when(unshare(member("ann")))
            .then_expect_error(ChannelDocumentError::MayNotUnshare);
        for actor in [member("bob"), owner("cat")] {
            let by = actor.user_id.clone();
            TestFramework::<ChannelDocument>::with(())
                .given(vec![shared("bob")])
                .when(unshare(actor))
                .then_expect_events(vec![ChannelDocumentEvent::DocumentUnshared {
                    channel_id: "c1".into(),
                    deeplink: "d1".into(),
                    unshared_by: by,
                }]);
        }
        TestFramework::<ChannelDocument>::with(())
            .given_no_previous_events()
            .when(unshare(member("ann")))
            .then_expect_events(vec![]);
    }
}
