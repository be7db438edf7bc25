//! Immutable text blobs (extracted text, page layouts), addressed by the SHA-256 of their
//! content.
//!
//! With local storage they live in the data directory's `blobs/` folder. With S3 storage
//! (`--storage s3://BUCKET`) they live in the bucket under `blobs/`, beside the uploaded files,
//! and the local folder is only a cache of them: any node reads what another wrote, and a node
//! whose disk is lost rebuilds its cache (and its search index) from the bucket.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutPayload};

#[derive(Clone)]
pub struct BlobStore {
    /// The blobs themselves, or with `remote`, a cache of them.
    root: PathBuf,
    remote: Option<Arc<dyn ObjectStore>>,
}

impl BlobStore {
    /// Blobs on local disk under `root`.
    pub fn new(root: PathBuf) -> Self {
        Self { root, remote: None }
    }

    /// Blobs in `remote` under `blobs/`, cached on local disk under `root`.
    pub fn cached(root: PathBuf, remote: Arc<dyn ObjectStore>) -> Self {
        Self { root, remote: Some(remote) }
    }

    fn path(&self, hash: &str) -> PathBuf {
        self.root.join(&hash[..2.min(hash.len())]).join(hash)
    }

    fn key(hash: &str) -> ObjectPath {
        ObjectPath::from(format!("blobs/{}/{hash}", &hash[..2.min(hash.len())]))
    }

    /// Stores `text` under `hash` unless it is there already: in the bucket first (where one is
    /// configured), then on local disk, written whole and then renamed.
    pub async fn put(&self, hash: &str, text: &str) -> anyhow::Result<()> {
        if let Some(remote) = &self.remote {
            let key = Self::key(hash);
            match remote.head(&key).await {
                Ok(_) => {}
                Err(object_store::Error::NotFound { .. }) => {
                    remote
                        .put(&key, PutPayload::from(text.as_bytes().to_vec()))
                        .await
                        .with_context(|| format!("storing blob {hash} in the bucket"))?;
                }
                Err(error) => return Err(error).with_context(|| format!("looking for blob {hash} in the bucket")),
            }
        }
        self.put_local(hash, text).await
    }

    async fn put_local(&self, hash: &str, text: &str) -> anyhow::Result<()> {
        use tokio::io::AsyncWriteExt;
        let path = self.path(hash);
        if tokio::fs::try_exists(&path).await.unwrap_or(false) {
            return Ok(());
        }
        let dir = path.parent().expect("a blob path has a parent");
        commands::private::create_dir_async(dir).await.with_context(|| format!("creating {}", dir.display()))?;
        let partial = dir.join(format!(".{hash}.{}", uuid::Uuid::new_v4().simple()));
        let mut file = commands::private::write_options().create_new(true).open(&partial).await?;
        file.write_all(text.as_bytes()).await?;
        file.flush().await?;
        drop(file);
        tokio::fs::rename(&partial, &path).await?;
        Ok(())
    }

    /// The blob under `hash`, or `None` when there is none or it cannot be read now.
    pub async fn get(&self, hash: &str) -> Option<String> {
        match self.try_get(hash).await {
            Ok(text) => text,
            Err(error) => {
                tracing::warn!(hash, error = format!("{error:#}"), "a blob could not be read");
                None
            }
        }
    }

    /// The blob under `hash`, `None` when there is none, or an error when the bucket does not
    /// answer (so a caller that must not lose the text, such as the search index, tries again).
    /// A blob read from the bucket is kept in the local cache.
    pub async fn try_get(&self, hash: &str) -> anyhow::Result<Option<String>> {
        if hash.is_empty() || !hash.chars().all(|c| c.is_ascii_hexdigit()) {
            return Ok(None);
        }
        if let Ok(text) = tokio::fs::read_to_string(self.path(hash)).await {
            return Ok(Some(text));
        }
        let Some(remote) = &self.remote else { return Ok(None) };
        let bytes = match remote.get(&Self::key(hash)).await {
            Ok(found) => found.bytes().await.with_context(|| format!("reading blob {hash} from the bucket"))?,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(error) => return Err(error).with_context(|| format!("reading blob {hash} from the bucket")),
        };
        let text = String::from_utf8(bytes.to_vec()).with_context(|| format!("blob {hash} is not UTF-8"))?;
        if let Err(error) = self.put_local(hash, &text).await {
            tracing::warn!(hash, error = format!("{error:#}"), "a blob read from the bucket was not cached");
        }
        Ok(Some(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn blobs_are_written_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = BlobStore::new(dir.path().to_path_buf());
        blobs.put("abcdef", "the text").await.unwrap();
        blobs.put("abcdef", "ignored: same address").await.unwrap();
        assert_eq!(blobs.get("abcdef").await.as_deref(), Some("the text"));
        assert_eq!(blobs.get("../etc").await, None);
    }

    #[tokio::test]
    async fn a_blob_in_the_bucket_is_read_by_a_node_that_did_not_write_it_and_cached() {
        let bucket: Arc<dyn ObjectStore> = Arc::new(object_store::memory::InMemory::new());
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let writer = BlobStore::cached(one.path().to_path_buf(), bucket.clone());
        let reader = BlobStore::cached(two.path().to_path_buf(), bucket.clone());
        writer.put("0a1b2c", "extracted text").await.unwrap();
        assert!(bucket.head(&ObjectPath::from("blobs/0a/0a1b2c")).await.is_ok(), "the blob is in the bucket");
        assert_eq!(reader.get("0a1b2c").await.as_deref(), Some("extracted text"));
        assert!(two.path().join("0a").join("0a1b2c").exists(), "and now in the reader's cache");
        assert_eq!(reader.try_get("ffff").await.unwrap(), None, "a blob nobody wrote is none, not an error");
    }
}
