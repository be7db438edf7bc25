use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use axum::Router;
use ingest::{FetchPolicy, Fetcher};

/// Returns the shared real-world data folder, or prints why a test is skipped.
pub fn shared_data() -> Option<PathBuf> {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data"));
    if path.is_dir() {
        Some(path.to_path_buf())
    } else {
        eprintln!("skipped: ../shared/data not found");
        None
    }
}

/// Returns the files of a folder, sorted, or an empty list when it does not exist.
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file() && !p.ends_with("SOURCES.md")).collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Serves `router` on `ip`:0 and returns the bound address.
pub async fn serve_on(ip: &str, router: Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind((ip, 0)).await.expect("bind a local port");
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, router).await.ok();
    });
    addr
}

pub async fn serve(router: Router) -> SocketAddr {
    serve_on("127.0.0.1", router).await
}

/// A policy that lets the fetcher reach the test servers on 127.0.0.1 only.
pub fn local_policy() -> FetchPolicy {
    FetchPolicy { allow: vec!["127.0.0.1/32".parse().unwrap()], ..FetchPolicy::default() }
}

pub fn local_fetcher() -> Fetcher {
    Fetcher::new(local_policy()).unwrap()
}

pub fn url(addr: SocketAddr, path: &str) -> url::Url {
    url::Url::parse(&format!("http://{addr}{path}")).unwrap()
}
