//! The HTTP edge: accepts connections and hands them to hyper with limits a slow or hostile
//! client cannot outwait, before any request reaches the router.
//!
//! - the first request's head must arrive within the header timeout (this covers the bytes hyper
//!   reads to tell HTTP/1 from HTTP/2, which its own HTTP/1 timer does not), and on HTTP/1 each
//!   later head too, counted from the previous answer, so an idle keep-alive ends as well;
//! - a request head is at most `--max-header-bytes` (hyper answers 431 beyond it);
//! - a request body must keep to a minimum average rate after a head start ([`MinRateBody`]);
//! - one client address holds at most `--max-connections-per-address` connections.
//!
//! Every request carries the peer address as axum's `ConnectInfo<SocketAddr>` extension, as
//! `axum::serve` with `into_make_service_with_connect_info` would.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, HttpBody};
use axum::extract::{ConnectInfo, Request};
use axum::Router;
use bytes::Bytes;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use crate::config::ServeArgs;

/// The edge's limits, read from the command line.
#[derive(Debug, Clone)]
pub struct EdgeLimits {
    pub header_timeout: Duration,
    pub max_header_bytes: usize,
    pub body: BodyRate,
    /// 0: no cap.
    pub max_connections_per_address: usize,
}

impl EdgeLimits {
    pub fn from_config(config: &ServeArgs) -> Self {
        EdgeLimits {
            header_timeout: Duration::from_secs(config.header_timeout_seconds.max(1)),
            max_header_bytes: config.max_header_bytes,
            body: BodyRate {
                grace: Duration::from_secs(config.body_timeout_seconds.max(1)),
                min_bytes_per_second: config.body_min_bytes_per_second.max(1),
            },
            max_connections_per_address: config.max_connections_per_address,
        }
    }
}

/// hyper refuses a read buffer smaller than this; the head limit cannot go lower.
const MIN_HEADER_BYTES: usize = 8192;

/// Serves `app` on `listener` until `shutdown` turns true, then lets open requests finish and
/// returns when every connection has closed.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: EdgeLimits,
    mut shutdown: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(limits.max_header_bytes.max(MIN_HEADER_BYTES));
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(u32::try_from(limits.max_header_bytes).unwrap_or(u32::MAX))
        .keep_alive_interval(Some(limits.header_timeout))
        .keep_alive_timeout(limits.header_timeout);
    let builder = Arc::new(builder);
    let per_address = PerAddress::new(limits.max_connections_per_address);
    let bursts = Arc::new(Bursts::default());
    // Each connection task holds a receiver; when all are gone, every connection has closed.
    let (open_tx, open_rx) = watch::channel(());
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of descriptors and the like: wait a little rather than spin.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stopped(&mut shutdown) => break,
        };
        let Some(slot) = per_address.admit(peer.ip()) else {
            tracing::debug!(%peer, "connection refused: too many from this address");
            continue;
        };
        let burst = bursts.opened();
        // Small writes (server-sent events, live messages, short JSON answers) go out at once:
        // with Nagle's algorithm on, a kept-alive connection held each ~40 ms for the client's
        // delayed ACK (AskNeedl's first event took 47 ms on a reused connection, 8 ms on a new one).
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "TCP_NODELAY not set");
        }
        let builder = builder.clone();
        let app = app.clone();
        let body_rate = limits.body.clone();
        let header_timeout = limits.header_timeout;
        let mut shutdown = shutdown.clone();
        let open = open_rx.clone();
        tokio::spawn(async move {
            let started = Arc::new(AtomicBool::new(false));
            let service = {
                let started = started.clone();
                hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                    started.store(true, Ordering::Relaxed);
                    let mut request: Request = request.map(|body| Body::new(MinRateBody::new(body, body_rate.clone())));
                    request.extensions_mut().insert(ConnectInfo(peer));
                    app.clone().oneshot(request)
                })
            };
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
            tokio::pin!(connection);
            let first_head = tokio::time::sleep(header_timeout);
            tokio::pin!(first_head);
            let mut waiting_for_first = true;
            let mut stopping = false;
            loop {
                tokio::select! {
                    result = connection.as_mut() => {
                        if let Err(error) = result {
                            tracing::debug!(%peer, error = %error, "connection ended with an error");
                        }
                        break;
                    }
                    _ = &mut first_head, if waiting_for_first => {
                        if !started.load(Ordering::Relaxed) {
                            tracing::debug!(%peer, "connection closed: no request head within the header timeout");
                            break;
                        }
                        waiting_for_first = false;
                    }
                    _ = stopped(&mut shutdown), if !stopping => {
                        stopping = true;
                        connection.as_mut().graceful_shutdown();
                    }
                }
            }
            drop(slot);
            drop(burst);
            drop(open);
        });
    }
    drop(listener);
    drop(open_rx);
    open_tx.closed().await;
    Ok(())
}

/// Resolves when `shutdown` turns true (or its sender is gone).
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// The number of open connections at which a later fall to an eighth of it counts as the end of
/// a burst.
const BURST: usize = 512;

/// Counts open connections, so that memory freed when a burst of them ends (e.g. thousands of
/// slow clients let go at the header timeout) goes back to the system. glibc's allocator keeps
/// freed memory of its thread arenas for reuse; `malloc_trim` returns the whole free pages.
#[derive(Default)]
struct Bursts {
    open: AtomicUsize,
    peak: AtomicUsize,
}

impl Bursts {
    fn opened(self: &Arc<Self>) -> Counted {
        let open = self.open.fetch_add(1, Ordering::Relaxed) + 1;
        self.peak.fetch_max(open, Ordering::Relaxed);
        Counted(self.clone())
    }
}

/// One open connection, counted until dropped.
struct Counted(Arc<Bursts>);

impl Drop for Counted {
    fn drop(&mut self) {
        let open = self.0.open.fetch_sub(1, Ordering::Relaxed) - 1;
        let peak = self.0.peak.load(Ordering::Relaxed);
        if peak >= BURST
            && open <= peak / 8
            && self.0.peak.compare_exchange(peak, open, Ordering::Relaxed, Ordering::Relaxed).is_ok()
        {
            tracing::debug!(peak, open, "a burst of connections ended; returning freed memory");
            #[cfg(all(target_os = "linux", target_env = "gnu"))]
            tokio::task::spawn_blocking(|| {
                // SAFETY: malloc_trim only releases free memory held by the allocator.
                unsafe { libc::malloc_trim(0) };
            });
        }
    }
}

/// Counts open connections per client address.
#[derive(Clone)]
struct PerAddress {
    cap: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl PerAddress {
    fn new(cap: usize) -> Self {
        PerAddress { cap, open: Arc::default() }
    }

    /// Returns a slot for a new connection from `ip`, or `None` when it holds the cap already.
    fn admit(&self, ip: IpAddr) -> Option<Slot> {
        if self.cap == 0 {
            return Some(Slot { owner: None, ip });
        }
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(Slot { owner: Some(self.clone()), ip })
    }
}

/// One admitted connection; dropping it frees the place.
struct Slot {
    owner: Option<PerAddress>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(owner) = &self.owner {
            let mut open = owner.open.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(count) = open.get_mut(&self.ip) {
                *count -= 1;
                if *count == 0 {
                    open.remove(&self.ip);
                }
            }
        }
    }
}

/// How slowly a request body may arrive.
#[derive(Debug, Clone)]
pub struct BodyRate {
    /// The longest stall between two pieces of a body, and the head start before the average
    /// rate counts.
    pub grace: Duration,
    pub min_bytes_per_second: u64,
}

impl BodyRate {
    /// When a body that started at `started` and has `received` bytes so far, the last at
    /// `last`, is too slow: the earlier of a stall and falling under the average rate.
    fn deadline(&self, started: Instant, last: Instant, received: u64) -> Instant {
        let earned = Duration::from_secs_f64(received as f64 / self.min_bytes_per_second as f64);
        (started + self.grace + earned).min(last + self.grace)
    }
}

/// The error a body gives when it arrives too slowly.
#[derive(Debug)]
pub struct BodyTooSlow;

impl std::fmt::Display for BodyTooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body arrived too slowly")
    }
}

impl std::error::Error for BodyTooSlow {}

/// Returns whether `error` or one of its sources is [`BodyTooSlow`].
pub fn is_body_too_slow(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(error) = next {
        if error.is::<BodyTooSlow>() {
            return true;
        }
        next = error.source();
    }
    false
}

/// A request body that fails with [`BodyTooSlow`] when it stalls for longer than the grace or
/// falls under the minimum average rate after it. Unlike a fixed deadline, a long upload at a
/// fair rate is never cut; unlike a per-piece timeout, a body trickled a byte at a time is.
/// The clock starts at the first read, so a handler that never reads the body costs nothing.
pub struct MinRateBody<B> {
    inner: B,
    rate: BodyRate,
    started: Option<Instant>,
    last: Instant,
    received: u64,
    timer: Pin<Box<Sleep>>,
}

impl<B> MinRateBody<B> {
    pub fn new(inner: B, rate: BodyRate) -> Self {
        let now = Instant::now();
        MinRateBody {
            inner,
            timer: Box::pin(tokio::time::sleep_until(now + rate.grace)),
            rate,
            started: None,
            last: now,
            received: 0,
        }
    }
}

impl<B> HttpBody for MinRateBody<B>
where
    B: HttpBody<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        if this.started.is_none() {
            let now = Instant::now();
            this.started = Some(now);
            this.last = now;
            this.timer.as_mut().reset(this.rate.deadline(now, now, 0));
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    this.last = Instant::now();
                    let started = this.started.unwrap_or(this.last);
                    this.timer.as_mut().reset(this.rate.deadline(started, this.last, this.received));
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match this.timer.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTooSlow)))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate() -> BodyRate {
        BodyRate { grace: Duration::from_secs(10), min_bytes_per_second: 1000 }
    }

    #[test]
    fn a_body_keeping_to_the_rate_earns_time_and_a_stall_ends_it() {
        let start = Instant::now();
        // 5,000 bytes earn 5 s beyond the 10 s head start, but the last piece 2 s in leaves a
        // stall of 10 s as the earlier limit.
        let deadline = rate().deadline(start, start + Duration::from_secs(2), 5_000);
        assert_eq!(deadline, start + Duration::from_secs(12));
        // A steady body 100 s in with 100,000 bytes has 10 s left.
        let deadline = rate().deadline(start, start + Duration::from_secs(100), 100_000);
        assert_eq!(deadline, start + Duration::from_secs(110));
    }

    #[test]
    fn a_trickled_body_runs_out_of_time_soon_after_the_head_start() {
        let start = Instant::now();
        // One byte a second for 10 s: the average rule ends it at 10.01 s although it never
        // stalled.
        let deadline = rate().deadline(start, start + Duration::from_secs(10), 10);
        assert_eq!(deadline, start + Duration::from_millis(10_010));
    }

    #[test]
    fn an_address_holds_at_most_its_cap_and_a_closed_connection_frees_a_place() {
        let limit = PerAddress::new(2);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        let first = limit.admit(ip).unwrap();
        let _second = limit.admit(ip).unwrap();
        assert!(limit.admit(ip).is_none());
        assert!(limit.admit(other).is_some(), "another address is counted apart");
        drop(first);
        assert!(limit.admit(ip).is_some());
        assert!(PerAddress::new(0).admit(ip).is_some(), "0 is no cap");
    }
}
