//! Sources and who follows them.
//!
//! A [`Source`] is shared: one RSS URL or website is one source however many users follow it, so
//! it is fetched once. A [`Subscription`] is one user's follow of one source, with its priority.
//! Fetch bookkeeping (ETag, failures, leases) is operational state kept beside the store, not
//! events: it records no user action and would grow a source's history without bound.

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::error::{DomainError, ErrorKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SourceKind {
    /// An RSS, Atom or JSON feed URL.
    Rss,
    /// A website followed by URL: its feeds when it has any, else its pages.
    Website,
    /// An entry of the public catalogue (exchanges, filings), by key.
    Public,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SourceCommand {
    Register {
        kind: SourceKind,
        /// Catalogue key, or the canonical URL for feeds and websites.
        key: String,
        url: Option<String>,
        label: String,
        /// Whether `label` is only a stand-in (a feed's host, when nobody named it): the feed's
        /// own title replaces it once the feed has been read.
        provisional: bool,
    },
    /// Takes the title a fetched feed gives itself as the source's label, when the label is only
    /// a stand-in; a label somebody chose is kept.
    AdoptFeedTitle { title: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SourceEvent {
    SourceRegistered {
        kind: SourceKind,
        key: String,
        url: Option<String>,
        label: String,
        /// Absent from sources registered before feeds took their own titles: their labels stay.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        provisional: bool,
    },
    /// The source took the title its feed gives itself in place of a stand-in label.
    SourceRenamed { from: String, label: String },
}

crate::impl_domain_event! {
    SourceEvent, versions {
        SourceRegistered: "1",
        SourceRenamed: "1",
    }
}

/// Longest label a feed's own title gives a source (longer titles are cut).
pub const MAX_LABEL_CHARS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    #[error("a source needs a label")]
    MissingLabel,
}

impl DomainError for SourceError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Invalid
    }

    fn code(&self) -> &'static str {
        "missing_label"
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Source {
    registered: bool,
    label: String,
    /// The label is a stand-in the feed's own title may replace.
    provisional: bool,
}

impl Source {
    /// Registering a source that exists already changes nothing: many users add the same URL.
    pub fn decide(&self, command: SourceCommand) -> Result<Vec<SourceEvent>, SourceError> {
        match command {
            SourceCommand::Register { kind, key, url, label, provisional } => {
                if self.registered {
                    return Ok(vec![]);
                }
                if label.trim().is_empty() {
                    return Err(SourceError::MissingLabel);
                }
                Ok(vec![SourceEvent::SourceRegistered { kind, key, url, label: label.trim().to_string(), provisional }])
            }
            SourceCommand::AdoptFeedTitle { title } => {
                let title: String = title.split_whitespace().collect::<Vec<_>>().join(" ");
                let title: String = title.chars().take(MAX_LABEL_CHARS).collect();
                if !self.registered || !self.provisional || title.is_empty() || title == self.label {
                    return Ok(vec![]);
                }
                Ok(vec![SourceEvent::SourceRenamed { from: self.label.clone(), label: title }])
            }
        }
    }
}

impl Aggregate for Source {
    const TYPE: &'static str = "source";
    type Command = SourceCommand;
    type Event = SourceEvent;
    type Error = SourceError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            SourceEvent::SourceRegistered { label, provisional, .. } => {
                self.registered = true;
                self.label = label;
                self.provisional = provisional;
            }
            // A feed names itself once: a later change of its title is not followed.
            SourceEvent::SourceRenamed { label, .. } => {
                self.label = label;
                self.provisional = false;
            }
        }
    }
}

/// How prominently a followed source shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Priority {
    High,
    Medium,
    Low,
}

/// Returns the id of a user's subscription to a source.
pub fn subscription_id(user_id: &str, source_id: &str) -> String {
    format!("{user_id}/{source_id}")
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SubscriptionCommand {
    Follow {
        user_id: String,
        source_id: String,
    },
    Unfollow,
    SetPriority(Priority),
    /// Asks for the source to be fetched now, instead of at its next scheduled attempt (after a
    /// failure, that can be hours away).
    RequestFetch,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum SubscriptionEvent {
    SourceFollowed {
        user_id: String,
        source_id: String,
        priority: Priority,
    },
    SourceUnfollowed {
        user_id: String,
        source_id: String,
    },
    SourcePriorityChanged {
        user_id: String,
        source_id: String,
        priority: Priority,
    },
    /// A follower asked for the source to be fetched again now.
    SourceFetchRequested {
        user_id: String,
        source_id: String,
    },
}

crate::impl_domain_event! {
    SubscriptionEvent, versions {
        SourceFollowed: "1",
        SourceUnfollowed: "1",
        SourcePriorityChanged: "1",
        SourceFetchRequested: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubscriptionError {
    #[error("you do not follow this source")]
    NotFollowing,
}

impl DomainError for SubscriptionError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::NotFound
    }

    fn code(&self) -> &'static str {
        "not_following"
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Subscription {
    user_id: String,
    source_id: String,
    following: bool,
    priority: Option<Priority>,
}

impl Subscription {
    pub fn decide(&self, command: SubscriptionCommand) -> Result<Vec<SubscriptionEvent>, SubscriptionError> {
        match command {
            SubscriptionCommand::Follow { user_id, source_id } => Ok(if self.following {
                vec![]
            } else {
                vec![SubscriptionEvent::SourceFollowed {
                    user_id,
                    source_id,
                    // A source followed again keeps the priority it had.
                    priority: self.priority.unwrap_or(Priority::Medium),
                }]
            }),
            SubscriptionCommand::Unfollow => {
                if !self.following {
                    return Err(SubscriptionError::NotFollowing);
                }
                Ok(vec![SubscriptionEvent::SourceUnfollowed {
                    user_id: self.user_id.clone(),
                    source_id: self.source_id.clone(),
                }])
            }
            SubscriptionCommand::SetPriority(priority) => {
                if !self.following {
                    return Err(SubscriptionError::NotFollowing);
                }
                Ok(if self.priority == Some(priority) {
                    vec![]
                } else {
                    vec![SubscriptionEvent::SourcePriorityChanged {
                        user_id: self.user_id.clone(),
                        source_id: self.source_id.clone(),
                        priority,
                    }]
                })
            }
            SubscriptionCommand::RequestFetch => {
                if !self.following {
                    return Err(SubscriptionError::NotFollowing);
                }
                Ok(vec![SubscriptionEvent::SourceFetchRequested {
                    user_id: self.user_id.clone(),
                    source_id: self.source_id.clone(),
                }])
            }
        }
    }
}

impl Aggregate for Subscription {
    const TYPE: &'static str = "subscription";
    type Command = SubscriptionCommand;
    type Event = SubscriptionEvent;
    type Error = SubscriptionError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            SubscriptionEvent::SourceFollowed { user_id, source_id, priority } => {
                self.user_id = user_id;
                self.source_id = source_id;
                self.following = true;
                self.priority = Some(priority);
            }
            SubscriptionEvent::SourceUnfollowed { .. } => self.following = false,
            SubscriptionEvent::SourcePriorityChanged { priority, .. } => self.priority = Some(priority),
            SubscriptionEvent::SourceFetchRequested { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    fn followed(priority: Priority) -> SubscriptionEvent {
        SubscriptionEvent::SourceFollowed { user_id: "u1".into(), source_id: "s1".into(), priority }
    }

    #[test]
    fn registering_a_known_source_again_changes_nothing() {
        TestFramework::<Source>::with(())
            .given(vec![SourceEvent::SourceRegistered {
                kind: SourceKind::Rss,
                key: "https://example.com/feed".into(),
                url: Some("https://example.com/feed".into()),
                label: "Example".into(),
                provisional: false,
            }])
            .when(SourceCommand::Register {
                kind: SourceKind::Rss,
                key: "https://example.com/feed".into(),
                url: Some("https://example.com/feed".into()),
                label: "Other".into(),
                provisional: false,
            })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_source_without_a_label_is_refused() {
        TestFramework::<Source>::with(())
            .given_no_previous_events()
            .when(SourceCommand::Register {
                kind: SourceKind::Public,
                key: "bse_filings".into(),
                url: None,
                label: " ".into(),
                provisional: false,
            })
            .then_expect_error(SourceError::MissingLabel);
    }

    #[test]
    fn following_starts_at_medium_priority() {
        TestFramework::<Subscription>::with(())
            .given_no_previous_events()
            .when(SubscriptionCommand::Follow { user_id: "u1".into(), source_id: "s1".into() })
            .then_expect_events(vec![followed(Priority::Medium)]);
    }

    #[test]
    fn following_again_after_unfollowing_keeps_the_old_priority() {
        TestFramework::<Subscription>::with(())
            .given(vec![
                followed(Priority::Medium),
                SubscriptionEvent::SourcePriorityChanged {
                    user_id: "u1".into(),
                    source_id: "s1".into(),
                    priority: Priority::High,
                },
                SubscriptionEvent::SourceUnfollowed { user_id: "u1".into(), source_id: "s1".into() },
            ])
            .when(SubscriptionCommand::Follow { user_id: "u1".into(), source_id: "s1".into() })
            .then_expect_events(vec![followed(Priority::High)]);
    }

    #[test]
    fn unfollowing_a_source_not_followed_is_refused() {
        TestFramework::<Subscription>::with(())
            .given_no_previous_events()
            .when(SubscriptionCommand::Unfollow)
            .then_expect_error(SubscriptionError::NotFollowing);
    }

    #[test]
    fn the_priority_of_an_unfollowed_source_cannot_change() {
        TestFramework::<Subscription>::with(())
            .given(vec![
                followed(Priority::Low),
                SubscriptionEvent::SourceUnfollowed { user_id: "u1".into(), source_id: "s1".into() },
            ])
            .when(SubscriptionCommand::SetPriority(Priority::High))
            .then_expect_error(SubscriptionError::NotFollowing);
    }

    fn registered(label: &str, provisional: bool) -> SourceEvent {
        SourceEvent::SourceRegistered {
            kind: SourceKind::Rss,
            key: "https://example.com/feed".into(),
            url: Some("https://example.com/feed".into()),
            label: label.into(),
            provisional,
        }
    }

    #[test]
    fn a_feed_named_by_its_host_takes_its_own_title() {
        TestFramework::<Source>::with(())
            .given(vec![registered("example.com", true)])
            .when(SourceCommand::AdoptFeedTitle { title: "  Example\n News ".into() })
            .then_expect_events(vec![SourceEvent::SourceRenamed {
                from: "example.com".into(),
                label: "Example News".into(),
            }]);
    }

    #[test]
    fn a_label_somebody_chose_is_kept_whatever_the_feed_calls_itself() {
        TestFramework::<Source>::with(())
            .given(vec![registered("My markets", false)])
            .when(SourceCommand::AdoptFeedTitle { title: "Example News".into() })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_feed_takes_its_title_once() {
        TestFramework::<Source>::with(())
            .given(vec![
                registered("example.com", true),
                SourceEvent::SourceRenamed { from: "example.com".into(), label: "Example News".into() },
            ])
            .when(SourceCommand::AdoptFeedTitle { title: "Example News, renamed".into() })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_blank_feed_title_leaves_the_stand_in() {
        TestFramework::<Source>::with(())
            .given(vec![registered("example.com", true)])
            .when(SourceCommand::AdoptFeedTitle { title: " ".into() })
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_follower_may_ask_for_a_fetch_now() {
        TestFramework::<Subscription>::with(())
            .given(vec![followed(Priority::Medium)])
            .when(SubscriptionCommand::RequestFetch)
            .then_expect_events(vec![SubscriptionEvent::SourceFetchRequested {
                user_id: "u1".into(),
                source_id: "s1".into(),
            }]);
    }

    #[test]
    fn only_a_follower_may_ask_for_a_fetch() {
        TestFramework::<Subscription>::with(())
            .given(vec![
                followed(Priority::Medium),
                SubscriptionEvent::SourceUnfollowed { user_id: "u1".into(), source_id: "s1".into() },
            ])
            .when(SubscriptionCommand::RequestFetch)
            .then_expect_error(SubscriptionError::NotFollowing);
    }
}
