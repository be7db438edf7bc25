//! Document access keys. Every card carries an `access_key` the app sends back when it opens the
//! document; sharing makes a `public_access_key` that lets any signed-in person with the link
//! read that one document. Both are HMAC-SHA256 of the deeplink under the server's secret, each
//! with its own purpose, so one never works as the other and neither needs storing.

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub struct AccessKeys {
    secret: Vec<u8>,
}

/// What a key was made for.
#[derive(Debug, Clone, Copy)]
pub enum Purpose {
    /// Echoed by the app when it opens a document it listed.
    Access,
    /// A shared link's key.
    Public,
    /// A WhatsApp verification code's digest (of the user id and the code), so the event that
    /// records the code holds nothing a reader could try codes against without the secret.
    WhatsappCode,
}

impl AccessKeys {
    pub fn new(secret: &[u8]) -> Self {
        Self { secret: secret.to_vec() }
    }

    fn mac(&self, purpose: Purpose, deeplink: &str) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes keys of any length");
        let label = match purpose {
            Purpose::Access => "document-access",
            Purpose::Public => "document-public",
            Purpose::WhatsappCode => "whatsapp-code",
        };
        mac.update(format!("{label}\n{deeplink}").as_bytes());
        mac
    }

    /// The key for `deeplink`: 32 hex digits (128 bits of the MAC).
    pub fn key(&self, purpose: Purpose, deeplink: &str) -> String {
        hex::encode(&self.mac(purpose, deeplink).finalize().into_bytes()[..16])
    }

    /// Whether `given` is the key for `deeplink`, compared in constant time.
    pub fn verify(&self, purpose: Purpose, deeplink: &str, given: &str) -> bool {
        let Ok(bytes) = hex::decode(given) else { return false };
        self.mac(purpose, deeplink).verify_truncated_left(&bytes).is_ok() && bytes.len() == 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_verify_for_their_document_and_purpose_only() {
        let keys = AccessKeys::new(b"a-secret-of-some-length");
        let public = keys.key(Purpose::Public, "doc-1");
        assert_eq!(public.len(), 32);
        assert!(keys.verify(Purpose::Public, "doc-1", &public));
        assert!(!keys.verify(Purpose::Public, "doc-2", &public), "another document");
        assert!(!keys.verify(Purpose::Access, "doc-1", &public), "another purpose");
        assert!(!keys.verify(Purpose::Public, "doc-1", &public[..30]), "a shortened key");
        assert!(!keys.verify(Purpose::Public, "doc-1", "not hex at all!!"), "garbage");
        let other = AccessKeys::new(b"another-secret");
        assert!(!other.verify(Purpose::Public, "doc-1", &public), "another server's key");
    }
}
