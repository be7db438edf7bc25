//! Configuration: one clap struct per command, every field both a `--flag` and an environment
//! variable.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "needl", version, about = "Needl research workspace")]
pub struct Cli {
    #[command(flatten)]
    pub storage: StorageArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Args)]
pub struct StorageArgs {
    /// Directory for the embedded database, uploads and the search index.
    #[arg(long, env = "NEEDL_DATA_DIR", default_value = "./data", global = true)]
    pub data_dir: PathBuf,
    /// A postgres:// URL to keep the event store and read models in Postgres instead of SQLite.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the server: the API, the live socket and the web app.
    Serve(Box<ServeArgs>),
    /// Reset read models and replay the event store into them.
    Rebuild {
        /// The read model to rebuild (see `needl rebuild --all` for every one).
        name: Option<String>,
        /// Rebuild every read model.
        #[arg(long, conflicts_with = "name")]
        all: bool,
        /// Where extracted text is kept (the search index is rebuilt from it): `local` or
        /// `s3://BUCKET`, as the server's `--storage`.
        #[arg(long, env = "NEEDL_STORAGE", default_value = "local")]
        storage: String,
    },
    /// Per-user feature flags.
    #[command(subcommand)]
    Flags(FlagsCommand),
    /// Roles beyond plain member (admin, auditor).
    #[command(subcommand)]
    Roles(RolesCommand),
    /// The event log for analytics.
    #[command(subcommand)]
    Events(EventsCommand),
    /// The history as auditors read it, printed as JSON; its tamper evidence: verify the hash
    /// chain, take signed checkpoints.
    #[command(subcommand)]
    Audit(AuditCommand),
    /// Import local files and folders into a user's drive (PDF, DOCX, XLSX, PPTX, TXT, MD,
    /// HTML), each extracted in its own capped worker process.
    Import {
        /// The owner, by email or id.
        #[arg(long)]
        user: String,
        /// Files or folders (folders are walked; hidden entries skipped).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Where original files are kept: `local` (the data directory) or `s3://BUCKET`.
        #[arg(long, env = "NEEDL_STORAGE", default_value = "local")]
        storage: String,
    },
    /// Fetch SEC EDGAR's list of companies and tickers into the data directory (the server
    /// fetches it once when missing; run this to bring it up to date).
    EdgarCompanies {
        /// Who to contact about this traffic, as the SEC asks ("Research Desk ops@example.com").
        #[arg(long, env = "NEEDL_EDGAR_CONTACT")]
        contact: String,
        /// EDGAR's address.
        #[arg(long, env = "NEEDL_EDGAR_URL", default_value = ingest::edgar::EdgarConfig::DEFAULT_BASE)]
        url: String,
        /// Addresses or networks EDGAR may be reached at although loopback or private (tests).
        #[arg(long, env = "NEEDL_FETCH_ALLOW", value_delimiter = ',')]
        fetch_allow: Vec<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum FlagsCommand {
    /// Set a flag for a user (by email or id) to on or off.
    Set { user: String, flag: String, value: String },
    /// List a user's flags and their stored values.
    List { user: String },
}

#[derive(Debug, Subcommand)]
pub enum RolesCommand {
    /// Grant a role (admin or auditor) to a user given by email or id.
    Grant { user: String, role: String },
    /// Revoke a role from a user.
    Revoke { user: String, role: String },
}

#[derive(Debug, Subcommand)]
pub enum EventsCommand {
    /// Export the global feed: NDJSON to standard output, or Parquet files partitioned by day.
    Export {
        /// Start after this feed cursor (as printed in each line's `cursor`, or by the last
        /// Parquet export).
        #[arg(long)]
        after: Option<String>,
        /// `ndjson` (one event a line, to standard output) or `parquet` (files under `--out`).
        #[arg(long, value_enum, default_value_t = ExportFormat::Ndjson)]
        format: ExportFormat,
        /// The folder Parquet files are written under, as `day=YYYY-MM-DD/part-TX-POS.parquet`.
        #[arg(long, required_if_eq("format", "parquet"))]
        out: Option<PathBuf>,
    },
}

/// How `needl events export` writes events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    Ndjson,
    Parquet,
}

/// A point of the history: a feed cursor or a time, at most one (the head when neither).
#[derive(Debug, Clone, Args)]
pub struct PointArgs {
    /// The history up to and including the event at this feed cursor.
    #[arg(long, conflicts_with = "time")]
    pub at: Option<String>,
    /// The history recorded up to this RFC 3339 time.
    #[arg(long)]
    pub time: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// An aggregate rebuilt from its events up to a point, e.g. `needl audit state channel ID`.
    State {
        /// The aggregate type (`channel`, `document_tags`, `user`, ...).
        aggregate_type: String,
        aggregate_id: String,
        #[command(flatten)]
        point: PointArgs,
    },
    /// A read model as it stood at a point.
    AsOf {
        /// `channel` (members and comments), `document-tags` or `user-sources`.
        #[arg(value_parser = ["channel", "document-tags", "user-sources"])]
        model: String,
        /// The channel's id, the document's deeplink or the user's id.
        id: String,
        #[command(flatten)]
        point: PointArgs,
    },
    /// Recompute the event hash chain and name the first position where it breaks (exit code 3
    /// when it does).
    Verify {
        /// Start after the event at this feed cursor (trusting the history before it).
        #[arg(long)]
        from: Option<String>,
        /// A file of checkpoints kept outside the system (JSON lines, as `needl audit checkpoint`
        /// prints them): each must have a valid signature and match the recomputed history.
        #[arg(long)]
        checkpoints: Option<PathBuf>,
    },
    /// Sign the chain's head as it stands, record the checkpoint, and print it as one JSON line
    /// to keep outside the system.
    Checkpoint {
        /// The signing key (64 hex digits); unset: `audit.key` in the data directory.
        #[arg(long, env = "NEEDL_AUDIT_KEY", hide_env_values = true)]
        audit_key: Option<String>,
    },
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "NEEDL_HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// Directory of the built web app (`web/dist`); when missing, only the API is served.
    #[arg(long, env = "NEEDL_WEB_DIR", default_value = "web/dist")]
    pub web_dir: PathBuf,
    /// Secret that signs ID tokens. Unset: a random one is kept in the data directory.
    #[arg(long, env = "NEEDL_TOKEN_SECRET", hide_env_values = true)]
    pub token_secret: Option<String>,
    /// How long an ID token lives, in minutes; the web app refreshes it well before.
    #[arg(long, env = "NEEDL_TOKEN_TTL_MINUTES", default_value_t = 720)]
    pub token_ttl_minutes: u64,
    /// How long a sign-in lasts, in days: an expired token can be refreshed within it.
    #[arg(long, env = "NEEDL_SESSION_DAYS", default_value_t = 7)]
    pub session_days: u64,
    /// How long a token refresh leaves the old token working, in seconds, so a browser that
    /// reloaded before storing the new token is not signed out (it may refresh the old one again
    /// meanwhile). Sign-out has no grace.
    #[arg(long, env = "NEEDL_SESSION_GRACE_SECONDS", default_value_t = domain::session::ROTATION_GRACE_SECONDS)]
    pub session_grace_seconds: u64,
    /// Extra origins allowed to open the live socket (comma-separated), besides the server's own.
    #[arg(long, env = "NEEDL_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,
    /// Reverse proxies (addresses or networks, comma-separated) whose `X-Forwarded-For` header
    /// names the client, for the sign-in and sign-up throttles. Empty: the TCP peer is the client
    /// and the header is ignored (set this behind a proxy, or every client shares its address).
    #[arg(long, env = "NEEDL_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<String>,
    /// Accounts one client address may create in an hour (all at once after a quiet hour).
    #[arg(long, env = "NEEDL_SIGNUPS_PER_HOUR", default_value_t = 20)]
    pub signups_per_hour: u32,
    /// The organisation's name, shown by /api/organizations/self.
    #[arg(long, env = "NEEDL_ORG_NAME", default_value = "Needl")]
    pub org_name: String,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "NEEDL_MAX_BODY_BYTES", default_value_t = 1024 * 1024)]
    pub max_body_bytes: usize,
    /// How long a client has to send a request's headers, in seconds, counted from the
    /// connection's start or, on a kept-alive connection, from the previous answer (so it also
    /// bounds an idle keep-alive). A connection that has not sent its headers by then is closed.
    #[arg(long, env = "NEEDL_HEADER_TIMEOUT_SECONDS", default_value_t = 20)]
    pub header_timeout_seconds: u64,
    /// Largest request head (request line and headers) accepted, in bytes (at least 8192);
    /// larger heads get 431.
    #[arg(long, env = "NEEDL_MAX_HEADER_BYTES", default_value_t = 32 * 1024)]
    pub max_header_bytes: usize,
    /// How long a request body may stall, in seconds; also the head start a body has before it
    /// must keep to `--body-min-bytes-per-second` on average. A slower body fails (408 for API
    /// calls; an upload is abandoned).
    #[arg(long, env = "NEEDL_BODY_TIMEOUT_SECONDS", default_value_t = 30)]
    pub body_timeout_seconds: u64,
    /// The slowest average rate a request body may arrive at, in bytes per second, after its
    /// head start: a 50 MB upload may take as long as it needs at this rate or faster.
    #[arg(long, env = "NEEDL_BODY_MIN_BYTES_PER_SECOND", default_value_t = 4096)]
    pub body_min_bytes_per_second: u64,
    /// How many connections one client address may hold open at once (0: no cap). Behind a
    /// reverse proxy every connection comes from the proxy: raise it or set 0 there.
    #[arg(long, env = "NEEDL_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    pub max_connections_per_address: usize,
    /// A separate address (e.g. 127.0.0.1:9090) serving `/metrics` to scrapers without a token.
    /// Unset: no separate listener.
    #[arg(long, env = "NEEDL_METRICS_ADDR")]
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// A bearer token that opens `/metrics` on the public address
    /// (`Authorization: Bearer TOKEN`). Unset: the public address does not serve metrics.
    #[arg(long, env = "NEEDL_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Live events queued for each socket; a socket further behind pages from the store instead.
    #[arg(long, env = "NEEDL_LIVE_BUFFER", default_value_t = projections::live::DEFAULT_BUFFER)]
    pub live_buffer: usize,
    /// A TOML or JSON file of public catalogue entries, merged over the built-in ones.
    #[arg(long, env = "NEEDL_CATALOGUE")]
    pub catalogue: Option<PathBuf>,
    /// Fetch followed feeds and websites in the background.
    #[arg(long, env = "NEEDL_FETCH_ENABLED", default_value_t = true, action = clap::ArgAction::Set)]
    pub fetch_enabled: bool,
    /// Generate reports on this node (a node with it off still takes report calls; another node
    /// writes them).
    #[arg(long, env = "NEEDL_REPORT_WORKERS", default_value_t = true, action = clap::ArgAction::Set)]
    pub report_workers: bool,
    /// How often a healthy source is fetched again, in seconds (with jitter).
    #[arg(long, env = "NEEDL_FETCH_INTERVAL_SECONDS", default_value_t = 900)]
    pub fetch_interval_seconds: u64,
    /// How long a node holds an upload it is extracting or a report it is writing without
    /// renewing the lease (it renews every third of this): when a node dies, another node takes
    /// its work after at most this many seconds.
    #[arg(long, env = "NEEDL_JOB_LEASE_SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(3..=3600))]
    pub job_lease_seconds: u64,
    /// How often a connected mailbox or WebDAV folder is read for what is new, in minutes.
    #[arg(long, env = "NEEDL_MAIL_SYNC_MINUTES", default_value_t = 5)]
    pub mail_sync_minutes: u64,
    /// Who to contact about this server's traffic to SEC EDGAR, as the SEC asks of every client
    /// ("Research Desk ops@example.com"). Unset: companies' filings cannot be followed.
    #[arg(long, env = "NEEDL_EDGAR_CONTACT")]
    pub edgar_contact: Option<String>,
    /// EDGAR's address (a mirror, or a local server in tests).
    #[arg(long, env = "NEEDL_EDGAR_URL", default_value = ingest::edgar::EdgarConfig::DEFAULT_BASE)]
    pub edgar_url: String,
    /// How often EDGAR's latest filings are read for followed companies that filed, in seconds
    /// (each such company is then read at once; every company's own feed is also read at the
    /// ordinary fetch interval).
    #[arg(long, env = "NEEDL_EDGAR_POLL_SECONDS", default_value_t = 30)]
    pub edgar_poll_seconds: u64,
    /// Requests a second this node sends EDGAR, all companies together (the SEC allows 10).
    #[arg(long, env = "NEEDL_EDGAR_REQUESTS_PER_SECOND", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=10))]
    pub edgar_requests_per_second: u32,
    /// Addresses or networks sources may be fetched from although they are loopback or private
    /// (comma-separated, e.g. 127.0.0.1 or 10.0.0.0/8). Empty: only public addresses.
    #[arg(long, env = "NEEDL_FETCH_ALLOW", value_delimiter = ',')]
    pub fetch_allow: Vec<String>,
    /// Where uploaded files are kept: `local` (the data directory) or `s3://BUCKET` (an
    /// S3-compatible service, configured by the usual AWS_* variables).
    #[arg(long, env = "NEEDL_STORAGE", default_value = "local")]
    pub storage: String,
    /// How much a user may upload in all, in MiB.
    #[arg(long, env = "NEEDL_STORAGE_QUOTA_MB", default_value_t = 1024)]
    pub storage_quota_mb: u64,
    /// The largest file one upload takes, in MiB.
    #[arg(long, env = "NEEDL_UPLOAD_MAX_MB", default_value_t = 50)]
    pub upload_max_mb: u64,
    /// The program that extracts documents in capped worker processes (`PROGRAM extract-worker`);
    /// unset: this program.
    #[arg(long, env = "NEEDL_EXTRACT_WORKER")]
    pub extract_worker: Option<PathBuf>,
    /// Log as JSON lines (the default) or as human-readable text.
    #[arg(long, env = "NEEDL_LOG_FORMAT", default_value = "json")]
    pub log_format: String,
    /// The base URL of a chat-completions server for AskNeedl answers (OpenAI clients' base URL,
    /// e.g. `http://localhost:11434/v1`). Unset: answers are composed offline from the retrieved
    /// sentences themselves.
    #[arg(long, env = "NEEDL_ASSISTANT_URL")]
    pub assistant_url: Option<String>,
    /// The model the chat-completions server answers with.
    #[arg(long, env = "NEEDL_ASSISTANT_MODEL", default_value = "llama3.1")]
    pub assistant_model: String,
    /// The key sent to the chat-completions server as a bearer token (local servers need none).
    #[arg(long, env = "NEEDL_ASSISTANT_KEY", hide_env_values = true)]
    pub assistant_key: Option<String>,
    /// Folder of the offline sentence-embedding model (all-MiniLM-L6-v2: `model.safetensors`,
    /// `tokenizer.json`, `config.json`), which `scripts/setup` fetches into
    /// `~/.cache/needl/models/all-minilm-l6-v2`. Unset: that folder when it holds the model.
    /// Loaded once at start: documents are embedded as they are indexed and AI feeds' topics
    /// classified by it. Without a model, topics match by the keyword taxonomy. A folder named
    /// here that lacks the model's files is an error at start, not a silent fallback.
    #[arg(long, env = "NEEDL_EMBEDDING_MODEL")]
    pub embedding_model: Option<PathBuf>,
    /// Runs without the embedding model even when one is found (AI feeds' topics by keywords).
    #[arg(long, env = "NEEDL_NO_EMBEDDING_MODEL")]
    pub no_embedding_model: bool,
    /// The SMTP server password reset links are mailed through: `smtp://host:25` (plain, for a
    /// local relay), `smtp://host:587?tls=required` (STARTTLS) or `smtps://host:465` (TLS), with
    /// `user:password@` before the host where the server wants a login. Unset: no mail is sent,
    /// and an administrator issues reset links from the users page instead.
    #[arg(long, env = "NEEDL_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// The sender of the mail Needl sends (`Needl <needl@example.com>` or a bare address).
    #[arg(long, env = "NEEDL_MAIL_FROM", default_value = "Needl <needl@localhost>")]
    pub mail_from: String,
    /// The address people open the web app at (e.g. `https://needl.example.com`); links in mail
    /// start with it. Unset: `http://HOST:PORT` of this server.
    #[arg(long, env = "NEEDL_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// How long a password reset link works, in minutes.
    #[arg(long, env = "NEEDL_RESET_LINK_MINUTES", default_value_t = 60)]
    pub reset_link_minutes: u64,
    /// The Ed25519 key (64 hex digits, a seed) that signs checkpoints of the event hash chain;
    /// give every node of an instance the same one. Unset: `audit.key` in the data directory,
    /// created on first start.
    #[arg(long, env = "NEEDL_AUDIT_KEY", hide_env_values = true)]
    pub audit_key: Option<String>,
    /// A signed checkpoint of the event hash chain is taken every this many events (0: only on
    /// request).
    #[arg(long, env = "NEEDL_AUDIT_CHECKPOINT_EVERY", default_value_t = 10_000)]
    pub audit_checkpoint_every: i64,
    /// The address of the billing provider's customer portal, where users on plans manage their
    /// subscription (shown on the plan page and in pricing prompts). Unset: no billing provider;
    /// administrators assign plans and the page says to ask them.
    #[arg(long, env = "NEEDL_BILLING_PORTAL_URL")]
    pub billing_portal_url: Option<String>,
    /// The organisation's OpenID Connect provider (its issuer URL; discovery is read from
    /// `/.well-known/openid-configuration` under it). Unset: local accounts only. Register this
    /// server's `PUBLIC_URL/api/auth/oidc/callback` as the client's redirect URI.
    #[arg(long, env = "NEEDL_OIDC_ISSUER")]
    pub oidc_issuer: Option<String>,
    /// The client id registered at the provider.
    #[arg(long, env = "NEEDL_OIDC_CLIENT_ID", default_value = "needl")]
    pub oidc_client_id: String,
    /// The client secret registered at the provider (a confidential client; PKCE is used too).
    #[arg(long, env = "NEEDL_OIDC_CLIENT_SECRET", hide_env_values = true)]
    pub oidc_client_secret: Option<String>,
    /// The sign-in button's words: "Sign in with LABEL".
    #[arg(long, env = "NEEDL_OIDC_LABEL", default_value = "your organisation")]
    pub oidc_label: String,
    /// Email domains whose people get an account on their first sign-in through the provider
    /// (comma-separated). Empty: any address the provider has verified. People with an account
    /// already sign in to it whatever its domain.
    #[arg(long, env = "NEEDL_OIDC_DOMAINS", value_delimiter = ',')]
    pub oidc_domains: Vec<String>,
    /// The redirect URI sent to the provider; unset: `PUBLIC_URL/api/auth/oidc/callback`.
    #[arg(long, env = "NEEDL_OIDC_REDIRECT_URL")]
    pub oidc_redirect_url: Option<String>,
}

impl ServeArgs {
    /// What the application layer reads of this configuration.
    pub fn settings(&self) -> service::Settings {
        service::Settings {
            org_name: self.org_name.clone(),
            session_days: self.session_days,
            session_grace: std::time::Duration::from_secs(self.session_grace_seconds),
            storage_quota_mb: self.storage_quota_mb,
            upload_max_mb: self.upload_max_mb,
            public_url: self
                .public_url
                .clone()
                .unwrap_or_else(|| format!("http://{}:{}", self.host, self.port))
                .trim_end_matches('/')
                .to_string(),
            reset_link_minutes: self.reset_link_minutes.max(1),
        }
    }

    /// The identity provider `--oidc-issuer` names, or none.
    pub fn oidc(&self) -> anyhow::Result<Option<std::sync::Arc<service::oidc::Oidc>>> {
        let Some(issuer) = self.oidc_issuer.as_deref().map(str::trim).filter(|i| !i.is_empty()) else {
            return Ok(None);
        };
        let redirect_url = self
            .oidc_redirect_url
            .clone()
            .unwrap_or_else(|| format!("{}/api/auth/oidc/callback", self.settings().public_url));
        let settings = service::oidc::OidcSettings {
            issuer: issuer.to_string(),
            client_id: self.oidc_client_id.clone(),
            client_secret: self.oidc_client_secret.clone().filter(|s| !s.is_empty()),
            redirect_url,
            label: self.oidc_label.clone(),
            domains: self.oidc_domains.iter().map(|d| d.trim().to_lowercase()).filter(|d| !d.is_empty()).collect(),
        };
        let oidc = service::oidc::Oidc::new(settings).map_err(|e| anyhow::anyhow!("--oidc-issuer: {e}"))?;
        Ok(Some(std::sync::Arc::new(oidc)))
    }

    /// The mailer `--smtp-url` names, or none (offline: nothing is mailed).
    pub fn mailer(&self) -> anyhow::Result<Option<std::sync::Arc<dyn service::mail::Mailer>>> {
        match self.smtp_url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
            Some(url) => {
                let mailer: std::sync::Arc<dyn service::mail::Mailer> =
                    std::sync::Arc::new(service::mail::SmtpMailer::new(url, &self.mail_from)?);
                Ok(Some(mailer))
            }
            None => Ok(None),
        }
    }

    /// The embedding model's folder this server loads, if any: the one named, else the setup's
    /// cache folder when it holds the model; none with `--no-embedding-model`.
    pub fn embedding_model_dir(&self) -> anyhow::Result<Option<PathBuf>> {
        if self.no_embedding_model {
            return Ok(None);
        }
        match &self.embedding_model {
            Some(dir) => match embed::locate(Some(dir)) {
                Some(dir) => Ok(Some(dir)),
                None => anyhow::bail!(
                    "--embedding-model {}: the folder lacks one of {}",
                    dir.display(),
                    embed::MODEL_FILES.join(", ")
                ),
            },
            None => Ok(embed::default_model_dir().and_then(|d| embed::locate(Some(&d)))),
        }
    }

    /// Settings for tests and benchmarks: port 0, no web app, a fixed secret, and no grace for
    /// rotated tokens (tests of the grace set one).
    pub fn for_tests() -> Self {
        ServeArgs {
            host: "127.0.0.1".into(),
            port: 0,
            web_dir: PathBuf::from("/nonexistent"),
            token_secret: Some("test-secret-test-secret-test-secret".into()),
            token_ttl_minutes: 60,
            session_days: 7,
            session_grace_seconds: 0,
            allowed_origins: vec![],
            trusted_proxies: vec![],
            // Tests and benchmarks sign many users up from 127.0.0.1; the throttle's test sets it.
            signups_per_hour: 100_000,
            org_name: "Needl".into(),
            max_body_bytes: 64 * 1024,
            header_timeout_seconds: 20,
            max_header_bytes: 32 * 1024,
            body_timeout_seconds: 30,
            body_min_bytes_per_second: 4096,
            max_connections_per_address: 256,
            metrics_addr: None,
            metrics_token: None,
            live_buffer: projections::live::DEFAULT_BUFFER,
            catalogue: None,
            fetch_enabled: false,
            report_workers: true,
            fetch_interval_seconds: 900,
            job_lease_seconds: 30,
            fetch_allow: vec![],
            mail_sync_minutes: 5,
            edgar_contact: None,
            edgar_url: ingest::edgar::EdgarConfig::DEFAULT_BASE.to_string(),
            edgar_poll_seconds: 30,
            edgar_requests_per_second: 10,
            storage: "local".into(),
            storage_quota_mb: 1024,
            upload_max_mb: 50,
            extract_worker: None,
            log_format: "text".into(),
            assistant_url: None,
            assistant_model: "llama3.1".into(),
            assistant_key: None,
            embedding_model: None,
            // Each test server would load 90 MB of weights: the tests of the model name it.
            no_embedding_model: true,
            smtp_url: None,
            mail_from: "Needl <needl@localhost>".into(),
            public_url: None,
            reset_link_minutes: 60,
            audit_key: None,
            audit_checkpoint_every: 0,
            billing_portal_url: None,
            oidc_issuer: None,
            oidc_client_id: "needl".into(),
            oidc_client_secret: None,
            oidc_label: "your organisation".into(),
            oidc_domains: vec![],
            oidc_redirect_url: None,
        }
    }
}

/// Parses a list of IP addresses and networks (`10.0.0.0/8`, `::1`) given to option `option`;
/// blank entries are skipped.
pub fn parse_networks(entries: &[String], option: &str) -> anyhow::Result<Vec<ipnet::IpNet>> {
    use anyhow::Context;
    entries
        .iter()
        .map(|e| e.trim())
        .filter(|e| !e.is_empty())
        .map(|entry| {
            entry
                .parse::<ipnet::IpNet>()
                .or_else(|_| entry.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .with_context(|| format!("{option}: {entry} is not an IP address or network"))
        })
        .collect()
}
