//! Episode lookup across a folder and across the STN and VOL; the file owner.

use std::fs;

use gamedata_io::FileError;
use mni_core::{
    Episode, EpisodeFiles, EpisodePaths, Error, ErrorKind, FileData, GroupKind, synth, write_group,
};

use crate::kind;

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
    let ep = files.view().unwrap();
    assert_eq!(ep.level("A1.MNI").unwrap().unwrap().width(), 256);
    let names: Vec<&[u8]> = ep.level_names().map(|e| e.name()).collect();
    assert_eq!(names, [&b"A1.MNI"[..], b"A2.MNI", b"A3.MNI"]);
    assert!(!files.stn.is_mapped());

    // Mapped: the same entries.
    // SAFETY: the files are private to this test and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { EpisodeFiles::map(dir.path(), 1) }.unwrap();
    assert!(mapped.stn.is_mapped() && mapped.vol.is_mapped());
    assert_eq!(
        mapped.view().unwrap().get("A1.MNI").unwrap(),
        ep.get("A1.MNI").unwrap()
    );

    let err = EpisodePaths::find(dir.path(), 2).unwrap_err();
    assert!(
        matches!(&err, Error::File(FileError::Missing { name, .. }) if name == "COSMO2.STN"),
        "{err}"
    );
    let err = EpisodePaths::find(dir.path().join("nowhere"), 1).unwrap_err();
    assert!(matches!(err, Error::File(FileError::Io { .. })), "{err}");
}

#[test]
fn stn_is_searched_before_vol() {
    let stn = write_group([("SHARED.MNI", &b"stn"[..])]).unwrap();
    let vol = write_group([("SHARED.MNI", &b"vol"[..]), ("ONLYVOL.MNI", &b"v"[..])]).unwrap();
    let ep = Episode::parse(&stn, &vol).unwrap();
    assert_eq!(ep.get("shared.mni").unwrap().unwrap(), b"stn");
    assert_eq!(ep.find("SHARED.MNI").unwrap().0, GroupKind::Stn);
    assert_eq!(ep.find("onlyvol.mni").unwrap().0, GroupKind::Vol);
    assert_eq!(ep.get("NONE.MNI").unwrap(), None);
    assert_eq!(ep.missing("NONE.MNI").kind(), ErrorKind::EntryNotFound);
    assert!(matches!(
        kind(ep.tile_attributes()),
        Some(ErrorKind::EntryNotFound)
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
        FileData::read(dir.path().join("missing")),
        Err(FileError::Io { .. })
    ));
}

#[test]
fn errors_name_the_group_file_and_the_slot() {
    let dir = tempfile::tempdir().unwrap();
    let e = synth::episode().unwrap();
    // An empty STN: the error names the file.
    fs::write(dir.path().join("COSMO1.STN"), b"").unwrap();
    fs::write(dir.path().join("COSMO1.VOL"), &e.vol).unwrap();
    let files = EpisodeFiles::open(dir.path(), 1).unwrap();
    let err = files.view().unwrap_err();
    assert_eq!(err.file(), Some("COSMO1.STN"));
    assert!(matches!(
        err.kind(),
        ErrorKind::TooShort {
            found: 0,
            expected: 4000,
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        "in group file COSMO1.STN: group file directory is 0 bytes, expected at least 4000"
    );

    // TILES.MNI in slot 1 is 33 bytes: the error names the file, the slot and the entry.
    let stn = write_group([
        ("TILEATTR.MNI", &vec![0u8; 7000][..]),
        ("TILES.MNI", &[0u8; 33][..]),
        ("MASKTILE.MNI", &[][..]),
    ])
    .unwrap();
    fs::write(dir.path().join("COSMO1.STN"), &stn).unwrap();
    let files = EpisodeFiles::open(dir.path(), 1).unwrap();
    let ep = files.view().unwrap();
    let err = ep.tile_images().unwrap_err();
    assert_eq!(
        err.to_string(),
        "in entry TILES.MNI (slot 1) of COSMO1.STN: TILES.MNI is 33 bytes, not a multiple of \
         its 32-byte record"
    );
    assert!(std::error::Error::source(&err).is_none());
    assert_eq!((err.entry(), err.slot()), (Some("TILES.MNI"), Some(1)));

    // A name no entry has is not there, no error; the error of a caller that needs it
    // names the entry and both files.
    assert!(ep.level("A1.MNI").unwrap().is_some());
    assert!(ep.level("nomap").unwrap().is_none());
    let err = ep.missing("nomap");
    assert_eq!(err.kind(), ErrorKind::EntryNotFound);
    assert_eq!(
        err.to_string(),
        "no entry named \"nomap\" in COSMO1.STN or COSMO1.VOL"
    );

    // An entry past the end of its file: the file is named around the range error.
    let mut cut = stn.clone();
    cut.truncate(11_010);
    let ep = Episode::parse_named(&cut, "CUT.STN", &e.vol, "COSMO1.VOL").unwrap();
    let err = ep.get("TILES.MNI").unwrap_err();
    assert_eq!(err.file(), Some("CUT.STN"));
    assert!(matches!(
        err.kind(),
        ErrorKind::EntryOutOfBounds { slot: 1, .. }
    ));
    assert!(
        err.to_string()
            .starts_with("in group file CUT.STN: group entry \"TILES.MNI\" (slot 1) spans"),
        "{err}"
    );
}

#[test]
fn a_map_with_a_bad_width_names_its_entry() {
    let stn = write_group([("X.MNI", &b""[..])]).unwrap();
    let mut map =
        mni_core::write_map(mni_core::MapFlags::default(), 64, &[], &[0; 32_764]).unwrap();
    map[2..4].copy_from_slice(&1u16.to_le_bytes()); // width 1
    let vol = write_group([("A9.MNI", &map[..])]).unwrap();
    let ep = Episode::parse(&stn, &vol).unwrap();
    let err = ep.level("a9.mni").unwrap_err();
    assert_eq!(
        err.to_string(),
        "in entry A9.MNI (slot 0) of VOL: map width is 1 tile, expected a power of two from \
         32 to 2048"
    );
    assert_eq!(err.kind(), ErrorKind::MapWidth { found: 1 });
}
