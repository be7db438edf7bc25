//! Portfolios below HTTP: each user's own, read from `portfolios_view`, changed through the
//! portfolio aggregate (which checks every row). Nobody sees another user's portfolio; asking for
//! one answers not found. Their companies are names AI feeds can watch ([`companies`]).

use commands::args;
use domain::portfolio::{Holding, PortfolioCommand};
use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::viewer::Viewer;

/// How many portfolios one user keeps.
pub const MAX_PORTFOLIOS_PER_USER: i64 = 50;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HoldingView {
    pub company: String,
    pub isin: String,
    pub quantity: f64,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PortfolioView {
    pub id: String,
    pub name: String,
    pub holdings: Vec<HoldingView>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PortfolioList {
    /// Newest change first.
    pub portfolios: Vec<PortfolioView>,
}

/// A portfolio as the form sends it: its name and every holding, in order.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PortfolioBody {
    pub name: String,
    pub holdings: Vec<HoldingView>,
}

#[derive(sqlx::FromRow)]
struct Row {
    portfolio_id: String,
    name: String,
    holdings: String,
    created_at: String,
    updated_at: String,
}

impl Row {
    fn into_view(self) -> Result<PortfolioView> {
        let holdings: Vec<HoldingView> =
            serde_json::from_str(&self.holdings).map_err(|e| Error::internal(format!("portfolio holdings: {e}")))?;
        Ok(PortfolioView {
            id: self.portfolio_id,
            name: self.name,
            holdings,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

const COLUMNS: &str = "portfolio_id, name, holdings, created_at, updated_at";

fn holdings(body: Vec<HoldingView>) -> Vec<Holding> {
    body.into_iter().map(|h| Holding { company: h.company, isin: h.isin, quantity: h.quantity }).collect()
}

/// The viewer's portfolios, the most recently changed first.
pub async fn list(ctx: &Context, viewer: &Viewer) -> Result<PortfolioList> {
    let rows: Vec<Row> = ctx
        .db
        .fetch_all(
            &format!(
                "SELECT {COLUMNS} FROM portfolios_view WHERE user_id = $1 ORDER BY updated_at DESC, portfolio_id DESC"
            ),
            args![viewer.user_id.as_str()],
        )
        .await?;
    Ok(PortfolioList { portfolios: rows.into_iter().map(Row::into_view).collect::<Result<_>>()? })
}

/// One of the viewer's portfolios.
pub async fn get(ctx: &Context, viewer: &Viewer, portfolio_id: &str) -> Result<PortfolioView> {
    let row: Option<Row> = ctx
        .db
        .fetch_optional(
            &format!("SELECT {COLUMNS} FROM portfolios_view WHERE portfolio_id = $1 AND user_id = $2"),
            args![portfolio_id, viewer.user_id.as_str()],
        )
        .await?;
    row.ok_or_else(|| Error::not_found("portfolio not found"))?.into_view()
}

/// Makes a portfolio for the viewer.
pub async fn create(ctx: &Context, viewer: &Viewer, body: PortfolioBody) -> Result<PortfolioView> {
    let count: Option<(i64,)> = ctx
        .db
        .fetch_optional("SELECT COUNT(*) FROM portfolios_view WHERE user_id = $1", args![viewer.user_id.as_str()])
        .await?;
    if count.map_or(0, |c| c.0) >= MAX_PORTFOLIOS_PER_USER {
        return Err(Error::invalid(
            "too_many_portfolios",
            format!("You can keep at most {MAX_PORTFOLIOS_PER_USER} portfolios; delete one first."),
        ));
    }
    let portfolio_id = uuid::Uuid::now_v7().to_string();
    let command =
        PortfolioCommand::Create { owner: viewer.user_id.clone(), name: body.name, holdings: holdings(body.holdings) };
    commands::just_named(ctx.command(&ctx.bus.portfolios, &portfolio_id, command, &viewer.metadata())).await?;
    get(ctx, viewer, &portfolio_id).await
}

/// Replaces the name and holdings of one of the viewer's portfolios.
pub async fn update(ctx: &Context, viewer: &Viewer, portfolio_id: &str, body: PortfolioBody) -> Result<PortfolioView> {
    let command =
        PortfolioCommand::Update { actor: viewer.user_id.clone(), name: body.name, holdings: holdings(body.holdings) };
    ctx.command(&ctx.bus.portfolios, portfolio_id, command, &viewer.metadata()).await?;
    get(ctx, viewer, portfolio_id).await
}

/// Deletes one of the viewer's portfolios. Its history stays in the event store.
pub async fn delete(ctx: &Context, viewer: &Viewer, portfolio_id: &str) -> Result<()> {
    ctx.command(
        &ctx.bus.portfolios,
        portfolio_id,
        PortfolioCommand::Delete { actor: viewer.user_id.clone() },
        &viewer.metadata(),
    )
    .await?;
    Ok(())
}

/// The companies of all the user's portfolios, each once (by name, in the order first held):
/// names AI feeds can watch.
pub async fn companies(ctx: &Context, user_id: &str) -> Result<Vec<String>> {
    let rows: Vec<(String,)> = ctx
        .db
        .fetch_all(
            "SELECT holdings FROM portfolios_view WHERE user_id = $1 ORDER BY created_at, portfolio_id",
            args![user_id],
        )
        .await?;
    let mut names: Vec<String> = Vec::new();
    for (holdings,) in rows {
        let holdings: Vec<HoldingView> =
            serde_json::from_str(&holdings).map_err(|e| Error::internal(format!("portfolio holdings: {e}")))?;
        for h in holdings {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(&h.company)) {
                names.push(h.company);
            }
        }
    }
    Ok(names)
}
