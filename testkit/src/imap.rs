//! A real IMAP server for tests: Debian's Dovecot (`dovecot-imapd`, which `scripts/setup --test`
//! installs) started in the foreground on a free port of 127.0.0.1, with its own configuration,
//! accounts and maildirs in a temporary directory. Plain IMAP on loopback, passwords from a file.
//! Where Dovecot is not installed, [`Dovecot::start`] returns `None` and the test skips with a
//! message; under `CI=true` it fails instead.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running Dovecot; stopped when dropped.
pub struct Dovecot {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

/// Dovecot's master program.
const DOVECOT: &str = "/usr/sbin/dovecot";
/// Its local delivery agent.
const DELIVER: &str = "/usr/lib/dovecot/dovecot-lda";

impl Dovecot {
    /// Starts Dovecot with the accounts `users` (name and password) and waits (at most fifteen
    /// seconds) until it accepts connections.
    pub async fn start(users: &[(&str, &str)]) -> Option<Dovecot> {
        if !Path::new(DOVECOT).exists() {
            let why = "Dovecot is not installed (scripts/setup --test installs dovecot-imapd)";
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
            eprintln!("skipped: {why}");
            return None;
        }
        let dir = tempfile::tempdir().expect("a directory for Dovecot");
        let root = dir.path();
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        // Mail is never read as root: as root, the mailboxes belong to the package's `dovecot`
        // user; otherwise to whoever runs the tests.
        let owner = if is_root() { "dovecot".to_string() } else { current_user() };
        let homes = root.join("home");
        std::fs::create_dir_all(&homes).unwrap();
        if is_root() {
            Command::new("chown").args(["-R", &format!("{owner}:{owner}")]).arg(&homes).status().unwrap();
            // The temporary directory itself is private to root; Dovecot's user must pass through.
            Command::new("chmod").arg("755").arg(root).status().unwrap();
        }
        let passwd: String =
            users.iter().map(|(user, password)| format!("{user}:{{PLAIN}}{password}::::::\n")).collect();
        std::fs::write(root.join("users"), passwd).unwrap();
        let config = format!(
            "protocols = imap\n\
             listen = 127.0.0.1\n\
             base_dir = {root}/run\n\
             state_dir = {root}/state\n\
             log_path = {root}/dovecot.log\n\
             ssl = no\n\
             disable_plaintext_auth = no\n\
             auth_mechanisms = plain login\n\
             auth_failure_delay = 0\n\
             first_valid_uid = 1\n\
             default_internal_user = {internal}\n\
             default_login_user = {login}\n\
             mail_location = maildir:~/Maildir\n\
             lda_mailbox_autocreate = yes\n\
             passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u {root}/users\n}}\n\
             userdb {{\n  driver = static\n  args = uid={owner} gid={owner} home={homes}/%u\n}}\n\
             service imap-login {{\n  chroot =\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n  inet_listener imaps {{\n    port = 0\n  }}\n}}\n\
             service anvil {{\n  chroot =\n}}\n\
             service stats {{\n  unix_listener stats-writer {{\n    mode = 0666\n  }}\n}}\n",
            root = root.display(),
            homes = homes.display(),
            internal = if is_root() { "dovecot" } else { owner.as_str() },
            login = if is_root() { "dovenull" } else { owner.as_str() },
        );
        std::fs::write(root.join("dovecot.conf"), config).unwrap();
        let child = Command::new(DOVECOT)
            .arg("-F")
            .arg("-c")
            .arg(root.join("dovecot.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starting dovecot");
        let server = Dovecot { child, port, dir };
        for _ in 0..150 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Some(server);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("dovecot did not start: {}", server.log());
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Dovecot's log so far, for a failing test's message.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("dovecot.log")).unwrap_or_default()
    }

    /// Delivers `message` (RFC 5322 bytes) into `user`'s `folder` (created when missing) through
    /// Dovecot's own delivery agent, as a mail server hands mail over.
    pub fn deliver(&self, user: &str, folder: &str, message: &[u8]) {
        use std::io::Write;
        let mut lda = Command::new(DELIVER)
            .arg("-c")
            .arg(self.dir.path().join("dovecot.conf"))
            .args(["-d", user, "-m", folder])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting dovecot-lda");
        lda.stdin.take().unwrap().write_all(message).unwrap();
        let out = lda.wait_with_output().unwrap();
        assert!(out.status.success(), "dovecot-lda: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Where `user`'s mail is kept.
    pub fn maildir(&self, user: &str) -> PathBuf {
        self.dir.path().join("home").join(user).join("Maildir")
    }
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

fn current_user() -> String {
    Command::new("id").arg("-un").output().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap()
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        // SIGTERM lets the master stop its processes; it is waited for, briefly.
        let _ = Command::new("kill").arg(self.child.id().to_string()).status();
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
