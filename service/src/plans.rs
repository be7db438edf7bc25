//! Plans and pricing gates: what a user's plan lets them do, checked by the server before a gated
//! write, and the eligibility map the browser asks for to show its pricing prompt.
//!
//! Plans only apply to a user whose `is_pricing` flag is on; for everyone else every feature is
//! eligible and only the instance's own limits hold. The plans are [`domain::plan::PLANS`]; an
//! administrator assigns one per user (`PlanAssigned`). A plan smaller than what a user already
//! has deletes nothing: it refuses new writes beyond it, with the same message the prompt shows.
//! Billing stays outside: [`Billing`] only says where a user manages theirs, if anywhere.

use std::collections::BTreeMap;

use commands::args;
use domain::plan::{self, Plan, PricingKey};
use domain::user::UserCommand;
use projections::queries;
use serde::Serialize;

use crate::context::Context;
use crate::error::{Error, Kind, Result};
use crate::policy::flag_on;
use crate::viewer::Viewer;

const MIB: u64 = 1024 * 1024;

/// Where users manage what they pay. The offline default has no payment provider: it answers the
/// operator's customer-portal address when one is configured, else nothing.
pub trait Billing: Send + Sync {
    /// The address the user manages their subscription at, if any.
    fn portal_url(&self, user_id: &str) -> Option<String>;
}

/// A fixed customer-portal address (or none), the same for everyone.
pub struct PortalLink(pub Option<String>);

impl Billing for PortalLink {
    fn portal_url(&self, _user_id: &str) -> Option<String> {
        self.0.clone()
    }
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanLimits {
    /// Custom feeds; `null` is no limit.
    pub feeds: Option<u32>,
    /// Feeds on at once; `null` is no limit.
    pub enabled_feeds: Option<u32>,
    /// Notebooks (the assistant's own does not count); `null` is no limit.
    pub notebooks: Option<u32>,
    /// Bytes of uploaded files.
    pub storage_bytes: u64,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanView {
    pub id: String,
    pub name: String,
    pub description: String,
    /// The pricing keys the plan includes.
    pub features: Vec<String>,
    pub limits: PlanLimits,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanList {
    pub plans: Vec<PlanView>,
    pub default_plan: String,
}

#[derive(Debug, Clone, Default, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Usage {
    pub feeds: u32,
    pub enabled_feeds: u32,
    pub notebooks: u32,
    pub storage_bytes: u64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MyPlan {
    pub plan: PlanView,
    /// Whether the plan limits this user (their `is_pricing` flag).
    pub pricing: bool,
    pub usage: Usage,
    /// Where the user manages billing; `null` when the instance has no billing provider.
    pub billing_portal_url: Option<String>,
}

/// What the pricing prompt's footer offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GateAction {
    Upgrade,
    Storage,
    FeedManager,
}

/// One feature's answer: eligible, or the prompt to show instead.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Eligibility {
    #[serde(rename = "isEligible")]
    pub is_eligible: bool,
    pub message: Option<String>,
    pub header: Option<String>,
    pub subtext: Option<String>,
    pub action: Option<GateAction>,
}

impl Eligibility {
    fn eligible() -> Self {
        Eligibility { is_eligible: true, message: None, header: None, subtext: None, action: None }
    }

    fn refused(header: &str, message: String, subtext: String, action: GateAction) -> Self {
        Eligibility {
            is_eligible: false,
            message: Some(message),
            header: Some(header.to_string()),
            subtext: Some(subtext),
            action: Some(action),
        }
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EligibilityMap {
    /// Every pricing key, by name.
    pub results: BTreeMap<String, Eligibility>,
}

fn storage_bytes(ctx: &Context, plan: &Plan) -> u64 {
    plan.limits.storage_mib.unwrap_or(ctx.settings.storage_quota_mb) * MIB
}

fn view(ctx: &Context, plan: &Plan) -> PlanView {
    PlanView {
        id: plan.id.to_string(),
        name: plan.name.to_string(),
        description: plan.description.to_string(),
        features: plan.features.iter().map(|k| k.as_str().to_string()).collect(),
        limits: PlanLimits {
            feeds: plan.limits.feeds,
            enabled_feeds: plan.limits.enabled_feeds,
            notebooks: plan.limits.notebooks,
            storage_bytes: storage_bytes(ctx, plan),
        },
    }
}

/// The plans an administrator can assign, cheapest first.
pub fn plans(ctx: &Context) -> PlanList {
    PlanList { plans: plan::PLANS.iter().map(|p| view(ctx, p)).collect(), default_plan: plan::DEFAULT_PLAN.to_string() }
}

/// The plan `user_id` is on (the default when none was assigned).
pub async fn plan_of(ctx: &Context, user_id: &str) -> Result<&'static Plan> {
    let user = queries::user_by_id(&ctx.db, user_id).await?.ok_or_else(|| Error::not_found("user not found"))?;
    Ok(plan::plan_or_default(user.plan.as_deref()))
}

async fn count(ctx: &Context, sql: &str, user_id: &str) -> Result<u32> {
    let row: Option<(i64,)> = ctx.db.fetch_optional(sql, args![user_id]).await?;
    Ok(row.map_or(0, |r| r.0.max(0) as u32))
}

/// What the user has of each counted thing.
pub async fn usage(ctx: &Context, user_id: &str) -> Result<Usage> {
    Ok(Usage {
        feeds: count(ctx, "SELECT COUNT(*) FROM boards_view WHERE user_id = $1", user_id).await?,
        enabled_feeds: count(ctx, "SELECT COUNT(*) FROM boards_view WHERE user_id = $1 AND enabled = TRUE", user_id)
            .await?,
        notebooks: count(
            ctx,
            "SELECT COUNT(*) FROM notebooks_view WHERE user_id = $1 AND notebook_type <> 'default'",
            user_id,
        )
        .await?,
        storage_bytes: crate::uploads::used_bytes(ctx, user_id).await?,
    })
}

/// Whether plans limit `user_id`: their `is_pricing` flag.
pub async fn applies(ctx: &Context, user_id: &str) -> Result<bool> {
    flag_on(ctx, user_id, "is_pricing").await
}

/// The signed-in user's plan, what they use of it, and where they manage billing.
pub async fn mine(ctx: &Context, viewer: &Viewer) -> Result<MyPlan> {
    let plan = plan_of(ctx, &viewer.user_id).await?;
    Ok(MyPlan {
        plan: view(ctx, plan),
        pricing: applies(ctx, &viewer.user_id).await?,
        usage: usage(ctx, &viewer.user_id).await?,
        billing_portal_url: ctx.billing.portal_url(&viewer.user_id),
    })
}

/// What the feature is, as the object of "does not include ...".
fn feature_phrase(key: PricingKey) -> &'static str {
    match key {
        PricingKey::ViewClipped => "web clips",
        PricingKey::ViewNotebook => "notebooks",
        PricingKey::AddFeed => "new custom feeds",
        PricingKey::AddNotebook => "new notebooks",
        PricingKey::SaveClip => "saving web clips",
        PricingKey::ViewNeedldrive => "Needl Drive",
        PricingKey::ConnectApp => "connected apps",
        PricingKey::AddToNeedldrive => "adding files to Needl Drive",
        PricingKey::EnableFeed => "turning feeds on",
        PricingKey::ViewMyfeeds => "custom feeds",
    }
}

/// Whether `plan` allows `key` for a user with `usage`, and the prompt when it does not. Pure, so
/// the rules can be read (and tested) without storage.
pub fn judge(plan: &Plan, key: PricingKey, usage: &Usage, storage_limit: u64) -> Eligibility {
    const UPGRADE: &str = "Upgrade your plan";
    if !plan.includes(key) {
        let subtext = match plan::PLANS.iter().find(|p| p.includes(key)) {
            Some(better) => format!("The {} plan includes it.", better.name),
            None => "Ask your administrator about a plan that includes it.".to_string(),
        };
        let message = format!("Your {} plan does not include {}.", plan.name, feature_phrase(key));
        return Eligibility::refused(UPGRADE, message, subtext, GateAction::Upgrade);
    }
    let limits = &plan.limits;
    match key {
        PricingKey::AddFeed => match limits.feeds {
            Some(limit) if usage.feeds >= limit => Eligibility::refused(
                "Feed limit reached",
                format!("Your {} plan includes up to {limit} custom feeds, and you have {}.", plan.name, usage.feeds),
                "Delete a feed you no longer need, or upgrade for more.".to_string(),
                GateAction::FeedManager,
            ),
            _ => Eligibility::eligible(),
        },
        PricingKey::EnableFeed => match limits.enabled_feeds {
            Some(limit) if usage.enabled_feeds >= limit => Eligibility::refused(
                "Feed limit reached",
                format!("Your {} plan allows {limit} feeds on at once, and {} are on.", plan.name, usage.enabled_feeds),
                "Turn another feed off first, or upgrade for more.".to_string(),
                GateAction::FeedManager,
            ),
            _ => Eligibility::eligible(),
        },
        PricingKey::AddNotebook => match limits.notebooks {
            Some(limit) if usage.notebooks >= limit => Eligibility::refused(
                UPGRADE,
                format!("Your {} plan includes up to {limit} notebooks, and you have {}.", plan.name, usage.notebooks),
                "Delete a notebook you no longer need, or upgrade for more.".to_string(),
                GateAction::Upgrade,
            ),
            _ => Eligibility::eligible(),
        },
        PricingKey::AddToNeedldrive if usage.storage_bytes >= storage_limit => Eligibility::refused(
            "Storage full",
            format!(
                "Your storage is full: {} of {} used.",
                crate::uploads::human(usage.storage_bytes),
                crate::uploads::human(storage_limit)
            ),
            "Delete files you no longer need, or upgrade for more space.".to_string(),
            GateAction::Storage,
        ),
        _ => Eligibility::eligible(),
    }
}

/// Every pricing key's answer for the viewer: all eligible when plans do not apply to them.
pub async fn eligibility(ctx: &Context, viewer: &Viewer) -> Result<EligibilityMap> {
    let results = if applies(ctx, &viewer.user_id).await? {
        let plan = plan_of(ctx, &viewer.user_id).await?;
        let usage = usage(ctx, &viewer.user_id).await?;
        let limit = storage_bytes(ctx, plan);
        PricingKey::ALL.iter().map(|k| (k.as_str().to_string(), judge(plan, *k, &usage, limit))).collect()
    } else {
        PricingKey::ALL.iter().map(|k| (k.as_str().to_string(), Eligibility::eligible())).collect()
    };
    Ok(EligibilityMap { results })
}

/// Whether the plan limits how much of `key`'s thing a user has (so judging it needs the usage).
fn counted(key: PricingKey) -> bool {
    matches!(key, PricingKey::AddFeed | PricingKey::EnableFeed | PricingKey::AddNotebook | PricingKey::AddToNeedldrive)
}

/// Refuses a gated action the viewer's plan does not allow (the first of `keys` it does not),
/// with `plan_required` and the prompt's message. Does nothing when plans do not apply to the
/// viewer; the usage is counted only when one of `keys` is limited by it.
pub async fn require(ctx: &Context, viewer: &Viewer, keys: &[PricingKey]) -> Result<()> {
    if !applies(ctx, &viewer.user_id).await? {
        return Ok(());
    }
    let plan = plan_of(ctx, &viewer.user_id).await?;
    let usage = if keys.iter().any(|k| counted(*k)) { usage(ctx, &viewer.user_id).await? } else { Usage::default() };
    let limit = storage_bytes(ctx, plan);
    match keys.iter().map(|k| judge(plan, *k, &usage, limit)).find(|answer| !answer.is_eligible) {
        None => Ok(()),
        Some(answer) => Err(Error::new(Kind::Forbidden, "plan_required", answer.message.unwrap_or_default())),
    }
}

/// The bytes of files `user_id` may keep: their plan's storage when plans apply to them, else the
/// instance's quota.
pub async fn storage_quota(ctx: &Context, user_id: &str) -> Result<u64> {
    if applies(ctx, user_id).await? {
        Ok(storage_bytes(ctx, plan_of(ctx, user_id).await?))
    } else {
        Ok(ctx.settings.storage_quota_mb * MIB)
    }
}

/// Puts a user on a plan (administrators). A smaller plan deletes nothing.
pub async fn assign(ctx: &Context, admin: &Viewer, user_id: &str, plan_id: String) -> Result<()> {
    admin.require_admin()?;
    let user = queries::user_by_id(&ctx.db, user_id).await?;
    if user.is_none_or(|u| u.erased_at.is_some()) {
        return Err(Error::not_found("user not found"));
    }
    ctx.command(&ctx.bus.users, user_id, UserCommand::AssignPlan { plan: plan_id }, &admin.metadata()).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free() -> &'static Plan {
        plan::plan("free").unwrap()
    }

    const GIB: u64 = 1024 * MIB;

    #[test]
    fn a_feature_outside_the_plan_names_the_plan_that_has_it() {
        let answer = judge(free(), PricingKey::ConnectApp, &Usage::default(), GIB);
        assert!(!answer.is_eligible);
        assert_eq!(answer.message.as_deref(), Some("Your Free plan does not include connected apps."));
        assert_eq!(answer.subtext.as_deref(), Some("The Professional plan includes it."));
        assert_eq!(answer.action, Some(GateAction::Upgrade));
    }

    #[test]
    fn counted_features_stop_at_the_limit_and_lead_to_their_manager() {
        let below = Usage { feeds: 1, enabled_feeds: 1, notebooks: 2, storage_bytes: 0 };
        for key in [PricingKey::AddFeed, PricingKey::EnableFeed, PricingKey::AddNotebook, PricingKey::AddToNeedldrive] {
            assert!(judge(free(), key, &below, GIB).is_eligible, "{key:?}");
        }
        let at = Usage { feeds: 2, enabled_feeds: 2, notebooks: 3, storage_bytes: GIB };
        let feed = judge(free(), PricingKey::AddFeed, &at, GIB);
        assert_eq!(feed.message.as_deref(), Some("Your Free plan includes up to 2 custom feeds, and you have 2."));
        assert_eq!(feed.action, Some(GateAction::FeedManager));
        assert_eq!(judge(free(), PricingKey::EnableFeed, &at, GIB).action, Some(GateAction::FeedManager));
        assert_eq!(judge(free(), PricingKey::AddNotebook, &at, GIB).action, Some(GateAction::Upgrade));
        let storage = judge(free(), PricingKey::AddToNeedldrive, &at, GIB);
        assert_eq!(storage.message.as_deref(), Some("Your storage is full: 1 GB of 1 GB used."));
        assert_eq!(storage.action, Some(GateAction::Storage));
        // Above the limit (a downgrade) is refused the same way, never an overflow.
        let above = Usage { feeds: 9, ..at };
        assert!(!judge(free(), PricingKey::AddFeed, &above, GIB).is_eligible);
        // Reading is never counted.
        assert!(judge(free(), PricingKey::ViewMyfeeds, &above, GIB).is_eligible);
    }

    #[test]
    fn an_unlimited_plan_has_no_counted_limit() {
        let enterprise = plan::plan("enterprise").unwrap();
        let lots = Usage { feeds: 10_000, enabled_feeds: 10_000, notebooks: 10_000, storage_bytes: 0 };
        for key in PricingKey::ALL {
            assert!(judge(enterprise, key, &lots, GIB).is_eligible, "{key:?}");
        }
    }

    #[test]
    fn sizes_read_as_a_person_writes_them() {
        assert_eq!(crate::uploads::human(512 * MIB), "512 MB");
        assert_eq!(crate::uploads::human(1536 * MIB), "1.5 GB");
        assert_eq!(crate::uploads::human(10), "10 B");
    }
}
