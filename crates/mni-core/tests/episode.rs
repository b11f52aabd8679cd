//! Episode lookup across a folder and across the STN and VOL; the file owner.

// Tests may panic: a failed unwrap or index is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::fs;

use mni_core::{
    Episode, EpisodeFiles, EpisodePaths, Error, FileData, GroupKind, synth, write_group,
};

#[test]
fn finds_group_files_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let e = synth::episode().unwrap();
    fs::write(dir.path().join("cosmo1.stn"), &e.stn).unwrap();
    fs::write(dir.path().join("Cosmo1.Vol"), &e.vol).unwrap();
    let paths = EpisodePaths::find(dir.path(), 1).unwrap();
    assert!(paths.stn.ends_with("cosmo1.stn"));
    assert!(paths.vol.ends_with("Cosmo1.Vol"));
    let files = EpisodeFiles::open(dir.path(), 1).unwrap();
    let ep = files.episode().unwrap();
    assert_eq!(ep.map("A1.MNI").unwrap().width(), 256);
    assert_eq!(ep.map_names(), ["A1.MNI", "A2.MNI", "A3.MNI"]);

    let err = EpisodePaths::find(dir.path(), 2).unwrap_err();
    assert!(
        matches!(&err, Error::MissingFile { name, .. } if name == "COSMO2.STN"),
        "{err}"
    );
    let err = EpisodePaths::find(&dir.path().join("nowhere"), 1).unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err}");
}

#[test]
fn stn_is_searched_before_vol() {
    let stn = write_group([("SHARED.MNI", &b"stn"[..])]).unwrap();
    let vol = write_group([("SHARED.MNI", &b"vol"[..]), ("ONLYVOL.MNI", &b"v"[..])]).unwrap();
    let ep = Episode::parse(&stn, &vol).unwrap();
    assert_eq!(ep.get("shared.mni").unwrap(), b"stn");
    assert_eq!(ep.find("SHARED.MNI").unwrap().0, GroupKind::Stn);
    assert_eq!(ep.find("onlyvol.mni").unwrap().0, GroupKind::Vol);
    assert!(matches!(
        ep.get("NONE.MNI"),
        Err(Error::EntryNotFound { .. })
    ));
    assert!(matches!(
        ep.tile_attributes(),
        Err(Error::EntryNotFound { .. })
    ));
}

#[test]
fn mapped_and_read_files_hold_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("COSMO1.STN");
    let e = synth::episode().unwrap();
    fs::write(&path, &e.stn).unwrap();
    let read = FileData::read(&path).unwrap();
    // SAFETY: the file is private to this test and nothing changes it while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { FileData::map(&path) }.unwrap();
    assert_eq!(&read[..], &e.stn[..]);
    assert_eq!(&mapped[..], &e.stn[..]);
    assert!(matches!(
        FileData::read(&dir.path().join("missing")),
        Err(Error::Io { .. })
    ));
}
