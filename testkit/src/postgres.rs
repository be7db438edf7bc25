//! A Postgres cluster of the caller's own (initdb in a temporary folder, on a free port), for
//! what must not touch the machine's shared one: stopping and starting it under running nodes.
//! Run as root, the cluster belongs to the `postgres` user (Postgres refuses to run as root).

use std::path::PathBuf;
use std::process::Command;

/// A running cluster; stopped at once (`-m immediate`) and removed when dropped.
pub struct OwnPostgres {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
}

impl OwnPostgres {
    /// Creates and starts a cluster, or `None` where Postgres's server programs (initdb,
    /// pg_ctl) are not installed.
    pub fn start() -> Option<OwnPostgres> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path().join("bin"))
            .find(|bin| bin.join("initdb").exists())?;
        let dir = tempfile::tempdir().unwrap();
        if is_root() {
            let status = Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().unwrap();
            assert!(status.success(), "the cluster's folder is handed to the postgres user");
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let pg = OwnPostgres { bin, dir, port };
        pg.run("initdb", &["-D", &pg.data(), "-A", "trust", "-U", "postgres", "--no-sync"]);
        pg.ctl("start");
        Some(pg)
    }

    /// The URL to connect to it with (user `postgres`, database `postgres`).
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Stops the cluster (fast shutdown: connections are closed), waiting until it is down.
    pub fn stop(&self) {
        self.ctl("stop");
    }

    /// Starts the cluster again, waiting until it takes connections.
    pub fn start_again(&self) {
        self.ctl("start");
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn ctl(&self, action: &str) {
        let options =
            format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off", self.port, self.dir.path().display());
        let log = self.dir.path().join("server.log").display().to_string();
        self.run("pg_ctl", &["-D", &self.data(), "-o", &options, "-l", &log, "-w", "-m", "fast", action]);
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let out = self.command(program).args(args).current_dir(self.dir.path()).output().unwrap();
        assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let _ = self.command("pg_ctl").args(["-D", &self.data(), "-m", "immediate", "stop"]).output();
    }
}

/// Whether this process runs as root.
pub fn is_root() -> bool {
    // The effective user id, as the kernel reports it for this process.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(2) == Some("0")))
        .unwrap_or(false)
}
