//! The composition root: opens storage, starts the projections and the live hub, builds the
//! router and serves it until the shutdown future resolves.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use commands::feed::FeedSignal;
use commands::{CommandBus, Db};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use projections::live::LiveHub;
use projections::Projections;
use service::clock::{SharedClock, SystemClock};

use tokio::sync::watch;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::auth::TokenKeys;
use crate::config::{ServeArgs, StorageArgs};
use crate::error::AppError;
use crate::routes;
use crate::throttle::AuthThrottle;

/// What every handler can reach: the application layer's context (reached through `Deref`,
/// so `state.db` is the context's) and what only HTTP needs. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub ctx: service::Context,
    pub tokens: Arc<TokenKeys>,
    pub limiter: Arc<AuthThrottle>,
    pub config: Arc<ServeArgs>,
    /// Flips to true when the server shuts down, so live sockets close and let it finish.
    pub shutdown: watch::Receiver<bool>,
}

impl std::ops::Deref for AppState {
    type Target = service::Context;

    fn deref(&self) -> &service::Context {
        &self.ctx
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Needl API", description = "Every call but sign-up and sign-in needs the `token` header."),
    servers((url = "/api")),
    modifiers(&TokenHeader)
)]
struct ApiDoc;

struct TokenHeader;

impl utoipa::Modify for TokenHeader {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("token", SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("token"))));
    }
}

/// The process-wide Prometheus recorder (a process has one global recorder).
pub fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new().build_recorder();
            let handle = recorder.handle();
            let _ = metrics::set_global_recorder(recorder);
            handle
        })
        .clone()
}

/// The API's routes and its OpenAPI document, built from the same declarations.
pub fn api_routes() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(routes::auth::router())
        .merge(routes::oidc::router())
        .merge(routes::passwords::router())
        .merge(routes::platform::router())
        .merge(routes::admin::router())
        .merge(routes::audit::router())
        .merge(routes::audit_chain::router())
        .merge(routes::analytics::router())
        .merge(routes::live::router())
        .merge(routes::sources::router())
        .merge(routes::documents::router())
        .merge(routes::uploads::router())
        .merge(routes::websites::router())
        .merge(routes::library::router())
        .merge(routes::search::router())
        .merge(routes::tags::router())
        .merge(routes::notebooks::router())
        .merge(routes::channels::router())
        .merge(routes::comments::router())
        .merge(routes::people::router())
        .merge(routes::boards::router())
        .merge(routes::notifications::router())
        .merge(routes::ask::router())
        .merge(routes::reports::router())
        .merge(routes::model_server::router())
        .merge(routes::plans::router())
        .merge(routes::portfolios::router())
        .merge(routes::apps::router())
        .merge(routes::edgar::router())
        .merge(routes::summaries::router())
        .merge(routes::whatsapp::router())
        .split_for_parts()
}

pub fn router(state: AppState) -> Router {
    let (api, openapi) = api_routes();
    let openapi = Arc::new(openapi);
    let api = api
        .route(
            "/openapi.json",
            get(move || {
                let doc = openapi.clone();
                async move { Json(doc.as_ref().clone()) }
            }),
        )
        // Where local upload links point: storage, not product API, so not in the OpenAPI
        // document; the link's own size limit replaces the general body limit.
        .route(
            "/storage/{bucket}/{*key}",
            axum::routing::put(routes::uploads::put_object).layer(DefaultBodyLimit::disable()),
        )
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed);
    let web = crate::web::app(&state.config.web_dir).unwrap_or_else(|| Router::new().fallback(web_not_built));
    let app = Router::new()
        .nest("/api", crate::web::api_headers(api))
        .merge(routes::ops::router())
        .merge(web)
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(middleware::from_fn(track_metrics))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(TraceLayer::new_for_http())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(middleware::map_request(drop_unfit_request_id))
        .with_state(state);
    crate::web::security_headers(app)
}

/// The longest client-sent request id kept; a longer one is replaced.
const MAX_REQUEST_ID_LEN: usize = 128;

/// Drops a client's `x-request-id` that is long or holds anything but visible ASCII, so a fresh
/// one is made: the id is echoed in the answer and written to every log line of the request.
async fn drop_unfit_request_id(mut request: Request) -> Request {
    let fit = |v: &axum::http::HeaderValue| {
        let bytes = v.as_bytes();
        !bytes.is_empty() && bytes.len() <= MAX_REQUEST_ID_LEN && bytes.iter().all(|b| b.is_ascii_graphic())
    };
    let headers = request.headers_mut();
    if headers.get_all("x-request-id").iter().count() > 1 || headers.get("x-request-id").is_some_and(|v| !fit(v)) {
        headers.remove("x-request-id");
    }
    request
}

async fn api_not_found() -> AppError {
    AppError::not_found("no such API route")
}

async fn method_not_allowed() -> AppError {
    AppError::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "this route does not take that method")
}

async fn web_not_built() -> AppError {
    AppError::not_found("the web app is not built here; run `npm run build` in web/ or pass --web-dir")
}

async fn track_metrics(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".to_string());
    let method = request.method().to_string();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!("needl_http_request_duration_seconds", "method" => method, "route" => route, "status" => status)
        .record(started.elapsed().as_secs_f64());
    response
}

/// Reads the token secret from config, else from `token.secret` in the data directory, creating
/// it on first start. The data directory is made private first (whichever way the secret comes):
/// it holds this secret and the instance's data.
fn token_secret(config: &ServeArgs, data_dir: &Path) -> anyhow::Result<Vec<u8>> {
    commands::private::secure_data_dir(data_dir)?;
    if let Some(secret) = &config.token_secret {
        anyhow::ensure!(secret.len() >= 32, "NEEDL_TOKEN_SECRET must be at least 32 characters");
        return Ok(secret.as_bytes().to_vec());
    }
    let path = data_dir.join("token.secret");
    if let Ok(secret) = std::fs::read(&path) {
        if secret.len() >= 32 {
            return Ok(secret);
        }
    }
    use rand::Rng;
    let secret: String = rand::rng().sample_iter(rand::distr::Alphanumeric).take(64).map(char::from).collect();
    commands::private::write_file(&path, secret.as_bytes())?;
    Ok(secret.into_bytes())
}

/// The fetcher's limits and the operator's allow-list.
/// EDGAR as the operator set it up; `None` without a contact address (EDGAR is then off).
fn edgar_config(config: &ServeArgs, allow: &[ipnet::IpNet]) -> anyhow::Result<Option<ingest::edgar::EdgarConfig>> {
    let Some(contact) = config.edgar_contact.as_deref().map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let base = url::Url::parse(config.edgar_url.trim())
        .with_context(|| format!("NEEDL_EDGAR_URL {:?} is not a valid address", config.edgar_url))?;
    Ok(Some(ingest::edgar::EdgarConfig {
        base,
        requests_per_second: config.edgar_requests_per_second,
        allow: allow.to_vec(),
        ..ingest::edgar::EdgarConfig::new(contact)
    }))
}

fn fetch_policy(config: &ServeArgs) -> anyhow::Result<ingest::FetchPolicy> {
    let allow = crate::config::parse_networks(&config.fetch_allow, "NEEDL_FETCH_ALLOW")?;
    Ok(ingest::FetchPolicy { allow, ..Default::default() })
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    /// The metrics listener's address, when `--metrics-addr` is set.
    pub metrics_addr: Option<SocketAddr>,
    pub state: AppState,
    shutdown: watch::Sender<bool>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
    metrics_task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    /// The projection runners and the live tailer: stopped with the server so none outlives its
    /// database pool.
    runners: Vec<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// Opens storage, starts projections and the live hub, and starts serving.
    pub async fn start(storage: &StorageArgs, config: ServeArgs) -> anyhow::Result<Server> {
        let db = Db::open(storage.database_url.as_deref(), &storage.data_dir).await?;
        Self::start_with(db, &storage.data_dir, config).await
    }

    /// Starts serving on `db`, with the system clock.
    pub async fn start_with(db: Db, data_dir: &Path, config: ServeArgs) -> anyhow::Result<Server> {
        Self::start_with_clock(db, data_dir, config, SystemClock::shared()).await
    }

    /// Starts serving on `db`, judging token and session expiry by `clock`: tests pass a
    /// [`ManualClock`](service::clock::ManualClock) and advance it instead of waiting.
    pub async fn start_with_clock(
        db: Db,
        data_dir: &Path,
        config: ServeArgs,
        clock: SharedClock,
    ) -> anyhow::Result<Server> {
        let _ = metrics_handle();
        let signal = FeedSignal::default();
        signal.listen_postgres(&db);
        let (projections, mut runners) = Projections::start(&db, &signal, projections::all()).await?;
        let (hub, tailer) = LiveHub::start(db.clone(), projections.clone(), config.live_buffer).await?;
        runners.push(tailer);
        let secret = token_secret(&config, data_dir)?;
        let (shutdown, shutdown_rx) = watch::channel(false);
        let catalogue = Arc::new(match &config.catalogue {
            Some(path) => {
                ingest::Catalogue::load(path).with_context(|| format!("loading the catalogue {}", path.display()))?
            }
            None => ingest::Catalogue::seed(),
        });
        let storage = Arc::new(service::storage::Storage::open(&config.storage, &data_dir.join("objects"), &secret)?);
        let blobs = storage.blobs(data_dir.join("blobs"));
        let (search, indexer, arrivals) =
            service::indexing::start(&db, data_dir, blobs.clone(), catalogue.clone(), &signal, shutdown_rx.clone())?;
        runners.push(indexer);
        let engine = service::ask::EngineConfig {
            url: config.assistant_url.clone(),
            model: config.assistant_model.clone(),
            key: config.assistant_key.clone(),
        };
        let semantic = match config.embedding_model_dir()? {
            Some(dir) => {
                let semantic = service::semantic::Semantic::open(&dir, data_dir).await?;
                tracing::info!(model = %dir.display(), stored = semantic.stored(), "embedding model loaded");
                Some(semantic)
            }
            None => {
                tracing::info!("no embedding model: search ranks by keywords alone, AI feeds' topics match by the keyword taxonomy");
                None
            }
        };
        let similarity = semantic.clone().map(|s| s as Arc<dyn search::Similarity>);
        let assistant = Arc::new(service::model_server::AssistantSlot::new(engine, search.clone(), similarity)?);
        let fetch_policy = fetch_policy(&config)?;
        let filings = Arc::new(service::filings::Filings::new(data_dir, edgar_config(&config, &fetch_policy.allow)?));
        let ctx = service::Context {
            filings,
            fetch_guard: Arc::new(ingest::fetch::AddressGuard::new(fetch_policy.allow.clone())),
            bus: Arc::new(CommandBus::new(db.clone(), signal)),
            db,
            projections,
            hub,
            settings: Arc::new(config.settings()),
            catalogue,
            search,
            storage,
            blobs,
            upload_wake: Arc::new(tokio::sync::Notify::new()),
            report_wake: Arc::new(tokio::sync::Notify::new()),
            apps_wake: Arc::new(tokio::sync::Notify::new()),
            summary_wake: Arc::new(tokio::sync::Notify::new()),
            data_dir: data_dir.to_path_buf(),
            access: Arc::new(service::access::AccessKeys::new(&secret)),
            assistant,
            asks: Arc::default(),
            clock: clock.clone(),
            semantic: semantic.clone(),
            mailer: config.mailer()?,
            oidc: config.oidc()?,
            messenger: Arc::new(service::whatsapp::Outbox),
            billing: Arc::new(service::plans::PortalLink(
                config.billing_portal_url.as_deref().map(str::trim).filter(|u| !u.is_empty()).map(str::to_string),
            )),
            audit: Arc::new(service::audit_chain::AuditChain::new(
                commands::chain::AuditKey::load(data_dir, config.audit_key.as_deref())?,
                config.audit_checkpoint_every,
            )),
        };
        let limiter = Arc::new(AuthThrottle::from_config(ctx.db.clone(), &secret, &config)?);
        let state = AppState {
            ctx,
            tokens: Arc::new(TokenKeys::with_clock(&secret, Duration::from_secs(config.token_ttl_minutes * 60), clock)),
            limiter,
            config: Arc::new(config),
            shutdown: shutdown_rx.clone(),
        };
        let worker = match &state.config.extract_worker {
            Some(program) => program.clone(),
            None => std::env::current_exe().context("finding this program for extraction workers")?,
        };
        let processor = service::uploads::UploadProcessor::new(
            state.db.clone(),
            state.bus.clone(),
            state.storage.clone(),
            data_dir,
            extract::WorkerCommand::new(worker.clone()).arg("extract-worker"),
            state.upload_wake.clone(),
        )
        .with_lease(Duration::from_secs(state.config.job_lease_seconds));
        runners.push(tokio::spawn(Arc::new(processor).run(state.shutdown.clone())));
        let apps = service::apps::AppSync::new(
            state.ctx.clone(),
            extract::WorkerCommand::new(worker.clone()).arg("extract-worker"),
            Duration::from_secs(state.config.mail_sync_minutes.max(1) * 60),
        );
        runners.push(tokio::spawn(Arc::new(apps).run(state.shutdown.clone())));
        let summaries = service::summaries::SummaryWorker::new(state.ctx.clone());
        runners.push(tokio::spawn(Arc::new(summaries).run(state.shutdown.clone())));
        runners.push(tokio::spawn(service::audit_chain::run_checkpoints(state.ctx.clone(), state.shutdown.clone())));
        if state.config.report_workers {
            let reports = service::reports::ReportWorker::new(state.ctx.clone())
                .with_lease(Duration::from_secs(state.config.job_lease_seconds));
            runners.push(tokio::spawn(Arc::new(reports).run(state.shutdown.clone())));
        }
        let matcher =
            service::feeds::alerts::FeedMatcher::open(state.db.clone(), state.bus.clone(), state.clock.clone())
                .await?
                .with_semantic(semantic.clone());
        runners.push(tokio::spawn(matcher.run(arrivals, state.shutdown.clone())));
        if let Some(semantic) = semantic {
            // Documents indexed before the model was configured (or with the store deleted).
            let (db, blobs, shutdown) = (state.db.clone(), state.blobs.clone(), state.shutdown.clone());
            runners.push(tokio::spawn(async move {
                match semantic.backfill(&db, &blobs, shutdown).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(documents = n, "embedded documents stored before the model"),
                    Err(error) => tracing::error!(error = %format!("{error:#}"), "embedding stored documents failed"),
                }
            }));
        }
        if state.config.fetch_enabled {
            let filing_sync = service::filings::sync::FilingSync::new(
                state.db.clone(),
                state.bus.clone(),
                data_dir,
                state.blobs.clone(),
                state.filings.clone(),
                state.catalogue.clone(),
                Arc::new(ingest::Fetcher::new(fetch_policy.clone()).map_err(|e| anyhow::anyhow!("{e}"))?),
                extract::WorkerCommand::new(worker.clone()).arg("extract-worker"),
            );
            let ingestion = service::ingestion::Ingestion::new(
                state.db.clone(),
                state.bus.clone(),
                state.blobs.clone(),
                fetch_policy,
                Duration::from_secs(state.config.fetch_interval_seconds.max(1)),
            )?
            .with_filings(Arc::new(filing_sync));
            runners.push(tokio::spawn(service::filings::watch::run(
                state.db.clone(),
                state.filings.clone(),
                Duration::from_secs(state.config.edgar_poll_seconds.max(1)),
                state.shutdown.clone(),
            )));
            runners.push(tokio::spawn(Arc::new(ingestion).run(state.shutdown.clone())));
        }
        let listener = tokio::net::TcpListener::bind((state.config.host.as_str(), state.config.port))
            .await
            .with_context(|| format!("binding {}:{}", state.config.host, state.config.port))?;
        let addr = listener.local_addr()?;
        let limits = crate::edge::EdgeLimits::from_config(&state.config);
        let metrics = match state.config.metrics_addr {
            Some(at) => {
                let listener = tokio::net::TcpListener::bind(at).await.with_context(|| format!("binding {at}"))?;
                let metrics_addr = listener.local_addr()?;
                let app = routes::ops::metrics_router(state.clone());
                let serving = crate::edge::serve(listener, app, limits.clone(), shutdown_rx.clone());
                tracing::info!(addr = %metrics_addr, "metrics are served");
                Some((metrics_addr, tokio::spawn(async move { serving.await.context("serving metrics") })))
            }
            None => None,
        };
        let app = router(state.clone());
        let serving = crate::edge::serve(listener, app, limits, shutdown_rx);
        let task = tokio::spawn(async move { serving.await.context("serving") });
        let (metrics_addr, metrics_task) = metrics.unzip();
        tracing::info!(%addr, backend = ?state.db.backend(), "needl is listening");
        Ok(Server { addr, metrics_addr, state, shutdown, task, metrics_task, runners })
    }

    /// Stops accepting, closes live sockets, and waits for open requests to finish.
    pub async fn stop(self) -> anyhow::Result<()> {
        let _ = self.shutdown.send(true);
        let served = self.task.await;
        let metrics_served = match self.metrics_task {
            Some(task) => task.await,
            None => Ok(Ok(())),
        };
        for runner in &self.runners {
            runner.abort();
        }
        served??;
        metrics_served??;
        Ok(())
    }
}

/// Serves until Ctrl-C or SIGTERM.
pub async fn serve(storage: StorageArgs, config: ServeArgs) -> anyhow::Result<()> {
    let server = Server::start(&storage, config).await?;
    shutdown_signal().await;
    tracing::info!("shutting down");
    server.stop().await
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

/// How many events each projection is behind the feed's `head` (at least 1 when behind at all).
pub fn projections_behind(state: &AppState, head: commands::Cursor) -> Vec<(&'static str, i64)> {
    let checkpoints = state.projections.checkpoints();
    checkpoints
        .into_iter()
        .map(|(name, at)| (name, if at >= head { 0 } else { head.pos.saturating_sub(at.pos).max(1) }))
        .collect()
}

/// How long the readiness probe waits for the database and the object store each.
const READY_TIMEOUT: Duration = Duration::from_secs(3);

/// Answers the readiness probe: ready (200) when the database and the object store answer within
/// [`READY_TIMEOUT`], else 503; either way a JSON body says what was found, with how far the
/// slowest read model is behind the event feed (reported, not a reason to refuse traffic: a
/// rebuild may take a while and reads stay correct, only late).
pub async fn ready(State(state): State<AppState>) -> Response {
    let (head, stored) = tokio::join!(
        tokio::time::timeout(READY_TIMEOUT, commands::feed::head(&state.db)),
        tokio::time::timeout(READY_TIMEOUT, state.storage.check()),
    );
    // The probe is public: what failed is said in the body, why only in the server's log.
    let timed_out = || format!("no answer within {} s", READY_TIMEOUT.as_secs());
    let database = match head {
        Ok(Ok(head)) => Ok(head),
        Ok(Err(error)) => {
            tracing::warn!(%error, "not ready: the database");
            Err("unavailable (the server's log says why)".to_string())
        }
        Err(_) => Err(timed_out()),
    };
    let storage = match stored {
        Ok(Ok(())) => Ok(()),
        Ok(Err(error)) => {
            tracing::warn!(error = format!("{error:#}"), "not ready: the object store");
            Err("unavailable (the server's log says why)".to_string())
        }
        Err(_) => Err(timed_out()),
    };
    let projections = database.as_ref().ok().map(|head| {
        let slowest = projections_behind(&state, *head).into_iter().max_by_key(|(_, n)| *n);
        serde_json::json!({
            "behind_events": slowest.map_or(0, |(_, n)| n),
            "slowest": slowest.filter(|(_, n)| *n > 0).map(|(name, _)| name),
        })
    });
    let ok = database.is_ok() && storage.is_ok();
    let part = |result: Result<(), &String>| match result {
        Ok(()) => serde_json::json!({ "ok": true }),
        Err(error) => serde_json::json!({ "ok": false, "error": error }),
    };
    let mut storage_part = part(storage.as_ref().copied());
    storage_part["kind"] = state.storage.kind().into();
    let body = serde_json::json!({
        "status": if ok { "ready" } else { "not_ready" },
        "database": part(database.as_ref().map(|_| ())),
        "storage": storage_part,
        "projections": projections,
    });
    let status = if ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(body)).into_response()
}
