//! `portfolios_view`: each user's portfolios, their holdings as the last change carried them.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::portfolio::{Portfolio, PortfolioEvent};

use crate::runner::Projection;

pub struct Portfolios;

#[async_trait]
impl Projection for Portfolios {
    fn name(&self) -> &'static str {
        "portfolios"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["portfolios_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Portfolio::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let id = event.aggregate_id.as_str();
        let at = event.time().to_string();
        match event.decode::<PortfolioEvent>()? {
            PortfolioEvent::PortfolioCreated { owner, name, holdings } => {
                tx.write(
                    "INSERT INTO portfolios_view (portfolio_id, user_id, name, holdings, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (portfolio_id) DO NOTHING",
                    args![id, owner, name, serde_json::to_string(&holdings)?, at],
                )
                .await?;
            }
            PortfolioEvent::PortfolioUpdated { name, holdings, .. } => {
                tx.write(
                    "UPDATE portfolios_view SET name = $2, holdings = $3, updated_at = $4 WHERE portfolio_id = $1",
                    args![id, name, serde_json::to_string(&holdings)?, at],
                )
                .await?;
            }
            PortfolioEvent::PortfolioDeleted { .. } => {
                tx.write("DELETE FROM portfolios_view WHERE portfolio_id = $1", args![id]).await?;
            }
        }
        Ok(())
    }
}
