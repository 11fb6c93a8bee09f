//! The identity (device, inode) of the database file, by which [`crate::App::check_db_file`]
//! notices that the file was deleted, renamed away or replaced under the running service.

use std::path::Path;
use std::sync::{Arc, Mutex};

/// Identity (device, inode) of the database file the store is connected to; `None` when it
/// could not be read at start, or the store is PostgreSQL (no file: not checked).
pub(crate) type DbFile = Arc<Mutex<Option<(u64, u64)>>>;

/// The identity of the store's file as it is now.
pub(crate) fn db_file_of(store: &store::Store) -> DbFile {
    Arc::new(Mutex::new(store.path().and_then(|path| db_file_identity(path).ok())))
}

/// (device, inode) of a regular file; an error for anything else.
pub(crate) fn db_file_identity(path: &Path) -> std::io::Result<(u64, u64)> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        Ok((0, 0))
    }
}
