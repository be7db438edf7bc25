//! `instance_settings_view`: the settings administrators keep for the whole instance (the model
//! server AskNeedl writes answers with).

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::instance::{Instance, InstanceEvent};

use crate::runner::Projection;

/// The row id of the assistant's setting.
pub const ASSISTANT_SETTING: &str = "assistant";

pub struct InstanceSettings;

#[async_trait]
impl Projection for InstanceSettings {
    fn name(&self) -> &'static str {
        "instance_settings"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["instance_settings_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[Instance::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        if let InstanceEvent::AssistantConfigured { by, url, model, api_key } = event.decode()? {
            tx.write(
                "INSERT INTO instance_settings_view (id, url, model, api_key, updated_by, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO UPDATE SET url = excluded.url, \
                 model = excluded.model, api_key = excluded.api_key, updated_by = excluded.updated_by, \
                 updated_at = excluded.updated_at",
                args![ASSISTANT_SETTING, url, model, api_key, by, time],
            )
            .await?;
        }
        Ok(())
    }
}
