//! `analytics_consumers_view`: the named analytics consumers and the feed cursor each has
//! acknowledged, from the analytics consumer aggregate.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::analytics::{AnalyticsConsumer, ConsumerEvent};

use crate::runner::Projection;

pub struct AnalyticsConsumers;

#[async_trait]
impl Projection for AnalyticsConsumers {
    fn name(&self) -> &'static str {
        "analytics_consumers"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["analytics_consumers_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[AnalyticsConsumer::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let name = event.aggregate_id.as_str();
        let time = event.time().to_string();
        match event.decode()? {
            ConsumerEvent::ConsumerRegistered { actor, .. } => {
                tx.write(
                    "INSERT INTO analytics_consumers_view (name, cursor_tx, cursor_pos, registered_by, registered_at) \
                     VALUES ($1, 0, 0, $2, $3)",
                    args![name, actor, time],
                )
                .await?;
            }
            ConsumerEvent::ConsumerAcknowledged { tx: cursor_tx, pos, .. } => {
                tx.write(
                    "UPDATE analytics_consumers_view SET cursor_tx = $2, cursor_pos = $3, acknowledged_at = $4 \
                     WHERE name = $1",
                    args![name, cursor_tx, pos, time],
                )
                .await?;
            }
            ConsumerEvent::ConsumerDeleted { .. } => {
                tx.write("DELETE FROM analytics_consumers_view WHERE name = $1", args![name]).await?;
            }
        }
        Ok(())
    }
}
