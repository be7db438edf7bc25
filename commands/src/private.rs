//! The data directory holds the instance's secrets: the token-signing secret, the SQLite database
//! (password hashes, sessions, every event), uploaded originals and extracted text. Only the user
//! the server runs as may read any of it, so directories are made `0700` and files `0600`,
//! whatever the process umask, and an existing data directory from an older version (which
//! created everything `0755`/`0644`) is tightened when a server starts.
//!
//! The binary also sets its umask to `077`, which covers the files written by libraries that take
//! no mode (the search index, the object store); these helpers are what holds without it.

use std::fs::{DirBuilder, OpenOptions, Permissions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use anyhow::Context;

/// The mode of every directory Needl creates under its data directory.
pub const DIR_MODE: u32 = 0o700;
/// The mode of every file Needl creates under its data directory.
pub const FILE_MODE: u32 = 0o600;

/// Folders directly under the data directory (the ones in use; others are left as they are).
const KNOWN_DIRS: [&str; 4] = ["objects", "blobs", "search", "scratch"];
/// Files directly under the data directory that hold secrets.
const KNOWN_FILES: [&str; 4] = ["token.secret", "needl.db", "needl.db-wal", "needl.db-shm"];

/// Creates `path` and any missing parents as private directories, and tightens `path` itself if
/// it was there already with a wider mode.
pub fn create_dir(path: &Path) -> anyhow::Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(path)
        .with_context(|| format!("creating {}", path.display()))?;
    tighten(path, DIR_MODE)
}

/// Creates `path` empty as a private file when it is missing (so that a library that creates
/// files beside it by its mode, as SQLite does for `-wal` and `-shm`, makes them private too);
/// an existing file is tightened, its content kept.
pub fn create_file(path: &Path) -> anyhow::Result<()> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(FILE_MODE)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    tighten(path, FILE_MODE)
}

/// Creates `path` and any missing parents as private directories, from async code.
pub async fn create_dir_async(path: &Path) -> std::io::Result<()> {
    tokio::fs::DirBuilder::new().recursive(true).mode(DIR_MODE).create(path).await
}

/// Options that open a file for writing and create it private, from async code; the caller adds
/// `create_new` or `create` and `truncate`.
pub fn write_options() -> tokio::fs::OpenOptions {
    let mut options = tokio::fs::OpenOptions::new();
    options.write(true).mode(FILE_MODE);
    options
}

/// Writes `bytes` to `path` as a private file, replacing any earlier content.
pub fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(FILE_MODE)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    tighten(path, FILE_MODE)?;
    file.write_all(bytes).with_context(|| format!("writing {}", path.display()))
}

/// Takes group and other permissions away from `path` (down to `mode`) when it has any, logging
/// the change; a missing path is fine.
pub fn tighten(path: &Path, mode: u32) -> anyhow::Result<()> {
    let current = match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => return Ok(()),
        Ok(metadata) => metadata.permissions().mode() & 0o7777,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error).with_context(|| format!("reading the mode of {}", path.display())),
    };
    if current & 0o077 == 0 {
        return Ok(());
    }
    std::fs::set_permissions(path, Permissions::from_mode(mode))
        .with_context(|| format!("restricting the permissions of {}", path.display()))?;
    tracing::warn!(
        path = %path.display(),
        from = format!("{current:04o}"),
        to = format!("{mode:04o}"),
        "tightened permissions: only the user running needl may read its data"
    );
    Ok(())
}

/// Makes the data directory private on start: creates it `0700` when missing, else tightens it,
/// the folders Needl keeps in it and its secret files. Files deeper down are left as they are:
/// with their parent folder private nobody else reaches them.
pub fn secure_data_dir(data_dir: &Path) -> anyhow::Result<()> {
    create_dir(data_dir)?;
    for dir in KNOWN_DIRS {
        tighten(&data_dir.join(dir), DIR_MODE)?;
    }
    for file in KNOWN_FILES {
        tighten(&data_dir.join(file), FILE_MODE)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn new_directories_and_files_are_private_whatever_the_umask_allows() {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("a").join("data");
        create_dir(&data).unwrap();
        assert_eq!(mode(&data), DIR_MODE);
        assert_eq!(mode(&root.path().join("a")), DIR_MODE, "missing parents are private too");
        write_file(&data.join("token.secret"), b"secret").unwrap();
        assert_eq!(mode(&data.join("token.secret")), FILE_MODE);
        create_file(&data.join("needl.db")).unwrap();
        assert_eq!(mode(&data.join("needl.db")), FILE_MODE);
    }

    #[test]
    fn an_existing_data_directory_is_tightened_and_its_content_kept() {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("data");
        std::fs::create_dir_all(data.join("objects").join("deep")).unwrap();
        std::fs::write(data.join("token.secret"), "x".repeat(64)).unwrap();
        std::fs::write(data.join("needl.db"), b"db").unwrap();
        for path in [data.clone(), data.join("objects")] {
            std::fs::set_permissions(&path, Permissions::from_mode(0o755)).unwrap();
        }
        for path in [data.join("token.secret"), data.join("needl.db")] {
            std::fs::set_permissions(&path, Permissions::from_mode(0o644)).unwrap();
        }

        secure_data_dir(&data).unwrap();

        assert_eq!(mode(&data), DIR_MODE);
        assert_eq!(mode(&data.join("objects")), DIR_MODE);
        assert_eq!(mode(&data.join("token.secret")), FILE_MODE);
        assert_eq!(mode(&data.join("needl.db")), FILE_MODE);
        assert_eq!(std::fs::read_to_string(data.join("token.secret")).unwrap(), "x".repeat(64));
        create_file(&data.join("needl.db")).unwrap();
        assert_eq!(std::fs::read(data.join("needl.db")).unwrap(), b"db", "an existing database is not emptied");
    }
}
