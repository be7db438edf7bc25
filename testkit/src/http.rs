//! A minimal HTTP/1.1 side for tests' stand-ins of outside services (a chat-completions model
//! server): read one request's body off a socket, and frame replies, whole or as chunked
//! server-sent events.

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// The head of a streamed (chunked) server-sent-events reply.
pub const SSE_HEAD: &str =
    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";

/// Reads one request off `socket` (its head, then as many body bytes as its content-length
/// says) and returns the body; empty when the peer closes first.
pub async fn read_request(socket: &mut TcpStream) -> String {
    let mut buf = Vec::new();
    let mut tmp = [0u8; 8192];
    loop {
        let n = socket.read(&mut tmp).await.unwrap_or(0);
        if n == 0 {
            return String::new();
        }
        buf.extend_from_slice(&tmp[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().parse().unwrap_or(0)))
                .unwrap_or(0);
            while buf.len() < end + 4 + length {
                let n = socket.read(&mut tmp).await.unwrap_or(0);
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&tmp[..n]);
            }
            return String::from_utf8_lossy(&buf[end + 4..]).into_owned();
        }
    }
}

/// A whole reply with `status` (code and reason) and a JSON `body`; the connection closes after.
pub fn json_reply(status: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// `text` as one chunk of a chunked body.
pub fn chunk(text: &str) -> String {
    format!("{:x}\r\n{text}\r\n", text.len())
}
