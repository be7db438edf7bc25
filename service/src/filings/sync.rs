//! Reading filings sources into documents, for the ingestion loop: a company followed on EDGAR
//! (its Atom feed, then each new filing's index, primary document and exhibits) and a catalogue
//! entry read by an exchange connector (its listing, then each new announcement's PDF).
//!
//! A filing is recorded whole or not at all: everything it needs is fetched and extracted
//! first, its exhibits are recorded next and its primary document last, and a filing counts as
//! read once its primary document is recorded. A crash in between leaves a filing read again
//! next time, which records the same documents again (recording is idempotent).
//!
//! Problems that are the filing's own (a missing primary document, an index that is not one)
//! are reported on the source and the filing is left alone for a day; problems that may pass (a
//! timeout, EDGAR asking to slow down) fail the fetch, and the loop backs off.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use chrono::{DateTime, NaiveTime, Utc};
use commands::{args, CommandBus, Db};
use domain::document::{DocumentCommand, DocumentFields};
use domain::EventMetadata;
use extract::{Extracted, Page};
use ingest::edgar::feed::{parse_company_feed, FilingEntry};
use ingest::edgar::filing_index::{parse_filing_index, IndexDocument};
use ingest::edgar::title::{display_name, exhibit_title, filing_title, period_label};
use ingest::edgar::xbrl::{primary_statements, statements_text, XbrlLimits};
use ingest::edgar::{EdgarClient, EdgarError};
use ingest::exchanges::{in_categories, Announcement, ListingContext};
use ingest::{CatalogueEntry, FetchError, FetchResponse, FetchState, Fetcher};
use url::Url;

use super::edgar::{form_wanted, is_edgar_source, parse_source_id};
use super::Filings;
use crate::drive::{self, file_facts, store};
use crate::ingestion::{deeplink, preview, BlobStore};

/// What one read of a filings source came to.
#[derive(Debug, Default)]
pub struct SyncReport {
    /// Validators for the next conditional fetch.
    pub state: FetchState,
    /// Filings or announcements that could not be read, worded for the source's page.
    pub problems: Vec<String>,
    /// Documents recorded.
    pub recorded: usize,
}

/// Why one filing or announcement was not recorded.
enum Problem {
    /// Worth trying again soon: the whole fetch fails and is retried with back-off.
    Passing(anyhow::Error),
    /// The item's own: reported on the source, the item left alone for a day.
    Own(String),
}

impl From<EdgarError> for Problem {
    fn from(error: EdgarError) -> Self {
        match &error {
            EdgarError::Fetch { reason: FetchError::Status { status: 404 | 410 }, url } => {
                Problem::Own(format!("{url} is missing on EDGAR"))
            }
            e if e.is_transient() => Problem::Passing(error.into()),
            _ => Problem::Own(error.to_string()),
        }
    }
}

/// How long an item whose problem is its own is left alone.
const SKIP_FOR: Duration = Duration::from_secs(24 * 3600);

pub struct FilingSync {
    db: Db,
    bus: Arc<CommandBus>,
    blobs: BlobStore,
    filings: Arc<Filings>,
    catalogue: Arc<ingest::Catalogue>,
    /// Exchanges' listings and attachments go through the ordinary guarded fetcher.
    fetcher: Arc<Fetcher>,
    worker: extract::WorkerCommand,
    scratch: PathBuf,
    /// Filings read per pass over one company (a company's feed lists its latest 40).
    pub max_filings_per_pass: usize,
    /// Exhibits read per filing.
    pub max_exhibits: usize,
    /// Announcements read per pass over one listing.
    pub max_announcements_per_pass: usize,
    /// Items whose problem is their own, by deeplink, with when they were given up on.
    given_up: Mutex<HashMap<String, Instant>>,
}

impl FilingSync {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        db: Db,
        bus: Arc<CommandBus>,
        data_dir: &std::path::Path,
        blobs: BlobStore,
        filings: Arc<Filings>,
        catalogue: Arc<ingest::Catalogue>,
        fetcher: Arc<Fetcher>,
        worker: extract::WorkerCommand,
    ) -> Self {
        Self {
            db,
            bus,
            blobs,
            filings,
            catalogue,
            fetcher,
            worker,
            scratch: data_dir.join("scratch"),
            max_filings_per_pass: 20,
            max_exhibits: 5,
            max_announcements_per_pass: 20,
            given_up: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `source_id` is read here rather than as a feed.
    pub fn handles(&self, source_id: &str) -> bool {
        is_edgar_source(source_id) || self.catalogue.get(source_id).is_some_and(|e| e.exchange().is_some())
    }

    /// Reads one filings source. Its address comes from the settings as they are now (EDGAR's
    /// address, the catalogue's listing), not from when it was first followed.
    pub async fn sync(&self, source_id: &str, state: &FetchState) -> anyhow::Result<SyncReport> {
        if is_edgar_source(source_id) {
            return self.sync_company(source_id, state).await;
        }
        let entry = self.catalogue.get(source_id).context("this source is not in the catalogue")?;
        let url = entry.listing_url().context("this catalogue entry has no listing address")?;
        self.sync_listing(entry, source_id, url, state).await
    }

    async fn sync_company(&self, source_id: &str, state: &FetchState) -> anyhow::Result<SyncReport> {
        let edgar = self
            .filings
            .edgar()
            .context("SEC filings are not set up on this server: the operator must declare a contact address")?;
        let (cik, forms) = parse_source_id(source_id).context("not a company followed on EDGAR")?;
        let url = &edgar.company_feed_url(cik);
        let fetched = match edgar.get_if_changed(url, state).await? {
            FetchResponse::NotModified => return Ok(SyncReport { state: state.clone(), ..SyncReport::default() }),
            FetchResponse::Fetched(fetched) => fetched,
        };
        let feed = parse_company_feed(&fetched.body, url)
            .map_err(|e| anyhow::anyhow!("EDGAR's list of filings for CIK {cik} could not be read: {e}"))?;
        let company = Company {
            cik,
            name: feed.company.as_ref().map(|c| display_name(&c.name)).unwrap_or_else(|| format!("CIK {cik}")),
            fiscal_year_end: feed.company.as_ref().and_then(|c| c.fiscal_year_end.clone()),
            ticker: self.filings.loaded_companies().await.and_then(|l| l.by_cik(cik).and_then(|c| c.ticker.clone())),
        };
        let mut report = SyncReport { state: fetched.state, ..SyncReport::default() };
        let mut taken = 0;
        for entry in feed.filings.iter().filter(|e| form_wanted(&e.form, &forms)) {
            let id = deeplink(source_id, &entry.accession);
            if self.recorded(&id).await? || self.given_up_on(&id) {
                continue;
            }
            if taken == self.max_filings_per_pass {
                // The rest next time: without validators, so the unchanged feed is read again.
                report.state = FetchState::default();
                break;
            }
            taken += 1;
            match self.read_filing(edgar, source_id, &company, entry).await {
                Ok(recorded) => report.recorded += recorded,
                Err(Problem::Passing(error)) => return Err(error),
                Err(Problem::Own(why)) => {
                    tracing::info!(source = source_id, accession = %entry.accession, why, "filing not read");
                    self.give_up(id);
                    report.problems.push(format!(
                        "{} filed {} ({}) could not be read: {why}",
                        entry.form, entry.filing_date, entry.accession
                    ));
                }
            }
        }
        Ok(report)
    }

    /// Fetches, extracts and records one filing: exhibits first, the primary document last.
    async fn read_filing(
        &self,
        edgar: &EdgarClient,
        source_id: &str,
        company: &Company,
        entry: &FilingEntry,
    ) -> Result<usize, Problem> {
        let index_page = edgar.get(&entry.index_url).await?;
        let index = parse_filing_index(&index_page.body, &entry.index_url)
            .map_err(|e| Problem::Own(format!("its index page could not be read: {e}")))?;
        let primary = index.primary().ok_or_else(|| Problem::Own("its index lists no primary document".into()))?;
        let form = entry.form.as_str();
        let period = period_label(form, index.period_of_report, company.fiscal_year_end.as_deref(), entry.filing_date);
        let fetched = edgar.get(&primary.url).await?;
        let mut extracted = self.extract(&primary.name, fetched.content_type.as_deref(), fetched.body.clone()).await?;
        if is_html(primary) {
            add_statements(fetched.body, &mut extracted).await;
        }
        let mut tags = BTreeMap::from([
            ("company_name".to_string(), company.name.clone()),
            ("cik".to_string(), company.cik.to_string()),
            ("form_type".to_string(), form.to_string()),
            ("filing_date".to_string(), entry.filing_date.to_string()),
            ("fiscal_period".to_string(), period.clone()),
            ("accession_number".to_string(), entry.accession.clone()),
            ("exchange".to_string(), "SEC EDGAR".to_string()),
            ("country".to_string(), "US".to_string()),
        ]);
        if let Some(ticker) = &company.ticker {
            tags.insert("ticker".into(), ticker.clone());
        }
        if let Some(p) = index.period_of_report {
            tags.insert("period_of_report".into(), p.to_string());
        }
        if let Some(items) = &entry.items {
            tags.insert("items".into(), items.clone());
        }
        let published = entry.accepted.or_else(|| Some(entry.filing_date.and_time(NaiveTime::MIN).and_utc()));
        let primary_id = deeplink(source_id, &entry.accession);
        let mut recorded = 0;
        for exhibit in index.exhibits(self.max_exhibits) {
            let extracted = match self.fetch_extract(edgar, exhibit).await {
                Ok(extracted) => extracted,
                Err(Problem::Passing(error)) => return Err(Problem::Passing(error)),
                Err(Problem::Own(why)) => {
                    tracing::info!(source = source_id, exhibit = %exhibit.name, why, "exhibit not read");
                    continue;
                }
            };
            let mut tags = tags.clone();
            tags.insert("exhibit_type".into(), exhibit.kind.clone());
            tags.insert("attached_to".into(), primary_id.clone());
            let doc = PublicDocument {
                source_id,
                guid: format!("{}/{}", entry.accession, exhibit.name),
                title: exhibit_title(&company.name, form, &exhibit.kind, exhibit.description.as_deref()),
                link: Some(exhibit.url.to_string()),
                published,
                file_name: &exhibit.name,
                extracted: &extracted,
                tags,
            };
            self.record(doc).await.map_err(Problem::Passing)?;
            recorded += 1;
        }
        let doc = PublicDocument {
            source_id,
            guid: entry.accession.clone(),
            title: filing_title(&company.name, form, &period),
            link: Some(primary.url.to_string()),
            published,
            file_name: &primary.name,
            extracted: &extracted,
            tags,
        };
        self.record(doc).await.map_err(Problem::Passing)?;
        Ok(recorded + 1)
    }

    async fn fetch_extract(&self, edgar: &EdgarClient, document: &IndexDocument) -> Result<Extracted, Problem> {
        let fetched = edgar.get(&document.url).await?;
        let declared = fetched.content_type.clone();
        self.extract(&document.name, declared.as_deref(), fetched.body).await
    }

    /// Extracts a fetched file in an isolated worker.
    async fn extract(&self, name: &str, declared: Option<&str>, bytes: Vec<u8>) -> Result<Extracted, Problem> {
        match drive::extract_bytes(&self.worker, &self.scratch, name, declared, bytes).await {
            Err(error) => Err(Problem::Passing(error)),
            Ok(Ok(extracted)) => Ok(extracted),
            Ok(Err(error @ extract::ExtractError::Worker(_))) => Err(Problem::Passing(error.into())),
            Ok(Err(error)) => Err(Problem::Own(format!("{name} could not be read: {error}"))),
        }
    }

    async fn sync_listing(
        &self,
        entry: &CatalogueEntry,
        source_id: &str,
        url: &Url,
        state: &FetchState,
    ) -> anyhow::Result<SyncReport> {
        let exchange = entry.exchange().context("this catalogue entry has no exchange connector")?;
        let fetched = match self.fetcher.get(url, state).await {
            Ok(FetchResponse::NotModified) => return Ok(SyncReport { state: state.clone(), ..SyncReport::default() }),
            Ok(FetchResponse::Fetched(fetched)) => fetched,
            Err(reason) => return Err(ingest::IngestError::Fetch { url: url.to_string(), reason }.into()),
        };
        let cx = ListingContext { base: &fetched.url, attachment_base: entry.attachment_base.as_ref() };
        let announcements = exchange.parse_listing(&fetched.body, &cx).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut report = SyncReport { state: fetched.state.clone(), ..SyncReport::default() };
        let mut taken = 0;
        for announcement in announcements.iter().filter(|a| in_categories(a, &entry.categories)) {
            let id = deeplink(source_id, &announcement.id);
            if self.recorded(&id).await? || self.given_up_on(&id) {
                continue;
            }
            if taken == self.max_announcements_per_pass {
                report.state = FetchState::default();
                break;
            }
            taken += 1;
            match self.read_announcement(exchange, source_id, announcement).await {
                Ok(()) => report.recorded += 1,
                Err(Problem::Passing(error)) => return Err(error),
                Err(Problem::Own(why)) => {
                    self.give_up(id);
                    report.problems.push(format!("'{}' could not be read: {why}", announcement.title));
                }
            }
        }
        Ok(report)
    }

    /// Records one announcement: its PDF when it has one (an exchange such as NZX links it from
    /// the announcement's page), else its headline and summary.
    async fn read_announcement(
        &self,
        exchange: &dyn ingest::exchanges::Exchange,
        source_id: &str,
        a: &Announcement,
    ) -> Result<(), Problem> {
        let attachment = match (&a.attachment, &a.link) {
            (Some(url), _) => Some(url.clone()),
            (None, Some(page)) => match self.get(page).await {
                Ok(body) => exchange.attachments_on_page(&body, page).into_iter().next(),
                Err(Problem::Own(_)) => None,
                Err(passing) => return Err(passing),
            },
            (None, None) => None,
        };
        let file_name = attachment
            .as_ref()
            .and_then(|u| u.path_segments().and_then(|mut s| s.next_back()).map(str::to_string))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("{}.txt", a.id));
        let extracted = match &attachment {
            Some(url) => {
                let body = self.get(url).await?;
                self.extract(&file_name, None, body).await?
            }
            None => text_document(a),
        };
        let mut tags = BTreeMap::from([
            ("company_name".to_string(), a.company.clone()),
            ("exchange".to_string(), exchange.name().to_string()),
            ("country".to_string(), exchange.country().to_string()),
        ]);
        if let Some(symbol) = &a.symbol {
            tags.insert("symbol".into(), symbol.clone());
        }
        if let Some(category) = &a.category {
            tags.insert("category".into(), category.clone());
        }
        let title = if a.title.to_lowercase().starts_with(&a.company.to_lowercase()) {
            a.title.clone()
        } else {
            format!("{} — {}", a.company, a.title)
        };
        let doc = PublicDocument {
            source_id,
            guid: a.id.clone(),
            title,
            link: attachment.as_ref().or(a.link.as_ref()).map(Url::to_string),
            published: a.published,
            file_name: &file_name,
            extracted: &extracted,
            tags,
        };
        self.record(doc).await.map_err(Problem::Passing)
    }

    async fn get(&self, url: &Url) -> Result<Vec<u8>, Problem> {
        match self.fetcher.get(url, &FetchState::default()).await {
            Ok(FetchResponse::Fetched(fetched)) => Ok(fetched.body),
            Ok(FetchResponse::NotModified) => Err(Problem::Own(format!("{url} answered 'not modified'"))),
            Err(reason) if reason.is_transient() => {
                Err(Problem::Passing(ingest::IngestError::Fetch { url: url.to_string(), reason }.into()))
            }
            Err(reason) => Err(Problem::Own(format!("could not fetch {url}: {reason}"))),
        }
    }

    /// Stores the document's text and layout and records it in the source, for everyone who
    /// follows it.
    async fn record(&self, doc: PublicDocument<'_>) -> anyhow::Result<()> {
        let stored = store(&self.blobs, doc.extracted).await?;
        let mut metadata = extract::tags::detail_tags(doc.extracted);
        metadata.extend(file_facts(doc.extracted, doc.file_name, &stored.layout_hash));
        // What the source itself says wins over what the text suggests.
        metadata.extend(doc.tags);
        let fields = DocumentFields {
            source_id: doc.source_id.to_string(),
            guid: doc.guid.clone(),
            link: doc.link,
            title: doc.title,
            author: None,
            published_at: doc.published,
            summary: Some(preview(&stored.text, 100)).filter(|s| !s.is_empty()),
            content_hash: stored.content_hash,
            owner: None,
            metadata,
        };
        self.bus
            .execute(
                &self.bus.documents,
                &deeplink(doc.source_id, &doc.guid),
                DocumentCommand::Ingest(fields),
                &EventMetadata::system("ingest", uuid::Uuid::new_v4().to_string()),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(())
    }

    async fn recorded(&self, deeplink: &str) -> anyhow::Result<bool> {
        #[derive(sqlx::FromRow)]
        struct Found {
            #[allow(dead_code)]
            deeplink: String,
        }
        let found: Option<Found> =
            self.db.fetch_optional("SELECT deeplink FROM documents_view WHERE deeplink = $1", args![deeplink]).await?;
        Ok(found.is_some())
    }

    fn given_up_on(&self, deeplink: &str) -> bool {
        let mut given_up = self.given_up.lock().unwrap_or_else(|e| e.into_inner());
        given_up.retain(|_, at| at.elapsed() < SKIP_FOR);
        given_up.contains_key(deeplink)
    }

    fn give_up(&self, deeplink: String) {
        self.given_up.lock().unwrap_or_else(|e| e.into_inner()).insert(deeplink, Instant::now());
    }
}

/// What is known of a followed company while its filings are read.
struct Company {
    cik: u64,
    name: String,
    fiscal_year_end: Option<String>,
    ticker: Option<String>,
}

/// One document of a public source, ready to record.
struct PublicDocument<'a> {
    source_id: &'a str,
    guid: String,
    title: String,
    link: Option<String>,
    published: Option<DateTime<Utc>>,
    file_name: &'a str,
    extracted: &'a Extracted,
    tags: BTreeMap<String, String>,
}

/// Adds the filing's primary statements, read from its inline XBRL, as a last page of tables
/// (a label and a figure per period on each line). A filing without them, or whose XBRL cannot
/// be read, keeps its text alone.
async fn add_statements(body: Vec<u8>, extracted: &mut Extracted) {
    let read = tokio::task::spawn_blocking(move || primary_statements(&body, &XbrlLimits::default())).await;
    match read {
        Ok(Ok(statements)) if !statements.is_empty() => {
            let number = extracted.pages.len() as u32 + 1;
            extracted.pages.push(Page {
                number,
                text: format!("Financial statements (from the filing's XBRL data)\n\n{}", statements_text(&statements)),
                blocks: vec![],
                width: 0.0,
                height: 0.0,
                garbled: false,
            });
        }
        Ok(Ok(_)) => {}
        Ok(Err(error)) => extracted.warnings.push(format!("the XBRL statements could not be read: {error}")),
        Err(error) => tracing::warn!(%error, "reading statements panicked"),
    }
}

fn is_html(document: &IndexDocument) -> bool {
    let name = document.name.to_ascii_lowercase();
    name.ends_with(".htm") || name.ends_with(".html")
}

/// An announcement without an attachment, as a one-page document of its headline and summary.
fn text_document(a: &Announcement) -> Extracted {
    let text = match &a.summary {
        Some(summary) if !summary.trim().is_empty() => format!("{}\n\n{}", a.title, summary.trim()),
        _ => a.title.clone(),
    };
    Extracted {
        mime: "text/plain".into(),
        pages: vec![Page { number: 1, text, blocks: vec![], width: 0.0, height: 0.0, garbled: false }],
        metadata: extract::DocMetadata { mime: "text/plain".into(), page_count: 1, ..Default::default() },
        garbled: false,
        warnings: vec![],
    }
}
