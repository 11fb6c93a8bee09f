//! A database file deleted under a running store and restored from a backup: the store
//! refuses anything else at the path and reconnects to the restored copy.

use store::{Store, Tier};

#[test]
fn a_restored_backup_is_reconnected_and_nothing_else_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seo-audit.db");
    let store = Store::open(&path).unwrap();
    let user = store.create_user(Tier::Free).unwrap();
    let (key, _) = store.create_key(store::NewKey::new("k", Tier::Free)).unwrap();
    let backup = dir.path().join("backup.db");
    // The backup is taken through another store on the same file, as an operator's tool would.
    Store::open(&path).unwrap().backup(&backup).unwrap();
    let other = store.clone();

    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, b"").unwrap();
    assert!(store.reopen().is_err(), "an empty file is not our database");
    assert!(!store.is_connected());
    assert!(other.get_user(&user.id).is_err(), "clones are disconnected too");

    std::fs::remove_file(&path).unwrap();
    std::fs::copy(&backup, &path).unwrap();
    store.reopen().unwrap();
    assert!(store.is_connected());
    assert_eq!(other.get_user(&user.id).unwrap().id, user.id, "the restored copy, through every clone");
    assert!(other.lookup(&key).unwrap().is_some(), "keys made before the backup are there");
    store.create_user(Tier::Pro).unwrap();
}
