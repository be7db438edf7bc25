//! JSON Schemas of every stored event payload, generated from the event types themselves (the
//! `schema` feature), for analytics consumers that load exports into typed tables.
//!
//! One schema per aggregate type, event type and current version. A payload is stored as serde
//! writes an enum variant: `{"EventType": {fields}}`, or `"EventType"` for one without fields; each
//! schema describes that whole value, its shared definitions under `$defs` beside it.
//!
//! Versioning: an event type's schema changes only with its version, and a new version comes with
//! an upcaster (`crate::upcast`), so every payload a reader is handed validates against the schema
//! of the version it is labelled with.

use cqrs_es::Aggregate;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::event::EventTable;

/// The schema of one event type's payload at its current version.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventSchema {
    pub aggregate_type: &'static str,
    pub event_type: &'static str,
    pub event_version: &'static str,
    /// A JSON Schema (draft 2020-12) of the stored payload.
    pub schema: Value,
}

/// The schemas of every event type of every aggregate, in aggregate then table order.
pub fn catalogue() -> Vec<EventSchema> {
    use crate::{analytics, ask, board, channel, channel_document, document, email, feed_template};
    use crate::{
        connection, instance, notebook, notification, person, portfolio, report, session, source, summary, tag, upload,
        user,
    };
    [
        of::<user::User>(),
        of::<session::Session>(),
        of::<email::EmailReservation>(),
        of::<instance::Instance>(),
        of::<source::Source>(),
        of::<source::Subscription>(),
        of::<document::Document>(),
        of::<document::ReadMark>(),
        of::<upload::Upload>(),
        of::<tag::TagBook>(),
        of::<tag::DocumentTags>(),
        of::<notebook::NotebookShelf>(),
        of::<notebook::Note>(),
        of::<channel::ChannelDirectory>(),
        of::<channel::Channel>(),
        of::<channel::ChannelReader>(),
        of::<channel_document::ChannelDocument>(),
        of::<person::ContactBook>(),
        of::<notification::NotificationInbox>(),
        of::<ask::AskSession>(),
        of::<board::Board>(),
        of::<feed_template::FeedTemplates>(),
        of::<board::MatchDay>(),
        of::<report::Report>(),
        of::<analytics::AnalyticsConsumer>(),
        of::<portfolio::Portfolio>(),
        of::<connection::Connection>(),
        of::<summary::Summary>(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The schemas of the event types of aggregate `A`.
pub fn of<A>() -> Vec<EventSchema>
where
    A: Aggregate,
    A::Event: JsonSchema + EventTable,
{
    let root = SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<A::Event>();
    let root = root.to_value();
    let defs = root.get("$defs").cloned();
    let types = <A::Event as EventTable>::EVENT_TYPES;
    let versions = <A::Event as EventTable>::EVENT_VERSIONS;
    types
        .iter()
        .zip(versions)
        .map(|(event_type, event_version)| {
            let mut schema = variant(&root, event_type);
            if let (Value::Object(map), Some(defs)) = (&mut schema, &defs) {
                map.insert("$defs".into(), defs.clone());
            }
            if let Value::Object(map) = &mut schema {
                map.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
                map.insert("title".into(), json!(event_type));
            }
            EventSchema { aggregate_type: A::TYPE, event_type, event_version, schema }
        })
        .collect()
}

/// The part of an externally tagged enum's schema that describes `event_type`: the object that
/// requires it as its one property, or (for a variant without fields) its name as a constant.
fn variant(root: &Value, event_type: &str) -> Value {
    let alternatives: Vec<&Value> = match root.get("oneOf").and_then(Value::as_array) {
        Some(list) => list.iter().collect(),
        None => vec![root],
    };
    for alternative in alternatives {
        let required = alternative.get("required").and_then(Value::as_array);
        if required.is_some_and(|r| r.len() == 1 && r[0] == event_type) {
            let mut schema = Map::new();
            for (key, value) in alternative.as_object().into_iter().flatten() {
                if key != "$defs" && key != "$schema" && key != "title" {
                    schema.insert(key.clone(), value.clone());
                }
            }
            return Value::Object(schema);
        }
        let names = [alternative.get("enum"), alternative.get("const").map(|_| alternative)];
        let is_name = match names {
            [Some(Value::Array(names)), _] => names.iter().any(|n| n == event_type),
            [_, Some(_)] => alternative["const"] == event_type,
            _ => false,
        };
        if is_name {
            let mut schema = json!({ "type": "string", "const": event_type });
            if let Some(description) = alternative.get("description") {
                schema["description"] = description.clone();
            }
            return schema;
        }
    }
    // A variant the generated schema does not show: nothing is promised about its payload.
    json!({})
}
