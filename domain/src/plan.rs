//! Plans: which gated features a user may use and how much of each, for users whose
//! `is_pricing` flag is on. The spec names the features by their pricing keys; an unknown key is
//! an error, never silently allowed.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A gated feature, by the spec's pricing key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PricingKey {
    ViewClipped,
    ViewNotebook,
    AddFeed,
    AddNotebook,
    SaveClip,
    ViewNeedldrive,
    ConnectApp,
    AddToNeedldrive,
    EnableFeed,
    ViewMyfeeds,
}

impl PricingKey {
    pub const ALL: [PricingKey; 10] = [
        PricingKey::ViewClipped,
        PricingKey::ViewNotebook,
        PricingKey::AddFeed,
        PricingKey::AddNotebook,
        PricingKey::SaveClip,
        PricingKey::ViewNeedldrive,
        PricingKey::ConnectApp,
        PricingKey::AddToNeedldrive,
        PricingKey::EnableFeed,
        PricingKey::ViewMyfeeds,
    ];

    /// The key as the spec spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            PricingKey::ViewClipped => "view_clipped",
            PricingKey::ViewNotebook => "view_notebook",
            PricingKey::AddFeed => "add_feed",
            PricingKey::AddNotebook => "add_notebook",
            PricingKey::SaveClip => "save_clip",
            PricingKey::ViewNeedldrive => "view_needldrive",
            PricingKey::ConnectApp => "connect_app",
            PricingKey::AddToNeedldrive => "add_to_needldrive",
            PricingKey::EnableFeed => "enable_feed",
            PricingKey::ViewMyfeeds => "view_myfeeds",
        }
    }

    /// What the feature is, for a sentence: "Custom feeds are not part of ...".
    pub fn describe(self) -> &'static str {
        match self {
            PricingKey::ViewClipped => "Web clips",
            PricingKey::ViewNotebook => "Notebooks",
            PricingKey::AddFeed => "New custom feeds",
            PricingKey::AddNotebook => "New notebooks",
            PricingKey::SaveClip => "Saving web clips",
            PricingKey::ViewNeedldrive => "Needl Drive",
            PricingKey::ConnectApp => "Connected apps",
            PricingKey::AddToNeedldrive => "Adding files to Needl Drive",
            PricingKey::EnableFeed => "Turning feeds on",
            PricingKey::ViewMyfeeds => "Custom feeds",
        }
    }
}

/// The error for a pricing key the spec does not name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown pricing feature key '{0}'")]
pub struct UnknownPricingKey(pub String);

impl FromStr for PricingKey {
    type Err = UnknownPricingKey;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PricingKey::ALL.into_iter().find(|k| k.as_str() == s).ok_or_else(|| UnknownPricingKey(s.to_string()))
    }
}

/// How much of a counted thing a plan allows; `None` is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Custom feeds the user owns.
    pub feeds: Option<u32>,
    /// Of those, how many may be on at once.
    pub enabled_feeds: Option<u32>,
    pub notebooks: Option<u32>,
    /// Bytes of uploaded files; `None` is the instance's own per-user quota.
    pub storage_mib: Option<u64>,
}

/// A plan: a name people see, the features it includes and its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Stable: events and the read model keep it.
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub features: &'static [PricingKey],
    pub limits: Limits,
}

impl Plan {
    pub fn includes(&self, key: PricingKey) -> bool {
        self.features.contains(&key)
    }
}

const EVERYTHING: &[PricingKey] = &PricingKey::ALL;

const FREE_FEATURES: &[PricingKey] = &[
    PricingKey::ViewClipped,
    PricingKey::ViewNotebook,
    PricingKey::AddFeed,
    PricingKey::AddNotebook,
    PricingKey::SaveClip,
    PricingKey::ViewNeedldrive,
    PricingKey::AddToNeedldrive,
    PricingKey::EnableFeed,
    PricingKey::ViewMyfeeds,
];

/// The plans an administrator can assign, cheapest first.
pub const PLANS: &[Plan] = &[
    Plan {
        id: "free",
        name: "Free",
        description: "Two custom feeds, three notebooks and 512 MB of files; no connected apps.",
        features: FREE_FEATURES,
        limits: Limits { feeds: Some(2), enabled_feeds: Some(2), notebooks: Some(3), storage_mib: Some(512) },
    },
    Plan {
        id: "pro",
        name: "Professional",
        description: "Every feature, up to 25 custom feeds, unlimited notebooks and 10 GB of files.",
        features: EVERYTHING,
        limits: Limits { feeds: Some(25), enabled_feeds: Some(25), notebooks: None, storage_mib: Some(10 * 1024) },
    },
    Plan {
        id: "enterprise",
        name: "Enterprise",
        description: "Every feature without limits; files up to the organisation's storage quota.",
        features: EVERYTHING,
        limits: Limits { feeds: None, enabled_feeds: None, notebooks: None, storage_mib: None },
    },
];

/// The plan of a user no one has assigned one to.
pub const DEFAULT_PLAN: &str = "free";

/// The plan with this id.
pub fn plan(id: &str) -> Option<&'static Plan> {
    PLANS.iter().find(|p| p.id == id)
}

/// The plan a user is on: the assigned one, else the default. An id no longer in [`PLANS`]
/// falls back to the default rather than granting anything.
pub fn plan_or_default(id: Option<&str>) -> &'static Plan {
    id.and_then(plan).unwrap_or_else(|| plan(DEFAULT_PLAN).expect("the default plan exists"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_the_spec_parses_and_an_unknown_one_is_an_error() {
        for key in [
            "view_clipped",
            "view_notebook",
            "add_feed",
            "add_notebook",
            "save_clip",
            "view_needldrive",
            "connect_app",
            "add_to_needldrive",
            "enable_feed",
            "view_myfeeds",
        ] {
            assert_eq!(key.parse::<PricingKey>().unwrap().as_str(), key);
        }
        assert_eq!("view_feeds".parse::<PricingKey>(), Err(UnknownPricingKey("view_feeds".into())));
        assert!("".parse::<PricingKey>().is_err());
    }

    #[test]
    fn the_keys_serialise_as_the_spec_spells_them() {
        for key in PricingKey::ALL {
            assert_eq!(serde_json::to_value(key).unwrap(), serde_json::json!(key.as_str()));
        }
    }

    #[test]
    fn plans_grow_and_an_unknown_plan_grants_no_more_than_the_default() {
        let free = plan("free").unwrap();
        let pro = plan("pro").unwrap();
        assert!(!free.includes(PricingKey::ConnectApp));
        assert!(PricingKey::ALL.iter().all(|k| pro.includes(*k)));
        assert!(free.limits.feeds < pro.limits.feeds);
        assert_eq!(plan_or_default(Some("gold")).id, DEFAULT_PLAN);
        assert_eq!(plan_or_default(None).id, DEFAULT_PLAN);
        assert_eq!(plan_or_default(Some("enterprise")).id, "enterprise");
        let mut ids: Vec<_> = PLANS.iter().map(|p| p.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), PLANS.len());
    }
}
