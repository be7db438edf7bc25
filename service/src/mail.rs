//! Outgoing mail: the [`Mailer`] interface use cases send through, its SMTP implementation, and
//! the offline default, which is no mailer at all (`Context::mailer` is `None`): then nothing is
//! sent, and an administrator hands out what mail would have carried (reset links).
//!
//! SMTP is lettre's async transport: `smtp://host:port` speaks plain SMTP (a local relay),
//! `smtp://host:port?tls=required` upgrades with STARTTLS, `smtps://host:port` is TLS from the
//! start; user and password go in the URL (`smtp://user:pass@host`). Every exchange is bounded
//! by [`SMTP_TIMEOUT`], so an unreachable server cannot hold a task for long.

use std::time::Duration;

use anyhow::Context as _;
use async_trait::async_trait;
use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// How long one SMTP command may take before the send is given up.
pub const SMTP_TIMEOUT: Duration = Duration::from_secs(15);

/// A plain-text message to one person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// Sends mail. Implementations say plainly when a message could not be handed over.
#[async_trait]
pub trait Mailer: Send + Sync {
    async fn send(&self, mail: Mail) -> anyhow::Result<()>;
}

/// Sends through an SMTP server.
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    /// A mailer for the server at `url` (see the module's note), sending as `from`
    /// (`Needl <needl@example.com>` or a bare address). Nothing is connected until a send.
    pub fn new(url: &str, from: &str) -> anyhow::Result<SmtpMailer> {
        let from: Mailbox = from.parse().with_context(|| format!("--mail-from {from:?} is not an email address"))?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .with_context(|| "--smtp-url is not an smtp:// or smtps:// URL".to_string())?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        Ok(SmtpMailer { transport, from })
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, mail: Mail) -> anyhow::Result<()> {
        let to: Mailbox = mail.to.parse().with_context(|| "the recipient is not an email address".to_string())?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body)
            .context("building the message")?;
        // The transport's own timeout bounds each command; this bounds the whole exchange.
        tokio::time::timeout(SMTP_TIMEOUT * 4, self.transport.send(message))
            .await
            .context("the SMTP server took too long")?
            .context("the SMTP server refused the message")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mailer_needs_an_smtp_url_and_a_sender_address() {
        assert!(SmtpMailer::new("smtp://127.0.0.1:2525", "Needl <needl@example.com>").is_ok());
        assert!(SmtpMailer::new("http://127.0.0.1:2525", "needl@example.com").is_err());
        assert!(SmtpMailer::new("smtp://127.0.0.1:2525", "not an address").is_err());
    }
}
