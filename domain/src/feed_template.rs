//! The instance's own feed templates (`/connect/setFeedTemplates`): ready-made feed definitions
//! an administrator offers every member in the feed builder, beside the built-in ones.
//!
//! One [`FeedTemplates`] aggregate holds them all (id [`FEED_TEMPLATES_ID`]), in the order they
//! are offered. An administrator saves the whole list at once, as the builder's settings page
//! sends it; [`FeedTemplates::decide`] turns the difference into one event per template added,
//! changed or removed, and one when only the order changed, so an auditor reads what changed.

use std::collections::BTreeSet;

use cqrs_es::Aggregate;
use serde::{Deserialize, Serialize};

use crate::board::{BoardDefinition, BoardError};
use crate::error::{DomainError, ErrorKind};

/// The id of the one feed-templates aggregate.
pub const FEED_TEMPLATES_ID: &str = "instance";
/// How many templates an instance may offer.
pub const MAX_FEED_TEMPLATES: usize = 50;

/// One template: a feed definition with the name and description the builder lists it by (the
/// definition's own). `id` is given by the server when the template is first saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FeedTemplate {
    pub id: String,
    pub definition: BoardDefinition,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FeedTemplatesCommand {
    /// Replaces the list with `templates`, in this order. A template whose id is new is added.
    Set { actor: String, templates: Vec<FeedTemplate> },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum FeedTemplatesEvent {
    FeedTemplateAdded {
        actor: String,
        template: FeedTemplate,
    },
    FeedTemplateChanged {
        actor: String,
        template: FeedTemplate,
    },
    FeedTemplateRemoved {
        actor: String,
        template_id: String,
    },
    /// The templates' order, every id once.
    FeedTemplatesOrdered {
        actor: String,
        template_ids: Vec<String>,
    },
}

crate::impl_domain_event! {
    FeedTemplatesEvent, versions {
        FeedTemplateAdded: "1",
        FeedTemplateChanged: "1",
        FeedTemplateRemoved: "1",
        FeedTemplatesOrdered: "1",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeedTemplatesError {
    #[error("An instance can offer at most {MAX_FEED_TEMPLATES} feed templates.")]
    TooMany,
    #[error("Two templates are named '{0}': give each template its own name.")]
    DuplicateName(String),
    #[error("a template id appears twice")]
    DuplicateId,
    #[error("a template id is required")]
    IdRequired,
    /// The definition itself is refused, as a feed's would be.
    #[error("{1}")]
    Definition(&'static str, String),
}

impl From<BoardError> for FeedTemplatesError {
    fn from(e: BoardError) -> Self {
        FeedTemplatesError::Definition(e.code(), e.to_string())
    }
}

impl DomainError for FeedTemplatesError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Invalid
    }

    fn code(&self) -> &'static str {
        match self {
            FeedTemplatesError::TooMany => "too_many_templates",
            FeedTemplatesError::DuplicateName(_) => "template_name_taken",
            FeedTemplatesError::DuplicateId => "template_id_repeated",
            FeedTemplatesError::IdRequired => "template_id_required",
            FeedTemplatesError::Definition(code, _) => code,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FeedTemplates {
    templates: Vec<FeedTemplate>,
}

impl FeedTemplates {
    /// The templates as offered, in order.
    pub fn templates(&self) -> &[FeedTemplate] {
        &self.templates
    }

    pub fn decide(&self, command: FeedTemplatesCommand) -> Result<Vec<FeedTemplatesEvent>, FeedTemplatesError> {
        let FeedTemplatesCommand::Set { actor, templates } = command;
        if templates.len() > MAX_FEED_TEMPLATES {
            return Err(FeedTemplatesError::TooMany);
        }
        let mut ids = BTreeSet::new();
        let mut names = BTreeSet::new();
        let mut wanted = Vec::with_capacity(templates.len());
        for template in templates {
            let id = template.id.trim().to_string();
            if id.is_empty() {
                return Err(FeedTemplatesError::IdRequired);
            }
            if !ids.insert(id.clone()) {
                return Err(FeedTemplatesError::DuplicateId);
            }
            let definition = template.definition.cleaned()?;
            if !names.insert(definition.name.to_lowercase()) {
                return Err(FeedTemplatesError::DuplicateName(definition.name));
            }
            wanted.push(FeedTemplate { id, definition });
        }
        let mut events = Vec::new();
        for old in &self.templates {
            if !ids.contains(&old.id) {
                events.push(FeedTemplatesEvent::FeedTemplateRemoved {
                    actor: actor.clone(),
                    template_id: old.id.clone(),
                });
            }
        }
        for template in &wanted {
            match self.templates.iter().find(|t| t.id == template.id) {
                None => events
                    .push(FeedTemplatesEvent::FeedTemplateAdded { actor: actor.clone(), template: template.clone() }),
                Some(old) if old.definition != template.definition => events
                    .push(FeedTemplatesEvent::FeedTemplateChanged { actor: actor.clone(), template: template.clone() }),
                Some(_) => {}
            }
        }
        // The order the list ends in after the events above, against the order asked for.
        let kept: Vec<&str> = self.templates.iter().map(|t| t.id.as_str()).filter(|id| ids.contains(*id)).collect();
        let kept_in_wanted: Vec<&str> = wanted.iter().map(|t| t.id.as_str()).filter(|id| kept.contains(id)).collect();
        if kept != kept_in_wanted || !added_at_end(&self.templates, &wanted) {
            events.push(FeedTemplatesEvent::FeedTemplatesOrdered {
                actor,
                template_ids: wanted.iter().map(|t| t.id.clone()).collect(),
            });
        }
        Ok(events)
    }
}

/// Whether every new template of `wanted` comes after every kept one, where an added template
/// lands without an order event.
fn added_at_end(current: &[FeedTemplate], wanted: &[FeedTemplate]) -> bool {
    let is_new = |t: &FeedTemplate| !current.iter().any(|c| c.id == t.id);
    let first_new = wanted.iter().position(is_new).unwrap_or(wanted.len());
    wanted[first_new..].iter().all(is_new)
}

impl Aggregate for FeedTemplates {
    const TYPE: &'static str = "feed_templates";
    type Command = FeedTemplatesCommand;
    type Event = FeedTemplatesEvent;
    type Error = FeedTemplatesError;
    type Services = ();

    crate::handle_by_deciding!();

    fn apply(&mut self, event: Self::Event) {
        match event {
            FeedTemplatesEvent::FeedTemplateAdded { template, .. } => self.templates.push(template),
            FeedTemplatesEvent::FeedTemplateChanged { template, .. } => {
                if let Some(t) = self.templates.iter_mut().find(|t| t.id == template.id) {
                    *t = template;
                }
            }
            FeedTemplatesEvent::FeedTemplateRemoved { template_id, .. } => {
                self.templates.retain(|t| t.id != template_id)
            }
            FeedTemplatesEvent::FeedTemplatesOrdered { template_ids, .. } => {
                self.templates.sort_by_key(|t| template_ids.iter().position(|id| *id == t.id).unwrap_or(usize::MAX))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cqrs_es::test::TestFramework;

    use crate::board::{BoardKeyword, BoardKeywords};

    type Given = TestFramework<FeedTemplates>;

    fn template(id: &str, name: &str, keyword: &str) -> FeedTemplate {
        FeedTemplate {
            id: id.into(),
            definition: BoardDefinition {
                name: name.into(),
                keywords: BoardKeywords {
                    include: vec![BoardKeyword { keyword: keyword.into(), valid: true }],
                    exclude: vec![],
                },
                ..Default::default()
            },
        }
    }

    /// The definition as it is kept.
    fn kept(t: FeedTemplate) -> FeedTemplate {
        FeedTemplate { id: t.id, definition: t.definition.cleaned().expect("a valid definition") }
    }

    fn set(templates: Vec<FeedTemplate>) -> FeedTemplatesCommand {
        FeedTemplatesCommand::Set { actor: "admin".into(), templates }
    }

    fn added(t: FeedTemplate) -> FeedTemplatesEvent {
        FeedTemplatesEvent::FeedTemplateAdded { actor: "admin".into(), template: kept(t) }
    }

    #[test]
    fn templates_are_added_in_order() {
        Given::with(())
            .given_no_previous_events()
            .when(set(vec![template("a", " Steel ", "steel"), template("b", "Rates", "repo rate")]))
            .then_expect_events(vec![
                added(template("a", "Steel", "steel")),
                added(template("b", "Rates", "repo rate")),
            ]);
    }

    #[test]
    fn only_the_difference_is_recorded() {
        let a = template("a", "Steel", "steel");
        let b = template("b", "Rates", "repo rate");
        let b2 = template("b", "Rates", "\"repo rate\"");
        let c = template("c", "Oil", "crude");
        Given::with(())
            .given(vec![added(a.clone()), added(b.clone())])
            .when(set(vec![a.clone(), b2.clone(), c.clone()]))
            .then_expect_events(vec![
                FeedTemplatesEvent::FeedTemplateChanged { actor: "admin".into(), template: kept(b2) },
                added(c),
            ]);
        Given::with(())
            .given(vec![added(a.clone()), added(b.clone())])
            .when(set(vec![a.clone(), b.clone()]))
            .then_expect_events(vec![]);
        Given::with(()).given(vec![added(a.clone()), added(b.clone())]).when(set(vec![b.clone()])).then_expect_events(
            vec![FeedTemplatesEvent::FeedTemplateRemoved { actor: "admin".into(), template_id: "a".into() }],
        );
    }

    #[test]
    fn a_new_order_is_one_event() {
        let a = template("a", "Steel", "steel");
        let b = template("b", "Rates", "repo rate");
        let c = template("c", "Oil", "crude");
        Given::with(())
            .given(vec![added(a.clone()), added(b.clone())])
            .when(set(vec![b.clone(), a.clone()]))
            .then_expect_events(vec![FeedTemplatesEvent::FeedTemplatesOrdered {
                actor: "admin".into(),
                template_ids: vec!["b".into(), "a".into()],
            }]);
        // A template added first needs the order event too.
        Given::with(()).given(vec![added(a.clone())]).when(set(vec![c.clone(), a.clone()])).then_expect_events(vec![
            added(c.clone()),
            FeedTemplatesEvent::FeedTemplatesOrdered {
                actor: "admin".into(),
                template_ids: vec!["c".into(), "a".into()],
            },
        ]);
        let mut state = FeedTemplates::default();
        for e in [
            added(a),
            added(c),
            FeedTemplatesEvent::FeedTemplatesOrdered {
                actor: "admin".into(),
                template_ids: vec!["c".into(), "a".into()],
            },
        ] {
            state.apply(e);
        }
        assert_eq!(state.templates().iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["c", "a"]);
    }

    #[test]
    fn refusals() {
        let given = || Given::with(()).given_no_previous_events();
        given()
            .when(set(vec![template("a", "Steel", "steel"), template("b", "steel", "iron")]))
            .then_expect_error(FeedTemplatesError::DuplicateName("steel".into()));
        given()
            .when(set(vec![template("a", "Steel", "steel"), template("a", "Iron", "iron")]))
            .then_expect_error(FeedTemplatesError::DuplicateId);
        given().when(set(vec![template(" ", "Steel", "steel")])).then_expect_error(FeedTemplatesError::IdRequired);
        given()
            .when(set((0..=MAX_FEED_TEMPLATES).map(|i| template(&format!("t{i}"), &format!("T{i}"), "x")).collect()))
            .then_expect_error(FeedTemplatesError::TooMany);
        let refused = FeedTemplates::default().decide(set(vec![template("a", "Bad", "steel AND (")]));
        assert!(matches!(refused, Err(FeedTemplatesError::Definition("invalid_keyword", _))), "{refused:?}");
        let unnamed = FeedTemplates::default().decide(set(vec![template("a", "  ", "steel")]));
        assert!(matches!(unnamed, Err(FeedTemplatesError::Definition("board_name_required", _))), "{unnamed:?}");
    }
}
