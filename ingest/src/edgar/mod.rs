//! SEC EDGAR: following a company's filings.
//!
//! - [`client`]: the rate-limited client every request goes through (declared User-Agent, 10
//!   requests a second per node, a pause for everyone on 429/503).
//! - [`companies`]: EDGAR's company list (`company_tickers.json`), kept as a file the operator
//!   refreshes, and resolving what a person typed (ticker, CIK or name) to a company.
//! - [`current`]: the latest filings of every company, to tell which followed ones filed.
//! - [`feed`]: a company's Atom feed of filings (`browse-edgar ... output=atom`).
//! - [`filing_index`]: a filing's index page (`...-index.htm`): period of report and documents.
//! - [`xbrl`]: the primary statements of a filing's inline XBRL as tables of labels and periods.
//! - [`title`]: the title a reader expects ("Apple Inc. — 10-K — FY2024").

pub mod client;
pub mod companies;
pub mod current;
pub mod feed;
pub mod filing_index;
pub mod title;
pub mod xbrl;

pub use client::{EdgarClient, EdgarConfig, EdgarError, RateLimiter};

pub use companies::{Companies, CompaniesError, Company, Resolution};
pub use feed::{parse_company_feed, CompanyFeed, CompanyInfo, FeedParseError, FilingEntry};
pub use filing_index::{parse_filing_index, FilingIndex, IndexDocument, IndexError};
pub use title::{display_name, exhibit_title, filing_title, period_label};
pub use xbrl::{primary_statements, statements_text, Statement, StatementRow, XbrlError, XbrlLimits};
