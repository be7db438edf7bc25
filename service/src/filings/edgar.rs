//! Following companies on SEC EDGAR: by ticker, CIK or name, optionally narrowed to some forms.
//!
//! A followed company is a public source, `edgar_{CIK}` for every form or
//! `edgar_{CIK}_{forms}` for some (`edgar_0000320193_10-k_10-q`), shared by everyone who follows
//! the same company and forms, so each is fetched once. Its address is the company's Atom feed;
//! the ingestion loop reads it through [`super::sync`].

use commands::args;
use domain::source::{SourceCommand, SourceKind};
use ingest::edgar::companies::{Company, Resolution};
use ingest::edgar::feed::{parse_company_feed, FeedParseError};
use ingest::edgar::title::display_name;
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::sources::{follow as follow_source, unfollow as unfollow_source};
use crate::viewer::Viewer;

/// The forms a follow can be narrowed to. Each also takes its amendments ("10-K/A"); "424B"
/// takes every prospectus supplement (424B1 to 424B8).
pub const FORMS: &[&str] = &[
    "10-K", "10-Q", "8-K", "20-F", "40-F", "6-K", "DEF 14A", "S-1", "S-3", "S-4", "F-1", "424B", "SC 13D", "SC 13G",
    "13F-HR", "11-K", "3", "4", "5",
];

/// Whether `form` (as a filing names it) is one of `wanted`; every form when `wanted` is empty.
pub fn form_wanted(form: &str, wanted: &[String]) -> bool {
    let form = form.trim().to_ascii_uppercase();
    wanted.is_empty()
        || wanted.iter().any(|w| {
            let w = w.to_ascii_uppercase();
            form == w
                || form.strip_prefix(&w).is_some_and(|rest| rest.starts_with('/') || (w == "424B" && !rest.is_empty()))
        })
}

/// The source id of a company followed for `forms` (in [`FORMS`] order).
pub fn source_id(cik: u64, forms: &[String]) -> String {
    let mut id = format!("edgar_{cik:010}");
    for form in forms {
        id.push('_');
        id.push_str(&form.to_ascii_lowercase().replace(' ', "-"));
    }
    id
}

/// The CIK and forms of an EDGAR source id; `None` for any other id.
pub fn parse_source_id(id: &str) -> Option<(u64, Vec<String>)> {
    let rest = id.strip_prefix("edgar_")?;
    let mut parts = rest.split('_');
    let cik = parts.next().filter(|c| c.len() == 10)?.parse().ok()?;
    let forms = parts
        .map(|p| FORMS.iter().find(|f| f.to_ascii_lowercase().replace(' ', "-") == p).map(|f| f.to_string()))
        .collect::<Option<Vec<_>>>()?;
    Some((cik, forms))
}

/// Whether a source is a company followed on EDGAR.
pub fn is_edgar_source(id: &str) -> bool {
    id.starts_with("edgar_")
}

/// Checks and orders the forms asked for: known ones only, each once, in [`FORMS`] order.
fn checked_forms(asked: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for form in FORMS {
        if asked.iter().any(|a| a.trim().eq_ignore_ascii_case(form)) {
            out.push(form.to_string());
        }
    }
    if let Some(unknown) = asked.iter().find(|a| !FORMS.iter().any(|f| a.trim().eq_ignore_ascii_case(f))) {
        return Err(Error::invalid(
            "unknown_form",
            format!("'{}' is not a form this server follows; choose from {}", unknown.trim(), FORMS.join(", ")),
        ));
    }
    Ok(out)
}

#[derive(Debug, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FollowCompanyBody {
    /// A ticker (AAPL), a CIK (320193) or a company name.
    pub company: String,
    /// Forms to follow, e.g. ["10-K", "10-Q"]; none: every form.
    #[serde(default)]
    pub forms: Vec<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CompanyMatch {
    /// Ten digits, as EDGAR writes it.
    pub cik: String,
    pub ticker: Option<String>,
    pub name: String,
}

impl From<&Company> for CompanyMatch {
    fn from(c: &Company) -> Self {
        CompanyMatch { cik: c.cik_padded(), ticker: c.ticker.clone(), name: display_name(&c.name) }
    }
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CompanyMatches {
    pub companies: Vec<CompanyMatch>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FollowedCompany {
    pub source_id: String,
    pub cik: String,
    pub ticker: Option<String>,
    pub name: String,
    /// The forms followed; empty: every form.
    pub forms: Vec<String>,
    /// Filings brought in (an exhibit's guid is its filing's accession number, a slash and its
    /// name: exhibits are not counted).
    pub filings: i64,
    pub last_fetched_at: Option<String>,
    pub last_attempt_at: Option<String>,
    pub next_attempt_at: Option<String>,
    /// Why the last check failed, or which filings could not be read.
    pub last_error: Option<String>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EdgarOverview {
    /// Whether companies can be followed on this server.
    pub enabled: bool,
    /// Why not, when they cannot.
    pub reason: Option<String>,
    /// The forms a follow can be narrowed to.
    pub forms: Vec<String>,
    pub companies: Vec<FollowedCompany>,
}

#[derive(sqlx::FromRow)]
struct FollowedRow {
    source_id: String,
    label: String,
    last_fetched_at: Option<String>,
    last_attempt_at: Option<String>,
    next_attempt_at: Option<String>,
    last_error: Option<String>,
    filings: i64,
}

/// The companies the viewer follows on EDGAR; with `only`, just that source.
async fn followed(ctx: &Context, user_id: &str, only: Option<&str>) -> Result<Vec<FollowedCompany>> {
    let rows: Vec<FollowedRow> = ctx
        .db
        .fetch_all(
            "SELECT s.source_id, s.label, f.last_fetched_at, f.last_attempt_at, f.next_attempt_at, f.last_error, \
             (SELECT CAST(COUNT(*) AS BIGINT) FROM documents_view d WHERE d.source_id = s.source_id \
             AND d.guid NOT LIKE '%/%') AS filings \
             FROM subscriptions_view sub JOIN sources_view s ON s.source_id = sub.source_id \
             LEFT JOIN source_fetch_state f ON f.source_id = s.source_id \
             WHERE sub.user_id = $1 AND s.kind = 'public' AND substr(s.source_id, 1, 6) = 'edgar_' \
             AND ($2 = '' OR s.source_id = $2) ORDER BY s.label, s.source_id",
            args![user_id, only.unwrap_or("")],
        )
        .await?;
    let companies = ctx.filings.loaded_companies().await;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            let (cik, forms) = parse_source_id(&row.source_id)?;
            let ticker = companies.as_ref().and_then(|c| c.by_cik(cik)).and_then(|c| c.ticker.clone());
            Some(FollowedCompany {
                cik: format!("{cik:010}"),
                ticker,
                name: row.label,
                forms,
                filings: row.filings,
                last_fetched_at: row.last_fetched_at,
                last_attempt_at: row.last_attempt_at,
                next_attempt_at: row.next_attempt_at,
                last_error: row.last_error,
                source_id: row.source_id,
            })
        })
        .collect())
}

/// What the EDGAR page shows: whether it works here, the forms, the companies followed.
pub async fn overview(ctx: &Context, viewer: &Viewer) -> Result<EdgarOverview> {
    Ok(EdgarOverview {
        enabled: ctx.filings.edgar().is_some(),
        reason: ctx.filings.off_reason().map(str::to_string),
        forms: FORMS.iter().map(|f| f.to_string()).collect(),
        companies: followed(ctx, &viewer.user_id, None).await?,
    })
}

/// Companies whose ticker or name starts like `q`, for the type-ahead.
pub async fn search_companies(ctx: &Context, q: &str) -> Result<CompanyMatches> {
    ctx.filings.require_edgar()?;
    let q = q.trim();
    if q.is_empty() {
        return Ok(CompanyMatches { companies: vec![] });
    }
    let list = ctx.filings.companies().await?;
    Ok(CompanyMatches { companies: list.search(q, 10).iter().map(CompanyMatch::from).collect() })
}

/// The company `typed` names: from the list, or (a CIK the list lacks: many filers have no
/// ticker) from EDGAR's own feed for it.
async fn resolve(ctx: &Context, typed: &str) -> Result<(u64, String)> {
    let typed = typed.trim();
    if typed.is_empty() || typed.chars().count() > 200 {
        return Err(Error::invalid("invalid_company", "enter a ticker (AAPL), a CIK (320193) or a company name"));
    }
    let digits = typed.chars().all(|c| c.is_ascii_digit()) && typed.len() <= 10;
    let resolution = match ctx.filings.companies().await {
        Ok(list) => list.resolve(typed),
        // Without the list a CIK still works: EDGAR's feed names its company.
        Err(_) if digits => Resolution::UnlistedCik(typed.parse().unwrap_or(0)),
        Err(error) => return Err(error),
    };
    match resolution {
        Resolution::Found(company) => Ok((company.cik, display_name(&company.name))),
        Resolution::UnlistedCik(cik) => confirm_cik(ctx, cik, typed).await,
        Resolution::Ambiguous(candidates) => {
            let names: Vec<String> = candidates
                .iter()
                .take(5)
                .map(|c| match &c.ticker {
                    Some(t) => format!("{} ({t})", display_name(&c.name)),
                    None => display_name(&c.name),
                })
                .collect();
            Err(Error::invalid(
                "ambiguous_company",
                format!("'{typed}' matches several companies: {}; choose one, or type its ticker", names.join(", ")),
            ))
        }
        Resolution::NotFound => Err(unknown(typed)),
    }
}

fn unknown(typed: &str) -> Error {
    Error::invalid(
        "unknown_company",
        format!("no company on SEC EDGAR matches '{typed}'; try its ticker (AAPL), its CIK (320193) or its name"),
    )
}

/// Asks EDGAR whether `cik` files anything, and under which name.
async fn confirm_cik(ctx: &Context, cik: u64, typed: &str) -> Result<(u64, String)> {
    let edgar = ctx.filings.require_edgar()?;
    let url = edgar.company_feed_url(cik);
    let fetched = edgar.get(&url).await.map_err(|e| {
        Error::new(crate::error::Kind::Unavailable, "edgar_unreachable", format!("EDGAR could not be asked: {e}"))
    })?;
    let feed = parse_company_feed(&fetched.body, &url).map_err(|e| match e {
        FeedParseError::NotAFeed => unknown(typed),
        other => Error::invalid("unknown_company", format!("EDGAR's answer for CIK {cik} is unreadable: {other}")),
    })?;
    let name = feed.company.map(|c| display_name(&c.name)).ok_or_else(|| unknown(typed))?;
    Ok((cik, name))
}

/// Follows a company's filings (the forms asked for, else all); the first check follows at once.
pub async fn follow(ctx: &Context, viewer: &Viewer, body: FollowCompanyBody) -> Result<FollowedCompany> {
    let edgar = ctx.filings.require_edgar()?.clone();
    let forms = checked_forms(&body.forms)?;
    let (cik, name) = resolve(ctx, &body.company).await?;
    let source_id = source_id(cik, &forms);
    ctx.bus
        .execute(
            &ctx.bus.sources,
            &source_id,
            SourceCommand::Register {
                kind: SourceKind::Public,
                key: source_id.clone(),
                url: Some(edgar.company_feed_url(cik).to_string()),
                label: name,
                provisional: false,
            },
            &viewer.metadata(),
        )
        .await?;
    let cursor = follow_source(ctx, viewer, &source_id).await?;
    ctx.settle(cursor).await;
    one(ctx, viewer, &source_id).await
}

async fn one(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<FollowedCompany> {
    followed(ctx, &viewer.user_id, Some(source_id))
        .await?
        .pop()
        .ok_or_else(|| Error::not_found("you do not follow this company"))
}

/// Stops following; the filings already brought in stay.
pub async fn unfollow(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<()> {
    one(ctx, viewer, source_id).await?;
    let cursor = unfollow_source(ctx, viewer, source_id).await?;
    ctx.settle(cursor).await;
    Ok(())
}

/// Asks for the company to be checked now rather than at its next attempt.
pub async fn refresh(ctx: &Context, viewer: &Viewer, source_id: &str) -> Result<FollowedCompany> {
    one(ctx, viewer, source_id).await?;
    crate::sources::request_fetch(ctx, viewer, source_id).await?;
    one(ctx, viewer, source_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn source_ids_name_the_company_and_forms_and_read_back() {
        let forms = checked_forms(&strings(&["def 14a", "10-K"])).unwrap();
        assert_eq!(forms, ["10-K", "DEF 14A"]);
        let id = source_id(320193, &forms);
        assert_eq!(id, "edgar_0000320193_10-k_def-14a");
        assert_eq!(parse_source_id(&id), Some((320193, forms)));
        assert_eq!(parse_source_id("edgar_0000320193"), Some((320193, vec![])));
        assert_eq!(parse_source_id("edgar_0000320193_10-z"), None);
        assert_eq!(parse_source_id("rss_abc"), None);
    }

    #[test]
    fn an_unknown_form_is_refused_by_name() {
        let error = checked_forms(&strings(&["10-K", "10-Z"])).unwrap_err();
        assert_eq!(error.code, "unknown_form");
        assert!(error.message.contains("'10-Z'"), "{}", error.message);
    }

    #[test]
    fn forms_take_their_amendments_and_424b_takes_every_supplement() {
        let wanted = strings(&["10-K", "424B"]);
        assert!(form_wanted("10-K", &wanted));
        assert!(form_wanted("10-K/A", &wanted));
        assert!(form_wanted("424B2", &wanted));
        assert!(!form_wanted("10-KT", &wanted));
        assert!(!form_wanted("10-Q", &wanted));
        assert!(form_wanted("8-K", &[]));
    }
}
