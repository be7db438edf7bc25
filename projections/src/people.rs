//! `people_view` and `people_contacts_view`: each user's people, and the contacts behind them.

use async_trait::async_trait;
use commands::args;
use commands::feed::StoredEvent;
use commands::store::Tx;
use cqrs_es::Aggregate;
use domain::person::{contact_key, name_key, Contact, ContactBook, ContactBookEvent, Priority};

use crate::runner::Projection;

pub struct People;

/// Returns how a priority is stored and answered: HIGH, MEDIUM or LOW.
pub fn priority_str(priority: Priority) -> &'static str {
    match priority {
        Priority::High => "HIGH",
        Priority::Medium => "MEDIUM",
        Priority::Low => "LOW",
    }
}

async fn add_contacts(
    tx: &mut Tx,
    user_id: &str,
    people_id: &str,
    contacts: &[Contact],
    position: i64,
) -> anyhow::Result<()> {
    for c in contacts {
        tx.write(
            "INSERT INTO people_contacts_view (user_id, contact_key, people_id, contact_id, contact_name, \
             contact_source, position) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (user_id, contact_key) DO NOTHING",
            args![
                user_id,
                contact_key(&c.contact_source, &c.contact_id),
                people_id,
                c.contact_id.as_str(),
                c.contact_name.as_str(),
                c.contact_source.as_str(),
                position
            ],
        )
        .await?;
    }
    Ok(())
}

#[async_trait]
impl Projection for People {
    fn name(&self) -> &'static str {
        "people"
    }

    fn tables(&self) -> &'static [&'static str] {
        &["people_view", "people_contacts_view"]
    }

    fn reads(&self) -> &'static [&'static str] {
        &[ContactBook::TYPE]
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> anyhow::Result<()> {
        let time = event.time().to_string();
        let position = event.cursor.pos;
        match event.decode::<ContactBookEvent>()? {
            ContactBookEvent::PersonAdded { user_id, people_id, name, priority, contacts } => {
                tx.write(
                    "INSERT INTO people_view (people_id, user_id, name, name_key, priority, created_at, updated_at, \
                     position) VALUES ($1, $2, $3, $4, $5, $6, $6, $7) ON CONFLICT (people_id) DO NOTHING",
                    args![
                        people_id.as_str(),
                        user_id.as_str(),
                        name.as_str(),
                        name_key(&name),
                        priority_str(priority),
                        time,
                        position
                    ],
                )
                .await?;
                add_contacts(tx, &user_id, &people_id, &contacts, position).await?;
            }
            ContactBookEvent::ContactsLinked { user_id, people_id, contacts } => {
                add_contacts(tx, &user_id, &people_id, &contacts, position).await?;
            }
            ContactBookEvent::PersonRenamed { people_id, name, .. } => {
                tx.write(
                    "UPDATE people_view SET name = $2, name_key = $3, updated_at = $4 WHERE people_id = $1",
                    args![people_id, name.as_str(), name_key(&name), time],
                )
                .await?;
            }
            ContactBookEvent::PersonPriorityChanged { people_id, priority, .. } => {
                tx.write(
                    "UPDATE people_view SET priority = $2, updated_at = $3 WHERE people_id = $1",
                    args![people_id, priority_str(priority), time],
                )
                .await?;
            }
        }
        Ok(())
    }
}
