//! Notifications: their kinds, and each user's read marks on them.
//!
//! Notifications themselves are not decided by an aggregate: they are a projection of what
//! happened (a comment that mentions someone, a comment on an item someone follows, a new item in
//! a source someone set to high priority), so they need no events of their own. Their id is the
//! position of the event that caused them in the global feed, the same for every recipient and
//! after every rebuild. Reading them is the user's own action, kept by a [`NotificationInbox`]
//! per user (the aggregate id is the user id): one notification read, or all up to the newest the
//! user had.

use std::collections::BTreeSet;

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

/// What a notification is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotificationKind {
    /// A comment mentioned the recipient.
    Mention,
    /// Someone commented on an item the recipient follows in a channel (they shared it there or
    /// commented on it).
    Comment,
    /// A new item arrived in a source the recipient set to priority HIGH.
    SourceItem,
    /// New documents matched one of the recipient's feeds that alerts at once.
    FeedMatch,
    /// The day's new stories of one of the recipient's feeds that alerts by a daily digest.
    FeedDigest,
    /// A document summary the recipient asked for is ready.
    SummaryReady,
    /// Reserved: a report the recipient asked for is ready (reports come later).
    ReportReady,
}

impl NotificationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            NotificationKind::Mention => "mention",
            NotificationKind::Comment => "comment",
            NotificationKind::SourceItem => "source_item",
            NotificationKind::FeedMatch => "feed_match",
            NotificationKind::FeedDigest => "feed_digest",
            NotificationKind::SummaryReady => "summary_ready",
            NotificationKind::ReportReady => "report_ready",
        }
    }

    pub fn parse(kind: &str) -> Option<NotificationKind> {
        [
            NotificationKind::Mention,
            NotificationKind::Comment,
            NotificationKind::SourceItem,
            NotificationKind::FeedMatch,
            NotificationKind::FeedDigest,
            NotificationKind::SummaryReady,
            NotificationKind::ReportReady,
        ]
        .into_iter()
        .find(|k| k.as_str() == kind)
    }
}

/// Returns the id of the notifications an event at feed position `position` caused.
pub fn notification_id(position: i64) -> String {
    position.to_string()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum InboxCommand {
    /// Marks one notification read; the caller checked that it is the user's.
    MarkRead { user_id: String, notification_id: String },
    /// Marks every notification up to position `upto` read (the newest the user had).
    MarkAllRead { user_id: String, upto: i64 },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum InboxEvent {
    NotificationRead { user_id: String, notification_id: String },
    NotificationsAllRead { user_id: String, upto: i64 },
}

crate::impl_domain_event! {
    InboxEvent, versions {
        NotificationRead: "1",
        NotificationsAllRead: "1",
    }
}

/// Marking read cannot fail: marking twice is simply no change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InboxError {}

impl DomainError for InboxError {
    fn kind(&self) -> ErrorKind {
        match *self {}
    }

    fn code(&self) -> &'static str {
        match *self {}
    }
}

/// What a user has read: notifications one by one since the last "all read", and that mark.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NotificationInbox {
    read: BTreeSet<String>,
    all_read_upto: i64,
}

impl NotificationInbox {
    pub fn decide(&self, command: InboxCommand) -> Result<Vec<InboxEvent>, InboxError> {
        Ok(match command {
            InboxCommand::MarkRead { user_id, notification_id } => {
                if self.read.contains(&notification_id) {
                    vec![]
                } else {
                    vec![InboxEvent::NotificationRead { user_id, notification_id }]
                }
            }
            InboxCommand::MarkAllRead { user_id, upto } => {
                if upto <= self.all_read_upto {
                    vec![]
                } else {
                    vec![InboxEvent::NotificationsAllRead { user_id, upto }]
                }
            }
        })
    }
}

impl Aggregate for NotificationInbox {
    const TYPE: &'static str = "notification_inbox";
    type Command = InboxCommand;
    type Event = InboxEvent;
    type Error = InboxError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            InboxEvent::NotificationRead { notification_id, .. } => {
                self.read.insert(notification_id);
            }
            InboxEvent::NotificationsAllRead { upto, .. } => {
                self.all_read_upto = upto;
                // What the mark covers need not be remembered one by one.
                self.read.retain(|id| id.parse::<i64>().map_or(true, |p| p > upto));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn read(id: &str) -> InboxEvent {
        InboxEvent::NotificationRead { user_id: "u1".into(), notification_id: id.into() }
    }

    #[test]
    fn reading_a_notification_is_recorded_once() {
        TestFramework::<NotificationInbox>::with(())
            .given_no_previous_events()
            .when(InboxCommand::MarkRead { user_id: "u1".into(), notification_id: "42".into() })
            .then_expect_events(vec![read("42")]);
        TestFramework::<NotificationInbox>::with(())
            .given(vec![read("42")])
            .when(InboxCommand::MarkRead { user_id: "u1".into(), notification_id: "42".into() })
            .then_expect_events(vec![]);
    }

    #[test]
    fn marking_all_read_records_the_newest_position_and_never_goes_back() {
        TestFramework::<NotificationInbox>::with(())
            .given(vec![read("7")])
            .when(InboxCommand::MarkAllRead { user_id: "u1".into(), upto: 50 })
            .then_expect_events(vec![InboxEvent::NotificationsAllRead { user_id: "u1".into(), upto: 50 }]);
        TestFramework::<NotificationInbox>::with(())
            .given(vec![InboxEvent::NotificationsAllRead { user_id: "u1".into(), upto: 50 }])
            .when(InboxCommand::MarkAllRead { user_id: "u1".into(), upto: 40 })
            .then_expect_events(vec![]);
    }

    #[test]
    fn kinds_read_back_from_their_names() {
        for kind in [NotificationKind::Mention, NotificationKind::SourceItem, NotificationKind::ReportReady] {
            assert_eq!(NotificationKind::parse(kind.as_str()), Some(kind));
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
        assert_eq!(NotificationKind::parse("nonsense"), None);
    }
}
