//! A round-robin TCP proxy in front of several nodes, as a load balancer spreads connections:
//! each new connection goes to the next node in turn, and bytes are copied both ways untouched
//! (HTTP and the live socket alike).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A running proxy: its address, and how many connections each node was given.
pub struct RoundRobin {
    pub addr: SocketAddr,
    given: Arc<Vec<AtomicUsize>>,
}

impl RoundRobin {
    /// Starts a proxy on 127.0.0.1 that hands connections to `nodes` in turn.
    pub async fn start(nodes: Vec<SocketAddr>) -> RoundRobin {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let given: Arc<Vec<AtomicUsize>> = Arc::new(nodes.iter().map(|_| AtomicUsize::new(0)).collect());
        let counts = given.clone();
        tokio::spawn(async move {
            let next = AtomicUsize::new(0);
            while let Ok((mut inbound, _)) = listener.accept().await {
                let i = next.fetch_add(1, Ordering::Relaxed) % nodes.len();
                counts[i].fetch_add(1, Ordering::Relaxed);
                let node = nodes[i];
                tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(node).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        RoundRobin { addr, given }
    }

    /// How many connections each node was given, in the order the nodes were named.
    pub fn given(&self) -> Vec<usize> {
        self.given.iter().map(|n| n.load(Ordering::Relaxed)).collect()
    }

    /// A client of the proxy that opens a new connection for every request, so that successive
    /// requests land on successive nodes.
    pub fn api(&self) -> super::Api {
        let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
        super::Api { client, addr: self.addr }
    }
}
