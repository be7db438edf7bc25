//! Filings as sources: companies followed on SEC EDGAR ([`edgar`]) and the exchanges' announcement
//! listings the catalogue points at, read by the ingestion loop into documents ([`sync`]), and
//! EDGAR's latest filings, which make the followed companies that filed due at once ([`watch`]).
//!
//! [`Filings`] is what the use cases and the loop share: the one EDGAR client of this node (its
//! rate is per node), and EDGAR's company list, kept as a file in the data directory that the
//! operator refreshes (`needl edgar-companies`) and that is fetched once when missing.

pub mod edgar;
pub mod sync;
pub mod watch;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ingest::edgar::companies::Companies;
use ingest::edgar::{EdgarClient, EdgarConfig};

use crate::error::{Error, Result};

/// The company list's file in the data directory.
pub fn companies_path(data_dir: &Path) -> PathBuf {
    data_dir.join("edgar").join("company_tickers.json")
}

/// Largest company list accepted (EDGAR's is under 1 MB).
const MAX_COMPANY_LIST_BYTES: usize = 16 * 1024 * 1024;

pub struct Filings {
    /// `None` when the operator gave no contact address: EDGAR is then off, with `off_reason`.
    edgar: Option<Arc<EdgarClient>>,
    off_reason: Option<String>,
    companies_file: PathBuf,
    /// The list as last read; read lazily, as most instances never look a company up.
    companies: tokio::sync::Mutex<Option<Arc<Companies>>>,
}

impl Filings {
    /// Filings with EDGAR set up by `config`, or off (with the reason why) when it is `None` or
    /// refused.
    pub fn new(data_dir: &Path, config: Option<EdgarConfig>) -> Self {
        let (edgar, off_reason) = match config.map(EdgarClient::new) {
            None => (None, Some(ingest::edgar::EdgarError::NoContact.to_string())),
            Some(Ok(client)) => (Some(Arc::new(client)), None),
            Some(Err(error)) => (None, Some(error.to_string())),
        };
        Self { edgar, off_reason, companies_file: companies_path(data_dir), companies: tokio::sync::Mutex::new(None) }
    }

    pub fn edgar(&self) -> Option<&Arc<EdgarClient>> {
        self.edgar.as_ref()
    }

    /// Why EDGAR is off on this server, worded for the person who would follow a company.
    pub fn off_reason(&self) -> Option<&str> {
        self.off_reason.as_deref()
    }

    /// The EDGAR client, or the error that says why there is none.
    pub fn require_edgar(&self) -> Result<&Arc<EdgarClient>> {
        self.edgar.as_ref().ok_or_else(|| {
            Error::new(
                crate::error::Kind::Unavailable,
                "edgar_not_configured",
                "SEC filings are not set up on this server: the operator must declare a contact address for EDGAR",
            )
        })
    }

    /// EDGAR's company list: the file, else fetched from EDGAR once and kept.
    pub async fn companies(&self) -> Result<Arc<Companies>> {
        let mut held = self.companies.lock().await;
        if let Some(list) = held.as_ref() {
            return Ok(list.clone());
        }
        let bytes = match tokio::fs::read(&self.companies_file).await {
            Ok(bytes) => bytes,
            Err(_) => self.download_companies().await?,
        };
        let list = Arc::new(Companies::parse(&bytes).map_err(|e| {
            Error::invalid("company_list_missing", format!("the company list on this server cannot be read: {e}"))
        })?);
        *held = Some(list.clone());
        Ok(list)
    }

    /// The company list when this server has one, without asking EDGAR for it.
    pub async fn loaded_companies(&self) -> Option<Arc<Companies>> {
        if let Some(list) = self.companies.lock().await.as_ref() {
            return Some(list.clone());
        }
        if !tokio::fs::try_exists(&self.companies_file).await.unwrap_or(false) {
            return None;
        }
        self.companies().await.ok()
    }

    /// Fetches EDGAR's company list into the data directory and uses it from now on; returns how
    /// many companies it names.
    pub async fn refresh_companies(&self) -> Result<usize> {
        let bytes = self.download_companies().await?;
        let list = Arc::new(
            Companies::parse(&bytes)
                .map_err(|e| Error::internal(format!("EDGAR's company list is unreadable: {e}")))?,
        );
        let count = list.len();
        *self.companies.lock().await = Some(list);
        Ok(count)
    }

    async fn download_companies(&self) -> Result<Vec<u8>> {
        let missing = |why: String| {
            Error::invalid(
                "company_list_missing",
                format!(
                    "the list of companies is not on this server yet ({why}); follow a company by its CIK meanwhile"
                ),
            )
        };
        let edgar = self.require_edgar()?;
        let fetched = edgar.get(&edgar.company_list_url()).await.map_err(|e| missing(e.to_string()))?;
        if fetched.body.len() > MAX_COMPANY_LIST_BYTES {
            return Err(missing("EDGAR's answer is too large".into()));
        }
        // Checked before it replaces a good file.
        Companies::parse(&fetched.body).map_err(|e| missing(e.to_string()))?;
        let (path, body) = (self.companies_file.clone(), fetched.body.clone());
        tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
            if let Some(dir) = path.parent() {
                commands::private::create_dir(dir)?;
            }
            let partial = path.with_extension("json.partial");
            commands::private::write_file(&partial, &body)?;
            Ok(std::fs::rename(&partial, &path)?)
        })
        .await
        .map_err(Error::internal)?
        .map_err(Error::internal)?;
        Ok(fetched.body)
    }
}
