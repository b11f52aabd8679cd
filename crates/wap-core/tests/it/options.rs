//! Options belong to their format: each `open_with` and `map_with` uses the options it is
//! given. A cap set low makes opening (a level) or a later walk (an archive) fail where the
//! defaults succeed.

use wap_core::{
    ErrorKind, LevelFile, LevelOptions, Limits, RezFile, RezOptions, RezProblem, write_rez,
};

use crate::kind;

/// A compressed level read and mapped with a cap on decoded bytes one under its main
/// block: refused as a limit; with the defaults, opened.
#[test]
fn a_level_opens_within_the_options_given() {
    let data = wap_core::synth::level(5, 32, 16);
    let block = data.main_block().unwrap().len() as u64;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("LEVEL.WWD");
    std::fs::write(&path, data.to_file(true).unwrap()).unwrap();
    let low = LevelOptions::default().with_limits(Limits::new().with_max_decoded_bytes(block - 1));
    let at = LevelOptions::default().with_limits(Limits::new().with_max_decoded_bytes(block));
    assert!(matches!(
        kind(LevelFile::open_with(&path, &low)),
        Some(ErrorKind::Limit(_))
    ));
    // SAFETY: the file is this test's own and nothing changes it while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { LevelFile::map_with(&path, &low) };
    assert!(matches!(kind(mapped), Some(ErrorKind::Limit(_))));
    let opened = LevelFile::open_with(&path, &at).unwrap();
    assert_eq!(opened.main_block().len() as u64, block);
    assert_eq!(
        LevelFile::open(&path).unwrap().main_block().len() as u64,
        block
    );
}

/// An archive read and mapped with a path cap of 10 bytes walks its files of longer paths
/// as errors (`PathTooLong`); with the defaults, every file is walked. The cap given to
/// `open_with` is the view's: no need to give it again to the walk.
#[test]
fn an_archive_walks_within_the_options_it_was_opened_with() {
    let files: Vec<(&str, &[u8])> = vec![
        ("A.PID", b"a"),
        ("LEVEL1/TILES/012.PID", b"twelve"),
        ("LEVEL1/PALETTES/MAIN.PAL", b"palette"),
    ];
    let bytes = write_rez(&files).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("TEST.REZ");
    std::fs::write(&path, &bytes).unwrap();
    let short = RezOptions::default().with_max_path_bytes(10);
    // SAFETY: the file is this test's own and nothing changes it while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { RezFile::map_with(&path, &short) }.unwrap();
    for archive in [RezFile::open_with(&path, &short).unwrap(), mapped] {
        let rez = archive.view().unwrap();
        let items: Vec<_> = rez.walk(&rez.root()).collect();
        let walked: Vec<&str> = items
            .iter()
            .filter_map(|i| i.as_ref().ok().map(|(p, _)| p.as_str()))
            .collect();
        assert_eq!(walked, ["A.PID"]);
        // LEVEL1/PALETTES (15 bytes) and LEVEL1/TILES (12) are refused, not entered.
        let refused: Vec<u64> = items
            .iter()
            .filter_map(|i| match i.as_ref().err().map(|e| e.kind) {
                Some(ErrorKind::Rez(RezProblem::PathTooLong { len, max, .. })) => {
                    assert_eq!(max, 10);
                    Some(len)
                }
                _ => None,
            })
            .collect();
        assert_eq!(refused, [15, 12]);
    }
    let archive = RezFile::open(&path).unwrap();
    let rez = archive.view().unwrap();
    let all: Vec<String> = rez.walk(&rez.root()).map(|i| i.unwrap().0).collect();
    assert_eq!(
        all,
        ["A.PID", "LEVEL1/PALETTES/MAIN.PAL", "LEVEL1/TILES/012.PID"]
    );
}
