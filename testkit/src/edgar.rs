//! A local server that answers as SEC EDGAR does, for the filings tests and benchmark: the
//! company list (`files/company_tickers.json`), companies' Atom feeds
//! (`cgi-bin/browse-edgar?action=getcompany&CIK=...&output=atom`), the latest-filings feed
//! (`action=getcurrent`: what was published while it runs), filing index pages and the
//! documents they list (an inline-XBRL primary document, an exhibit). Filings can be published
//! while it runs, a company's feed broken, a filing's primary document left missing, and the
//! server made to answer 429 for a while; it keeps when each request arrived.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// A filing as the fake EDGAR lists it.
#[derive(Debug, Clone)]
pub struct FakeFiling {
    pub accession: String,
    pub form: String,
    pub filing_date: String,
    pub period: String,
    /// A word only this filing's primary document holds, to find it by.
    pub marker: String,
    /// Revenue for the period and the one before, in millions, as the inline XBRL states them.
    pub revenue: Option<(u64, u64)>,
    /// An exhibit (EX-99.1, a press release) beside the primary document.
    pub exhibit: bool,
    /// The index lists a primary document the server does not have.
    pub primary_missing: bool,
    /// The primary document is a PDF (as some filers send), not inline-XBRL HTML.
    pub pdf_primary: bool,
}

impl FakeFiling {
    /// Filing number `n` of `cik`: a 10-K, 10-Q or 8-K in turn, with revenue figures.
    pub fn numbered(cik: u64, n: usize) -> Self {
        let form = ["10-K", "10-Q", "8-K"][n % 3];
        FakeFiling {
            accession: format!("{cik:010}-24-{n:06}"),
            form: form.to_string(),
            filing_date: "2024-11-01".into(),
            period: "2024-09-28".into(),
            marker: format!("zq{cik}x{n}"),
            revenue: (form != "8-K").then_some((391_035 + n as u64, 383_285)),
            exhibit: form == "8-K",
            primary_missing: false,
            pdf_primary: false,
        }
    }

    fn folder(&self) -> String {
        self.accession.replace('-', "")
    }
}

#[derive(Debug, Clone)]
pub struct FakeCompany {
    pub cik: u64,
    pub ticker: String,
    /// As EDGAR's feed writes it, often in capitals.
    pub conformed_name: String,
    /// Newest first, as EDGAR lists them.
    pub filings: Vec<FakeFiling>,
    /// Whether the company list names it (many filers have no ticker).
    pub listed: bool,
}

impl FakeCompany {
    pub fn new(cik: u64, ticker: &str, conformed_name: &str, filings: Vec<FakeFiling>) -> Self {
        FakeCompany { cik, ticker: ticker.into(), conformed_name: conformed_name.into(), filings, listed: true }
    }
}

#[derive(Default)]
struct Inner {
    companies: Mutex<Vec<FakeCompany>>,
    broken_feeds: Mutex<Vec<u64>>,
    /// What the latest-filings feed lists: filings published while the server runs, newest first.
    current: Mutex<Vec<(u64, String, FakeFiling)>>,
    requests: Mutex<Vec<(Instant, String)>>,
    refuse_until: Mutex<Option<Instant>>,
}

/// The running server.
#[derive(Clone)]
pub struct FakeEdgar {
    inner: Arc<Inner>,
    pub addr: SocketAddr,
}

impl FakeEdgar {
    /// Starts on a free port.
    pub async fn start(companies: Vec<FakeCompany>) -> FakeEdgar {
        Self::start_on(0, companies).await
    }

    /// Starts on `port` of 127.0.0.1 (0: a free one).
    pub async fn start_on(port: u16, companies: Vec<FakeCompany>) -> FakeEdgar {
        let inner = Arc::new(Inner { companies: Mutex::new(companies), ..Inner::default() });
        let router = Router::new()
            .route("/files/company_tickers.json", get(company_list))
            .route("/cgi-bin/browse-edgar", get(company_feed))
            .route("/Archives/edgar/data/{cik}/{folder}/{name}", get(archive))
            .layer(axum::middleware::from_fn_with_state(inner.clone(), keep_and_refuse))
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.expect("a local port");
        let addr = listener.local_addr().expect("a bound address");
        tokio::spawn(async move { axum::serve(listener, router).await });
        FakeEdgar { inner, addr }
    }

    /// EDGAR's address here, for `--edgar-url`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Puts a filing at the top of the company's feed, as when EDGAR accepts one.
    pub fn publish(&self, cik: u64, filing: FakeFiling) {
        let mut companies = self.inner.companies.lock().unwrap();
        if let Some(company) = companies.iter_mut().find(|c| c.cik == cik) {
            let mut current = self.inner.current.lock().unwrap();
            current.insert(0, (cik, company.conformed_name.clone(), filing.clone()));
            current.truncate(100);
            company.filings.insert(0, filing);
        }
    }

    /// Makes the company's feed answer malformed XML.
    pub fn break_feed(&self, cik: u64) {
        self.inner.broken_feeds.lock().unwrap().push(cik);
    }

    /// Answers every request with 429 for `how_long`.
    pub fn refuse_for(&self, how_long: Duration) {
        *self.inner.refuse_until.lock().unwrap() = Some(Instant::now() + how_long);
    }

    /// The paths asked for, in order.
    pub fn requested(&self) -> Vec<String> {
        self.inner.requests.lock().unwrap().iter().map(|(_, p)| p.clone()).collect()
    }

    /// The most requests that arrived within any one second.
    pub fn busiest_second(&self) -> usize {
        let times: Vec<Instant> = self.inner.requests.lock().unwrap().iter().map(|(t, _)| *t).collect();
        times
            .iter()
            .map(|t| times.iter().filter(|u| **u >= *t && **u < *t + Duration::from_secs(1)).count())
            .max()
            .unwrap_or(0)
    }
}

async fn keep_and_refuse(State(inner): State<Arc<Inner>>, request: Request, next: Next) -> Response {
    let path = request.uri().path_and_query().map(|p| p.to_string()).unwrap_or_default();
    inner.requests.lock().unwrap().push((Instant::now(), path));
    let refusing = inner.refuse_until.lock().unwrap().is_some_and(|until| Instant::now() < until);
    if refusing {
        return (StatusCode::TOO_MANY_REQUESTS, "Request Rate Threshold Exceeded").into_response();
    }
    next.run(request).await
}

async fn company_list(State(inner): State<Arc<Inner>>) -> Response {
    let companies = inner.companies.lock().unwrap();
    let entries: Vec<String> = companies
        .iter()
        .filter(|c| c.listed)
        .enumerate()
        .map(|(n, c)| {
            format!(
                "\"{n}\":{{\"cik_str\":{},\"ticker\":\"{}\",\"title\":\"{}\"}}",
                c.cik,
                c.ticker,
                c.conformed_name.replace('"', "")
            )
        })
        .collect();
    ([("content-type", "application/json")], format!("{{{}}}", entries.join(","))).into_response()
}

async fn company_feed(State(inner): State<Arc<Inner>>, Query(query): Query<HashMap<String, String>>) -> Response {
    let cik = query.get("CIK").and_then(|c| c.parse::<u64>().ok()).unwrap_or(0);
    if query.get("action").is_some_and(|a| a == "getcurrent") {
        return current_feed(&inner);
    }
    if inner.broken_feeds.lock().unwrap().contains(&cik) {
        return ([("content-type", "application/atom+xml")], "<?xml version=\"1.0\"?><feed><entry><title>cut")
            .into_response();
    }
    let companies = inner.companies.lock().unwrap();
    let Some(company) = companies.iter().find(|c| c.cik == cik) else {
        let page = "<!DOCTYPE html><html><head><title>EDGAR Search Results</title></head>\
                    <body><h1>No matching CIK.</h1></body></html>";
        return ([("content-type", "text/html")], page).into_response();
    };
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n\
         <company-info><assigned-sic-desc>SERVICES-PREPACKAGED SOFTWARE</assigned-sic-desc><cik>{cik:010}</cik>\
         <conformed-name>{name}</conformed-name><fiscal-year-end>0928</fiscal-year-end>\
         <state-location>CA</state-location></company-info>\n<title>{name}  ({cik:010})</title>\n\
         <updated>2024-11-26T20:13:11-05:00</updated>\n",
        name = company.conformed_name
    );
    for f in &company.filings {
        let index = format!("/Archives/edgar/data/{cik}/{}/{}-index.htm", f.folder(), f.accession);
        let items = if f.form == "8-K" { "<items-desc>items 2.02 and 9.01</items-desc>" } else { "" };
        xml.push_str(&format!(
            "<entry><category label=\"form type\" scheme=\"https://www.sec.gov/\" term=\"{form}\" />\
             <content type=\"text/xml\"><accession-number>{acc}</accession-number><act>34</act>\
             <filing-date>{date}</filing-date><filing-href>{index}</filing-href><filing-type>{form}</filing-type>\
             {items}<form-name>Report</form-name></content><id>urn:tag:sec.gov,2008:accession-number={acc}</id>\
             <link href=\"{index}\" rel=\"alternate\" type=\"text/html\" /><title>{form}  - Report</title>\
             <updated>{date}T06:01:36-04:00</updated></entry>\n",
            form = f.form,
            acc = f.accession,
            date = f.filing_date,
        ));
    }
    xml.push_str("</feed>\n");
    ([("content-type", "application/atom+xml")], xml).into_response()
}

/// The latest-filings feed: what was published since the server started, newest first.
fn current_feed(inner: &Inner) -> Response {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n\
         <title>Latest Filings</title>\n",
    );
    for (cik, name, f) in inner.current.lock().unwrap().iter() {
        xml.push_str(&format!(
            "<entry><title>{form} - {name} ({cik:010}) (Filer)</title>\
             <link rel=\"alternate\" type=\"text/html\" href=\"/Archives/edgar/data/{cik}/{folder}/{acc}-index.htm\"/>\
             <updated>{date}T16:01:58-05:00</updated><id>urn:tag:sec.gov,2008:accession-number={acc}</id></entry>\n",
            form = f.form,
            folder = f.folder(),
            acc = f.accession,
            date = f.filing_date,
        ));
    }
    xml.push_str("</feed>\n");
    ([("content-type", "application/atom+xml")], xml).into_response()
}

fn find(inner: &Inner, cik: u64, folder: &str) -> Option<(FakeCompany, FakeFiling)> {
    let companies = inner.companies.lock().unwrap();
    let company = companies.iter().find(|c| c.cik == cik)?;
    let filing = company.filings.iter().find(|f| f.folder() == folder)?;
    Some((company.clone(), filing.clone()))
}

async fn archive(State(inner): State<Arc<Inner>>, Path((cik, folder, name)): Path<(u64, String, String)>) -> Response {
    let Some((company, f)) = find(&inner, cik, &folder) else {
        return (StatusCode::NOT_FOUND, "Not Found").into_response();
    };
    let html = |body: String| ([("content-type", "text/html")], body).into_response();
    let base = format!("/Archives/edgar/data/{cik}/{folder}");
    match name.as_str() {
        n if n.ends_with("-index.htm") => html(index_page(&company, &f, &base)),
        "primary.htm" if !f.primary_missing && !f.pdf_primary => html(primary_document(&company, &f)),
        "primary.pdf" if !f.primary_missing && f.pdf_primary => {
            let text = format!("{} annual report on Form {}: {}", company.conformed_name, f.form, f.marker);
            ([("content-type", "application/pdf")], crate::pdf::tiny_pdf(&text)).into_response()
        }
        "ex99-1.htm" if f.exhibit => html(format!(
            "<html><body><p>{} announces results for the quarter.</p><p>Exhibit marker ex{}.</p></body></html>",
            company.conformed_name, f.marker
        )),
        _ => (StatusCode::NOT_FOUND, "Not Found").into_response(),
    }
}

fn index_page(company: &FakeCompany, f: &FakeFiling, base: &str) -> String {
    let exhibit = if f.exhibit {
        format!(
            "<tr><td>2</td><td>PRESS RELEASE</td><td><a href=\"{base}/ex99-1.htm\">ex99-1.htm</a></td>\
             <td>EX-99.1</td><td>2000</td></tr>"
        )
    } else {
        String::new()
    };
    let primary = if f.pdf_primary { "primary.pdf" } else { "primary.htm" };
    let viewer = if f.pdf_primary { String::new() } else { "/ix?doc=".to_string() };
    format!(
        "<html><body><div id=\"formDiv\"><div id=\"formHeader\"><div id=\"formName\"><strong>Form {form}</strong> - Report:</div>\
         <div id=\"secNum\"><strong>SEC Accession No.</strong> {acc}</div></div><div class=\"formContent\">\
         <div class=\"formGrouping\"><div class=\"infoHead\">Filing Date</div><div class=\"info\">{date}</div>\
         <div class=\"infoHead\">Accepted</div><div class=\"info\">{date} 06:01:36</div></div>\
         <div class=\"formGrouping\"><div class=\"infoHead\">Period of Report</div><div class=\"info\">{period}</div></div></div>\
         <table class=\"tableFile\" summary=\"Document Format Files\">\
         <tr><th scope=\"col\">Seq</th><th scope=\"col\">Description</th><th scope=\"col\">Document</th>\
         <th scope=\"col\">Type</th><th scope=\"col\">Size</th></tr>\
         <tr><td scope=\"row\">1</td><td scope=\"row\">{form}</td><td scope=\"row\">\
         <a href=\"{viewer}{base}/{primary}\">{primary}</a></td>\
         <td scope=\"row\">{form}</td><td scope=\"row\">4000</td></tr>{exhibit}</table></div>\
         <div id=\"filerDiv\"><div class=\"companyInfo\"><span class=\"companyName\">{name} (Filer) CIK: \
         <a href=\"#\">{cik:010} (see all company filings)</a></span></div></div></body></html>",
        form = f.form,
        acc = f.accession,
        date = f.filing_date,
        period = f.period,
        name = company.conformed_name,
        cik = company.cik,
    )
}

fn primary_document(company: &FakeCompany, f: &FakeFiling) -> String {
    let statements = match f.revenue {
        Some((now, before)) => format!(
            "<div style=\"display:none\"><ix:header><ix:resources>\
             <xbrli:context id=\"c-1\"><xbrli:entity><xbrli:identifier scheme=\"http://www.sec.gov/CIK\">{cik:010}</xbrli:identifier></xbrli:entity>\
             <xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>\
             <xbrli:context id=\"c-2\"><xbrli:entity><xbrli:identifier scheme=\"http://www.sec.gov/CIK\">{cik:010}</xbrli:identifier></xbrli:entity>\
             <xbrli:period><xbrli:startDate>2022-09-25</xbrli:startDate><xbrli:endDate>2023-09-30</xbrli:endDate></xbrli:period></xbrli:context>\
             <xbrli:unit id=\"usd\"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>\
             </ix:resources></ix:header></div>\
             <hr style=\"page-break-after:always\"/><p>CONSOLIDATED STATEMENTS OF OPERATIONS</p><table>\
             <tr><td>Net sales</td><td><ix:nonFraction name=\"us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax\" \
             contextRef=\"c-1\" unitRef=\"usd\" decimals=\"-6\" scale=\"6\">{now}</ix:nonFraction></td>\
             <td><ix:nonFraction name=\"us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax\" contextRef=\"c-2\" \
             unitRef=\"usd\" decimals=\"-6\" scale=\"6\">{before}</ix:nonFraction></td></tr></table>",
            cik = company.cik
        ),
        None => String::new(),
    };
    format!(
        "<html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:ix=\"http://www.xbrl.org/2013/inlineXBRL\" \
         xmlns:xbrli=\"http://www.xbrl.org/2003/instance\"><head><title>{acc}</title></head><body>\
         <p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM {form}</p><p>{name}</p>\
         <p>This report discusses {marker} among the company's results for the period ended {period}.</p>\
         {statements}</body></html>",
        acc = f.accession,
        form = f.form,
        name = company.conformed_name,
        marker = f.marker,
        period = f.period,
    )
}
