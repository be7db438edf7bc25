//! `needl events export`: the global feed written out for analysts, as NDJSON to a stream or as
//! Parquet files partitioned by day.
//!
//! Both read the feed a page at a time and hand out payloads as the audit log does: upcast to
//! their current version and with secrets redacted (`service::audit::redacted`).
//!
//! Parquet layout: `DIR/day=YYYY-MM-DD/part-<TX>-<POS>.parquet`, the day (UTC) an event was
//! recorded as a Hive-style partition, so DuckDB, pyarrow and Spark prune whole days from a time
//! filter, and every part named after the cursor of its first event, so an export resumed with
//! `--after` adds files beside the earlier ones and never overwrites one. Within a part, rows keep
//! the feed's order.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use chrono::{DateTime, NaiveDate, Utc};
use commands::feed::{self, Cursor, StoredEvent};
use commands::Db;
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::Type;

/// How many events one read of the feed returns.
const PAGE: i64 = 1000;

/// Rows per Parquet row group: what one open part holds in memory before it is written out.
pub const ROW_GROUP: usize = 50_000;

/// Parts open at once. The feed is in commit order and times almost follow it, so a part is
/// open for the day being written and perhaps the one before; one for an older day is closed to
/// keep memory bounded, and a later event of that day starts a new part.
const OPEN_PARTS: usize = 3;

/// The columns of every part, in order. Metadata fields are optional: events written before a
/// field existed have none.
const SCHEMA: &str = "message needl_event {
    REQUIRED BYTE_ARRAY cursor (STRING);
    REQUIRED INT64 tx;
    REQUIRED INT64 pos;
    REQUIRED BYTE_ARRAY aggregate_type (STRING);
    REQUIRED BYTE_ARRAY aggregate_id (STRING);
    REQUIRED INT64 sequence;
    REQUIRED BYTE_ARRAY event_type (STRING);
    REQUIRED BYTE_ARRAY event_version (STRING);
    REQUIRED INT64 recorded_at (TIMESTAMP(MILLIS, true));
    OPTIONAL BYTE_ARRAY user_id (STRING);
    OPTIONAL BYTE_ARRAY request_id (STRING);
    OPTIONAL BYTE_ARRAY app_type (STRING);
    OPTIONAL BYTE_ARRAY request_origin (STRING);
    REQUIRED BYTE_ARRAY payload (STRING);
}";

/// The metadata fields written as their own columns, in schema order.
const METADATA_COLUMNS: [&str; 4] = ["user_id", "request_id", "app_type", "request_origin"];

/// What an export wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub events: u64,
    pub files: Vec<PathBuf>,
    /// The cursor of the last event written: where the next export resumes (`--after`).
    pub last: Option<Cursor>,
}

impl Summary {
    /// The size of the written files, in bytes.
    pub fn bytes(&self) -> u64 {
        self.files.iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum()
    }
}

/// Writes the feed after `after` as NDJSON, one event a line, secrets redacted; returns how many.
pub async fn ndjson(db: &Db, mut after: Cursor, out: &mut impl Write) -> anyhow::Result<u64> {
    let mut events = 0;
    loop {
        let page = feed::read_after(db, after, PAGE).await?;
        let Some(last) = page.last() else {
            return Ok(events);
        };
        after = last.cursor;
        for event in page {
            serde_json::to_writer(&mut *out, &service::audit::redacted(event))?;
            out.write_all(b"\n")?;
            events += 1;
        }
        out.flush()?;
    }
}

/// Writes the feed after `after` as Parquet files under `dir`, partitioned by day.
pub async fn parquet(db: &Db, mut after: Cursor, dir: &Path) -> anyhow::Result<Summary> {
    let schema = Arc::new(parse_message_type(SCHEMA).context("the export's Parquet schema")?);
    let properties = Arc::new(
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .set_created_by(format!("needl {}", env!("CARGO_PKG_VERSION")))
            .build(),
    );
    let mut open: BTreeMap<NaiveDate, Part> = BTreeMap::new();
    let mut summary = Summary::default();
    loop {
        let page = feed::read_after(db, after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.cursor;
        for event in page {
            let event = service::audit::redacted(event);
            let recorded_at = DateTime::parse_from_rfc3339(&event.recorded_at)
                .with_context(|| format!("event {}: recorded_at {:?}", event.cursor, event.recorded_at))?
                .with_timezone(&Utc);
            let day = recorded_at.date_naive();
            if !open.contains_key(&day) {
                if open.len() == OPEN_PARTS {
                    let (_, oldest) = open.pop_first().expect("parts are open");
                    summary.files.push(oldest.finish()?);
                }
                let part = Part::create(dir, day, event.cursor, schema.clone(), properties.clone())?;
                open.insert(day, part);
            }
            let part = open.get_mut(&day).expect("the part was just opened");
            part.push(&event, recorded_at)?;
            summary.events += 1;
            summary.last = Some(event.cursor);
        }
    }
    for (_, part) in open {
        summary.files.push(part.finish()?);
    }
    Ok(summary)
}

/// One Parquet file being written: its rows since the last row group, column by column.
struct Part {
    path: PathBuf,
    writer: SerializedFileWriter<File>,
    rows: Rows,
}

impl Part {
    fn create(
        dir: &Path,
        day: NaiveDate,
        first: Cursor,
        schema: Arc<Type>,
        properties: Arc<WriterProperties>,
    ) -> anyhow::Result<Self> {
        let folder = dir.join(format!("day={}", day.format("%Y-%m-%d")));
        std::fs::create_dir_all(&folder).with_context(|| format!("creating {}", folder.display()))?;
        let path = folder.join(format!("part-{}-{}.parquet", first.tx, first.pos));
        // Never over an earlier export's file: the same cursor means the same events.
        let file = File::create_new(&path).with_context(|| format!("creating {}", path.display()))?;
        let writer = SerializedFileWriter::new(file, schema, properties)?;
        Ok(Self { path, writer, rows: Rows::default() })
    }

    fn push(&mut self, event: &StoredEvent, recorded_at: DateTime<Utc>) -> anyhow::Result<()> {
        self.rows.push(event, recorded_at)?;
        if self.rows.len() >= ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the buffered rows as one row group.
    fn flush(&mut self) -> anyhow::Result<()> {
        if self.rows.len() == 0 {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.rows);
        let mut group = self.writer.next_row_group()?;
        let mut index = 0;
        while let Some(mut column) = group.next_column()? {
            match rows.column(index) {
                Column::Text(values) => {
                    column.typed::<ByteArrayType>().write_batch(values, None, None)?;
                }
                Column::Int(values) => {
                    column.typed::<Int64Type>().write_batch(values, None, None)?;
                }
                Column::Optional(values) => {
                    let levels: Vec<i16> = values.iter().map(|v| i16::from(v.is_some())).collect();
                    let present: Vec<ByteArray> = values.iter().flatten().cloned().collect();
                    column.typed::<ByteArrayType>().write_batch(&present, Some(&levels), None)?;
                }
            }
            column.close()?;
            index += 1;
        }
        group.close()?;
        Ok(())
    }

    fn finish(mut self) -> anyhow::Result<PathBuf> {
        self.flush()?;
        self.writer.close().with_context(|| format!("closing {}", self.path.display()))?;
        Ok(self.path)
    }
}

/// Buffered rows, a vector per column.
#[derive(Default)]
struct Rows {
    cursor: Vec<ByteArray>,
    tx: Vec<i64>,
    pos: Vec<i64>,
    aggregate_type: Vec<ByteArray>,
    aggregate_id: Vec<ByteArray>,
    sequence: Vec<i64>,
    event_type: Vec<ByteArray>,
    event_version: Vec<ByteArray>,
    recorded_at: Vec<i64>,
    metadata: [Vec<Option<ByteArray>>; 4],
    payload: Vec<ByteArray>,
}

enum Column<'a> {
    Text(&'a [ByteArray]),
    Int(&'a [i64]),
    Optional(&'a [Option<ByteArray>]),
}

impl Rows {
    fn len(&self) -> usize {
        self.tx.len()
    }

    fn push(&mut self, event: &StoredEvent, recorded_at: DateTime<Utc>) -> anyhow::Result<()> {
        self.cursor.push(ByteArray::from(event.cursor.to_string().into_bytes()));
        self.tx.push(event.cursor.tx);
        self.pos.push(event.cursor.pos);
        self.aggregate_type.push(event.aggregate_type.as_str().into());
        self.aggregate_id.push(event.aggregate_id.as_str().into());
        self.sequence.push(event.sequence);
        self.event_type.push(event.event_type.as_str().into());
        self.event_version.push(event.event_version.as_str().into());
        self.recorded_at.push(recorded_at.timestamp_millis());
        for (column, field) in self.metadata.iter_mut().zip(METADATA_COLUMNS) {
            column.push(event.metadata.get(field).and_then(|v| v.as_str()).map(ByteArray::from));
        }
        self.payload.push(ByteArray::from(serde_json::to_vec(&event.payload)?));
        Ok(())
    }

    /// The column at `index` in [`SCHEMA`]'s order.
    fn column(&self, index: usize) -> Column<'_> {
        match index {
            0 => Column::Text(&self.cursor),
            1 => Column::Int(&self.tx),
            2 => Column::Int(&self.pos),
            3 => Column::Text(&self.aggregate_type),
            4 => Column::Text(&self.aggregate_id),
            5 => Column::Int(&self.sequence),
            6 => Column::Text(&self.event_type),
            7 => Column::Text(&self.event_version),
            8 => Column::Int(&self.recorded_at),
            9..=12 => Column::Optional(&self.metadata[index - 9]),
            _ => Column::Text(&self.payload),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_parses_and_the_rows_fill_every_column() {
        let schema = parse_message_type(SCHEMA).unwrap();
        let names: Vec<&str> = schema.get_fields().iter().map(|f| f.name()).collect();
        assert_eq!(names.len(), 14);
        assert_eq!(names[9..13], METADATA_COLUMNS);
        assert_eq!(names[13], "payload");
    }
}
