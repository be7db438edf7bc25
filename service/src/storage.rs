//! Where uploaded files live: the data directory by default, or an S3-compatible bucket, both
//! through the `object_store` crate (the Arrow project's object store interface: one API for
//! local disk and S3, with multipart writes and streaming reads, so we write neither by hand).
//!
//! Browsers send files straight to storage with a signed, short-lived link. For local storage the
//! link points at this server's `/api/storage/...` endpoint and is signed here with HMAC-SHA256;
//! for S3 it is a presigned S3 URL.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use futures::{Stream, StreamExt};
use hmac::{Hmac, Mac};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::signer::Signer;
use object_store::{ObjectStore, WriteMultipart};
use sha2::Sha256;

/// How long an upload link may be used.
pub const LINK_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// The bucket name local storage reports (it has one).
pub const LOCAL_BUCKET: &str = "local";

enum Backend {
    Local,
    S3(Arc<AmazonS3>),
}

/// Object storage for uploaded files.
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    backend: Backend,
    bucket: String,
    secret: Vec<u8>,
}

/// Why a write to storage stopped.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("the file is larger than {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("the upload was interrupted: {0}")]
    Body(String),
    #[error("storage: {0}")]
    Store(#[from] object_store::Error),
}

impl Storage {
    /// Files under `root` on local disk; links signed with `secret`.
    pub fn local(root: &std::path::Path, secret: &[u8]) -> anyhow::Result<Self> {
        commands::private::create_dir(root)?;
        let store = LocalFileSystem::new_with_prefix(root)?.with_automatic_cleanup(true);
        Ok(Self {
            store: Arc::new(store),
            backend: Backend::Local,
            bucket: LOCAL_BUCKET.to_string(),
            secret: secret.to_vec(),
        })
    }

    /// A bucket of an S3-compatible service, configured from the usual `AWS_*` variables
    /// (`AWS_ENDPOINT`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, ...).
    pub fn s3(bucket: &str, secret: &[u8]) -> anyhow::Result<Self> {
        let s3 = Arc::new(
            AmazonS3Builder::from_env()
                .with_bucket_name(bucket)
                .build()
                .with_context(|| format!("configuring the S3 bucket {bucket}"))?,
        );
        Ok(Self { store: s3.clone(), backend: Backend::S3(s3), bucket: bucket.to_string(), secret: secret.to_vec() })
    }

    /// Opens what `spec` names: `local` (files under `local_root`) or `s3://BUCKET`.
    pub fn open(spec: &str, local_root: &std::path::Path, secret: &[u8]) -> anyhow::Result<Self> {
        match spec.strip_prefix("s3://") {
            Some(bucket) if !bucket.is_empty() => Self::s3(bucket.trim_end_matches('/'), secret),
            Some(_) => anyhow::bail!("NEEDL_STORAGE: s3:// needs a bucket name"),
            None if spec == "local" => Self::local(local_root, secret),
            None => anyhow::bail!("NEEDL_STORAGE must be `local` or `s3://BUCKET`, not {spec}"),
        }
    }

    pub fn bucket(&self) -> &str {
        &self.bucket
    }

    /// A link the browser PUTs the file to, valid for [`LINK_LIFETIME`]; local links also carry
    /// the largest size the endpoint accepts.
    pub async fn upload_link(&self, key: &str, max_size: u64) -> anyhow::Result<String> {
        match &self.backend {
            Backend::Local => {
                let expires = chrono::Utc::now().timestamp() + LINK_LIFETIME.as_secs() as i64;
                let signature = self.signature(key, expires, max_size);
                Ok(format!("/api/storage/{}/{key}?expires={expires}&max={max_size}&signature={signature}", self.bucket))
            }
            Backend::S3(s3) => {
                Ok(s3.signed_url(reqwest::Method::PUT, &ObjectPath::from(key), LINK_LIFETIME).await?.to_string())
            }
        }
    }

    /// The MAC of one upload link: what it may write, until when, and how much.
    fn mac(&self, key: &str, expires: i64, max_size: u64) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes keys of any length");
        mac.update(format!("PUT\n{}\n{key}\n{expires}\n{max_size}", self.bucket).as_bytes());
        mac
    }

    fn signature(&self, key: &str, expires: i64, max_size: u64) -> String {
        hex::encode(self.mac(key, expires, max_size).finalize().into_bytes())
    }

    /// Whether a local upload link's signature is ours and the link has not expired.
    pub fn verify(&self, bucket: &str, key: &str, expires: i64, max_size: u64, signature: &str) -> bool {
        let Ok(given) = hex::decode(signature) else { return false };
        bucket == self.bucket
            && expires >= chrono::Utc::now().timestamp()
            && self.mac(key, expires, max_size).verify_slice(&given).is_ok()
    }

    /// Writes a body to `key`, refusing it past `limit` bytes; a refused or broken write leaves
    /// nothing behind. Returns the size written.
    pub async fn write<S, B, E>(&self, key: &str, mut body: S, limit: u64) -> Result<u64, WriteError>
    where
        S: Stream<Item = Result<B, E>> + Unpin,
        B: AsRef<[u8]>,
        E: std::fmt::Display,
    {
        let upload = self.store.put_multipart(&ObjectPath::from(key)).await?;
        let mut writer = WriteMultipart::new(upload);
        let mut size = 0u64;
        while let Some(chunk) = body.next().await {
            let chunk = match chunk {
                Ok(chunk) => chunk,
                Err(error) => {
                    let _ = writer.abort().await;
                    return Err(WriteError::Body(error.to_string()));
                }
            };
            size += chunk.as_ref().len() as u64;
            if size > limit {
                let _ = writer.abort().await;
                return Err(WriteError::TooLarge { limit });
            }
            writer.wait_for_capacity(4).await?;
            writer.write(chunk.as_ref());
        }
        writer.finish().await?;
        Ok(size)
    }

    /// The size of the object at `key`, or `None` when there is none.
    pub async fn size(&self, key: &str) -> anyhow::Result<Option<u64>> {
        match self.store.head(&ObjectPath::from(key)).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }

    /// The blob store beside this storage: on local disk under `local_root` for local storage;
    /// for S3, in the bucket, with `local_root` as this node's cache of it.
    pub fn blobs(&self, local_root: std::path::PathBuf) -> crate::blobs::BlobStore {
        match self.backend {
            Backend::Local => crate::blobs::BlobStore::new(local_root),
            Backend::S3(_) => crate::blobs::BlobStore::cached(local_root, self.store.clone()),
        }
    }

    /// Whether the store answers: a look-up of a key nobody writes, which a working store answers
    /// with "not found". For the readiness probe.
    pub async fn check(&self) -> anyhow::Result<()> {
        self.size(".readyz").await.map(|_| ())
    }

    /// `s3` or `local`, for the readiness probe.
    pub fn kind(&self) -> &'static str {
        match self.backend {
            Backend::Local => "local",
            Backend::S3(_) => "s3",
        }
    }

    /// Streams the object at `key`.
    pub async fn read(&self, key: &str) -> anyhow::Result<impl Stream<Item = object_store::Result<bytes::Bytes>>> {
        Ok(self.store.get(&ObjectPath::from(key)).await?.into_stream())
    }

    /// Deletes the object at `key`; deleting what is not there is no error.
    pub async fn delete(&self, key: &str) -> anyhow::Result<()> {
        match self.store.delete(&ObjectPath::from(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(error.into()),
        }
    }

    /// Copies the object at `key` into a local file (for the extraction worker to read).
    pub async fn download(&self, key: &str, to: &std::path::Path) -> anyhow::Result<u64> {
        use tokio::io::AsyncWriteExt;
        let mut stream = self.read(key).await?;
        let mut file = commands::private::write_options().create(true).truncate(true).open(to).await?;
        let mut size = 0;
        while let Some(chunk) = stream.next().await {
            let chunk = chunk?;
            size += chunk.len() as u64;
            file.write_all(&chunk).await?;
        }
        file.flush().await?;
        Ok(size)
    }
}

/// Makes a file name safe as the last part of a storage key: letters, digits, `.`, `-`, `_`.
pub fn safe_name(name: &str) -> String {
    let cleaned: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).take(120).collect();
    let cleaned = cleaned.trim_start_matches('.');
    if cleaned.is_empty() {
        "file".to_string()
    } else {
        cleaned.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn storage() -> (tempfile::TempDir, Storage) {
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::local(dir.path(), b"secret-secret-secret-secret-secret").unwrap();
        (dir, storage)
    }

    fn query(link: &str, name: &str) -> String {
        link.split(['?', '&']).find_map(|p| p.strip_prefix(&format!("{name}="))).unwrap().to_string()
    }

    #[tokio::test]
    async fn a_link_verifies_only_unchanged_and_in_time() {
        let (_dir, storage) = storage();
        let link = storage.upload_link("u/1/a.pdf", 100).await.unwrap();
        let expires: i64 = query(&link, "expires").parse().unwrap();
        let signature = query(&link, "signature");
        assert!(storage.verify("local", "u/1/a.pdf", expires, 100, &signature));
        assert!(!storage.verify("local", "u/1/b.pdf", expires, 100, &signature), "another key");
        assert!(!storage.verify("local", "u/1/a.pdf", expires, 1000, &signature), "a larger limit");
        assert!(!storage.verify("local", "u/1/a.pdf", expires + 1, 100, &signature), "a later expiry");
        assert!(!storage.verify("local", "u/1/a.pdf", expires, 100, "zz"), "not hex");
        let past = chrono::Utc::now().timestamp() - 1;
        let stale = storage.signature("u/1/a.pdf", past, 100);
        assert!(!storage.verify("local", "u/1/a.pdf", past, 100, &stale), "expired");
    }

    #[tokio::test]
    async fn a_write_past_the_limit_leaves_nothing() {
        let (_dir, storage) = storage();
        let chunks = futures::stream::iter(vec![Ok::<_, std::io::Error>(vec![1u8; 60]), Ok(vec![2u8; 60])]);
        let refused = storage.write("u/1/big.bin", chunks, 100).await;
        assert!(matches!(refused, Err(WriteError::TooLarge { limit: 100 })), "{refused:?}");
        assert_eq!(storage.size("u/1/big.bin").await.unwrap(), None);

        let chunks = futures::stream::iter(vec![Ok::<_, std::io::Error>(vec![1u8; 60]), Ok(vec![2u8; 40])]);
        assert_eq!(storage.write("u/1/ok.bin", chunks, 100).await.unwrap(), 100);
        assert_eq!(storage.size("u/1/ok.bin").await.unwrap(), Some(100));
        let target = _dir.path().join("copy.bin");
        assert_eq!(storage.download("u/1/ok.bin", &target).await.unwrap(), 100);
        let bytes = std::fs::read(target).unwrap();
        assert_eq!(&bytes[..60], &[1u8; 60][..]);
        assert_eq!(&bytes[60..], &[2u8; 40][..]);
    }

    #[test]
    fn names_become_safe_key_parts() {
        assert_eq!(safe_name("Q1 report (final).pdf"), "Q1_report__final_.pdf");
        assert_eq!(safe_name("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(safe_name(""), "file");
    }
}
