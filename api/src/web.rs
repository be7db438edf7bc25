//! The built web app and the headers every answer carries.
//!
//! Files of `--web-dir` are served as they are. Any other address outside `/api` gets the app's
//! `index.html`, so the app can route it: with 200 when it is one of the app's pages (the list
//! in `web/src/app/app-routes.txt`, which a web test keeps equal to the app's router), else
//! with 404, the app then showing its own page for an unknown address.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// The app's policy: scripts only from the server's own files (no inline script, no eval;
/// WebAssembly for pdf.js's image decoders), inline styles (React style props), images from
/// anywhere a feed points (and pdf.js's data and blob URLs), the live socket, no plugins, and
/// no framing by any page.
pub const APP_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https: http:; \
    font-src 'self' data: blob:; connect-src 'self' ws: wss:; worker-src 'self' blob:; \
    object-src 'none'; frame-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// API answers are data, never a page: nothing may load or frame them.
pub const API_CSP: &str = "default-src 'none'; frame-ancestors 'none'; sandbox";

/// A user's file: shown, if at all, as an inert document of an opaque origin (no script, no
/// forms, no reach into the app), and never framed by another site.
pub const USER_FILE_CSP: &str = "sandbox; default-src 'none'; img-src 'self' data:; \
    style-src 'unsafe-inline'; frame-ancestors 'none'";

/// Adds the security headers to every answer that does not set its own.
pub fn security_headers(router: Router) -> Router {
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(APP_CSP),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        // Shared links carry their key in the address: it must not reach other sites.
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("same-origin")))
        // For browsers that predate `frame-ancestors`.
        .layer(SetResponseHeaderLayer::if_not_present(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
}

/// The API's stricter policy, set before the app-wide one.
pub fn api_headers<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    router.layer(SetResponseHeaderLayer::if_not_present(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(API_CSP),
    ))
}

/// The router that serves the web app from `dir`, or `None` when it is not built there.
pub fn app<S: Clone + Send + Sync + 'static>(dir: &Path) -> Option<Router<S>> {
    if !dir.join("index.html").exists() {
        return None;
    }
    let dir = dir.to_path_buf();
    Some(Router::new().fallback(move |request: Request| serve(dir.clone(), request)))
}

async fn serve(dir: PathBuf, request: Request) -> Response {
    let path = request.uri().path().to_string();
    let method = request.method().clone();
    let index = dir.join("index.html");
    let file = match ServeDir::new(&dir).oneshot(request.map(|_| axum::body::Body::empty())).await {
        Ok(found) if found.status() != StatusCode::NOT_FOUND => return found.into_response(),
        Ok(_) => {
            let mut request = Request::new(axum::body::Body::empty());
            *request.method_mut() = method;
            ServeFile::new(index).oneshot(request).await
        }
        Err(never) => match never {},
    };
    let mut response = match file {
        Ok(response) => response.into_response(),
        Err(never) => match never {},
    };
    if response.status().is_success() && !is_app_route(&path) {
        *response.status_mut() = StatusCode::NOT_FOUND;
    }
    response
}

/// The app's page patterns, read at build time from the web app's list.
static ROUTES: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| {
    include_str!("../../web/src/app/app-routes.txt")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|pattern| segments(pattern).map(str::to_string).collect())
        .collect()
});

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|s| !s.is_empty())
}

/// Returns whether `path` is one of the app's pages, matched as React Router does: letters in
/// any case, `:name` one segment, a trailing `*` any rest, a trailing slash ignored.
pub fn is_app_route(path: &str) -> bool {
    let asked: Vec<&str> = segments(path).collect();
    ROUTES.iter().any(|pattern| matches(pattern, &asked))
}

fn matches(pattern: &[String], asked: &[&str]) -> bool {
    let mut at = 0;
    for (i, part) in pattern.iter().enumerate() {
        if part == "*" && i == pattern.len() - 1 {
            return true;
        }
        let Some(segment) = asked.get(at) else { return false };
        if !part.starts_with(':') && !part.eq_ignore_ascii_case(segment) {
            return false;
        }
        at += 1;
    }
    at == asked.len()
}

/// Headers of a user's file: shown inline only when it is a kind the preview shows and a
/// browser renders inertly (PDF, raster images, plain text); anything else (HTML, SVG, XML,
/// scripts) is an attachment. Always sandboxed and never sniffed.
pub fn user_file_headers(mime: &str, name: &str) -> [(HeaderName, String); 4] {
    let essence = mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let inline = matches!(
        essence.as_str(),
        "application/pdf" | "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "text/plain"
    );
    let disposition = if inline { "inline" } else { "attachment" };
    // The name goes into a quoted header value: keep it to safe characters.
    let name: String =
        name.chars().map(|c| if c.is_ascii_graphic() && c != '"' && c != '\\' { c } else { '_' }).collect();
    [
        (header::CONTENT_TYPE, if essence.is_empty() { "application/octet-stream".into() } else { mime.to_string() }),
        (header::CONTENT_DISPOSITION, format!("{disposition}; filename=\"{name}\"")),
        (header::CONTENT_SECURITY_POLICY, USER_FILE_CSP.to_string()),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
    ]
}

/// Headers of a file Needl wrote itself (an exported report, a summary, a table download): its
/// type, its name as written (`filename*`) with an ASCII fallback, never sniffed nor cached.
pub fn generated_file_headers(mime: &str, file_name: &str, inline: bool) -> [(HeaderName, String); 4] {
    let ascii: String = file_name
        .chars()
        .map(|c| if (c.is_ascii_graphic() && c != '"' && c != '\\') || c == ' ' { c } else { '_' })
        .collect();
    let encoded: String = url::form_urlencoded::byte_serialize(file_name.as_bytes()).collect();
    let disposition = if inline { "inline" } else { "attachment" };
    [
        (header::CONTENT_TYPE, mime.to_string()),
        (
            header::CONTENT_DISPOSITION,
            format!("{disposition}; filename=\"{ascii}\"; filename*=UTF-8''{}", encoded.replace('+', "%20")),
        ),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
        (header::CACHE_CONTROL, "no-store".to_string()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_pages_match_as_the_router_matches_them() {
        for known in [
            "/",
            "/notifications",
            "/notifications/",
            "/Auth/SignIn",
            "/settings/channels/create%20group/members",
            "/preview/needl_rss/abc",
            "/needlbox/bookmarks/anything/deeper",
            "/needlbox/bookmarks",
        ] {
            assert!(is_app_route(known), "{known}");
        }
        for unknown in
            ["/no/such/page", "/notifications/extra", "/preview/needl_rss", "/favicon.ico", "/settings/x/y/z/w"]
        {
            assert!(!is_app_route(unknown), "{unknown}");
        }
    }

    #[test]
    fn active_files_are_attachments_and_every_file_is_sandboxed() {
        let header = |mime: &str, name: &header::HeaderName| {
            user_file_headers(mime, "x").into_iter().find(|(n, _)| n == name).unwrap().1
        };
        for active in ["text/html", "image/svg+xml", "application/xml", "text/xml; charset=utf-8", "TEXT/HTML", ""] {
            assert!(header(active, &header::CONTENT_DISPOSITION).starts_with("attachment"), "{active}");
        }
        for shown in ["application/pdf", "image/png", "text/plain; charset=utf-8"] {
            assert!(header(shown, &header::CONTENT_DISPOSITION).starts_with("inline"), "{shown}");
        }
        assert!(header("application/pdf", &header::CONTENT_SECURITY_POLICY).starts_with("sandbox"));
        let named = user_file_headers("text/html", "a \"b\".html");
        assert_eq!(named[1].1, "attachment; filename=\"a__b_.html\"");
    }
}
