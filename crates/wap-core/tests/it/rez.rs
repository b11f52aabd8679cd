//! REZ archives: the project's writer read back, an archive laid out by a writer of this
//! test (from the format facts of `docs/formats/wap32.md`, not the crate's), crafted bad
//! trees, and the real archives' directory trees (`GAMEDATA_DIR`).

use wap_core::rez::MAX_DEPTH;
use wap_core::{ErrorKind, Rez, RezEntry, RezFile, RezProblem, write_rez};

fn paths(rez: &Rez<'_>) -> Vec<String> {
    rez.walk(&rez.root()).map(|r| r.unwrap().0).collect()
}

#[test]
fn the_writer_s_archive_reads_back_by_path_in_any_case() {
    let files: Vec<(&str, &[u8])> = vec![
        ("LEVEL1/TILES/ACTION/012.PID", b"twelve"),
        ("LEVEL1\\TILES\\ACTION\\001.PID", b"one"),
        ("LEVEL1/PALETTES/MAIN.PAL", &[7; 768]),
        ("CLAW/IMAGES/STAND/FRAME001.PID", b""),
        ("README", b"no extension"),
    ];
    let bytes = write_rez(&files).unwrap();
    let archive = RezFile::from_data(bytes, &Default::default()).unwrap();
    let rez = archive.view().unwrap();
    // Depth first, each directory's files before its subdirectories, sorted by name.
    assert_eq!(
        paths(&rez),
        [
            "README",
            "CLAW/IMAGES/STAND/FRAME001.PID",
            "LEVEL1/PALETTES/MAIN.PAL",
            "LEVEL1/TILES/ACTION/001.PID",
            "LEVEL1/TILES/ACTION/012.PID",
        ]
    );
    // The view is over the owner's bytes; Debug says lengths, never the bytes.
    assert_eq!(rez.bytes(), archive.bytes());
    assert!(format!("{archive:?}").contains(&format!("len: {}", archive.bytes().len())));
    assert!(format!("{rez:?}").contains("root_offset"));
    gamedata_testkit::assert_debug_bounded("a REZ view", &rez, 200);
    let tile = rez.file("level1\\tiles/action/012.pid").unwrap().unwrap();
    assert_eq!(tile.bytes, b"twelve");
    assert_eq!(tile.extension(), b"PID");
    assert_eq!(tile.file_name(), "012.PID");
    // The bytes are the archive's own, not a copy.
    let range = archive.bytes().as_ptr_range();
    assert!(range.contains(&tile.bytes.as_ptr()));
    assert_eq!(
        rez.file("LEVEL1/PALETTES/MAIN.PAL").unwrap().unwrap().bytes,
        [7; 768]
    );
    assert_eq!(rez.file("README").unwrap().unwrap().bytes, b"no extension");
    assert!(rez.file("LEVEL1/TILES/ACTION/012").unwrap().is_none());
    assert!(rez.file("LEVEL1/TILES").unwrap().is_none(), "a directory");
    assert!(
        matches!(rez.find("/level1/tiles/").unwrap(), Some(RezEntry::Dir(d)) if d.name == b"TILES")
    );
    assert!(rez.find("LEVEL2").unwrap().is_none());
    // Stored reversed: "DIP\0" in the entry.
    let entry = &archive.bytes()[tile.at..];
    assert_eq!(&entry[20..24], b"DIP\0");
}

#[test]
fn the_writer_refuses_paths_it_cannot_store() {
    for files in [
        vec![("A//B.PID", &b""[..])],
        vec![("A/B.PIDXY", &b""[..])],
        vec![("A/B.PID", &b""[..]), ("A/B.PID/C.PID", &b""[..])],
        vec![("A/B", &b""[..]), ("A/B/C.PID", &b""[..])],
    ] {
        let err = write_rez(&files).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Write(_)), "{files:?}: {err}");
    }
}

/// A little-endian u32.
fn le(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

/// An entry: a directory (kind 1) or a file (kind 0, extension given in reading order,
/// stored reversed), with a comment and keys for files.
enum Item<'a> {
    Dir(&'a str, u32, u32),
    File(&'a str, &'a str, u32, u32, &'a str, &'a [u32]),
}

fn entry(item: &Item<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    match item {
        Item::Dir(name, offset, size) => {
            for v in [1, *offset, *size, 0x3000_0000] {
                out.extend(le(v));
            }
            out.extend(name.as_bytes());
            out.push(0);
        }
        Item::File(name, ext, offset, size, comment, keys) => {
            for v in [0, *offset, *size, 0x3000_0000, 77] {
                out.extend(le(v));
            }
            let mut stored = [0u8; 4];
            for (i, b) in ext.bytes().rev().enumerate() {
                stored[i] = b;
            }
            out.extend(stored);
            out.extend(le(keys.len() as u32));
            out.extend(name.as_bytes());
            out.push(0);
            out.extend(comment.as_bytes());
            out.push(0);
            for k in *keys {
                out.extend(le(*k));
            }
        }
    }
    out
}

/// An archive laid out unlike the crate's writer: the header, the root's entries and a
/// directory's right after it, the files' bytes last.
fn independent_archive() -> Vec<u8> {
    let mut header = vec![b' '; 127];
    header[..2].copy_from_slice(b"\r\n");
    header[124..].copy_from_slice(b"\r\n\x1a");
    let data_a = b"pixels of A";
    let data_b = [1u8; 300];
    // Root at 168: a directory IMAGES and a file A.PID; IMAGES holds B.ANI (a comment and two
    // keys) and an empty entry.
    let root_len = |images_at: u32| {
        entry(&Item::Dir("IMAGES", images_at, 0)).len()
            + entry(&Item::File("A", "PID", 0, 0, "", &[])).len()
    };
    let root_at = 168u32;
    let images_at = root_at + root_len(0) as u32;
    let images_len = (entry(&Item::File("B", "ANI", 0, 0, "a comment", &[5, 6])).len()
        + entry(&Item::File("EMPTY", "PID", 0, 0, "", &[])).len()) as u32;
    let data_at = images_at + images_len;
    let b_at = data_at + data_a.len() as u32;
    let mut out = header;
    for v in [1, root_at, root_len(0) as u32, 0, b_at + 300, 0, 2, 6, 5, 9] {
        out.extend(le(v));
    }
    out.push(0);
    out.extend(entry(&Item::Dir("IMAGES", images_at, images_len)));
    out.extend(entry(&Item::File(
        "A",
        "PID",
        data_at,
        data_a.len() as u32,
        "",
        &[],
    )));
    out.extend(entry(&Item::File(
        "B",
        "ANI",
        b_at,
        300,
        "a comment",
        &[5, 6],
    )));
    out.extend(entry(&Item::File("EMPTY", "PID", 0xFFFF_FFF0, 0, "", &[])));
    out.extend(data_a);
    out.extend(data_b);
    out
}

#[test]
fn an_archive_laid_out_by_another_writer_reads() {
    let bytes = independent_archive();
    let rez = Rez::parse(&bytes).unwrap();
    assert_eq!(rez.header().version.get(), 1);
    assert_eq!(paths(&rez), ["IMAGES/B.ANI", "IMAGES/EMPTY.PID", "A.PID"]);
    let b = rez.file("images/b.ani").unwrap().unwrap();
    assert_eq!((b.bytes.len(), b.id, b.time), (300, 77, 0x3000_0000));
    assert_eq!(b.comment, b"a comment");
    assert_eq!(b.keys.iter().map(|k| k.get()).collect::<Vec<_>>(), [5, 6]);
    // A size-0 entry has no bytes, whatever its offset says.
    assert!(
        rez.file("IMAGES/EMPTY.PID")
            .unwrap()
            .unwrap()
            .bytes
            .is_empty()
    );
    assert_eq!(rez.file("A.PID").unwrap().unwrap().bytes, b"pixels of A");
}

/// `bytes` with the u32 at `at` set to `v`.
fn set(mut bytes: Vec<u8>, at: usize, v: u32) -> Vec<u8> {
    bytes[at..at + 4].copy_from_slice(&le(v));
    bytes
}

fn rez_problem(err: &wap_core::DataError) -> RezProblem {
    match err.kind {
        ErrorKind::Rez(p) => p,
        other => panic!("not a REZ problem: {other:?}"),
    }
}

#[test]
fn bad_headers_and_entries_are_errors_naming_the_offset() {
    let good = independent_archive();
    assert_eq!(
        rez_problem(&Rez::parse(&good[..100]).unwrap_err()),
        RezProblem::TooShort { found: 100 }
    );
    let v2 = set(good.clone(), 127, 2);
    assert_eq!(
        rez_problem(&Rez::parse(&v2).unwrap_err()),
        RezProblem::Version { found: 2 }
    );
    let far = set(good.clone(), 131, 1 << 30);
    assert!(matches!(
        rez_problem(&Rez::parse(&far).unwrap_err()),
        RezProblem::DirectoryOutside {
            offset: 0x4000_0000,
            ..
        }
    ));
    // The root's first entry (IMAGES, at 168) of kind 7; then A.PID's bytes past the end.
    let kind = set(good.clone(), 168, 7);
    let rez = Rez::parse(&kind).unwrap();
    let first = rez.walk(&rez.root()).next().unwrap().unwrap_err();
    assert_eq!(
        rez_problem(&first),
        RezProblem::EntryKind { at: 168, found: 7 }
    );
    assert_eq!(first.file(), Some("/"));
    let a_at = 168 + entry(&Item::Dir("IMAGES", 0, 0)).len();
    let outside = set(good.clone(), a_at + 8, 1 << 20);
    let rez = Rez::parse(&outside).unwrap();
    let results: Vec<_> = rez.walk(&rez.root()).collect();
    // IMAGES' two files still come, then the bad one.
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok() && results[1].is_ok());
    assert!(matches!(
        rez_problem(results[2].as_ref().unwrap_err()),
        RezProblem::FileOutside { at, size: 0x10_0000, .. } if at == a_at
    ));
    // A name holding '/' would make paths ambiguous: refused.
    let mut slash = good.clone();
    slash[168 + 16 + 2] = b'/';
    let rez = Rez::parse(&slash).unwrap();
    let first = rez.walk(&rez.root()).next().unwrap().unwrap_err();
    assert_eq!(rez_problem(&first), RezProblem::Name { at: 168 });
    // The root cut inside A.PID's name: no NUL before the directory's end.
    let root_len = u32::from_le_bytes(good[135..139].try_into().unwrap());
    let cut = set(good, 135, root_len - 2);
    let rez = Rez::parse(&cut).unwrap();
    let last = rez.walk(&rez.root()).last().unwrap().unwrap_err();
    assert!(matches!(rez_problem(&last), RezProblem::EntryCut { at, .. } if at == a_at));
}

#[test]
fn a_tree_that_points_into_itself_is_an_error_and_the_rest_is_listed() {
    // IMAGES pointed back at the root's entries: the walk lists A.PID and reports the loop
    // once, instead of going round.
    let good = independent_archive();
    let looped = set(good.clone(), 168 + 4, 168);
    let rez = Rez::parse(&looped).unwrap();
    let results: Vec<_> = rez.walk(&rez.root()).collect();
    assert_eq!(results.len(), 2);
    assert!(matches!(
        rez_problem(results[0].as_ref().unwrap_err()),
        RezProblem::Loop {
            at: 168,
            offset: 168
        }
    ));
    assert_eq!(results[1].as_ref().unwrap().0, "A.PID");
    // Overlapping without being equal is a loop too.
    let overlapping = set(good, 168 + 4, 170);
    let rez = Rez::parse(&overlapping).unwrap();
    assert!(
        rez.walk(&rez.root())
            .any(|r| r.is_err_and(|e| matches!(rez_problem(&e), RezProblem::Loop { .. })))
    );
}

#[test]
fn nesting_past_the_cap_is_an_error() {
    // 40 directories each holding the next: the walk stops at MAX_DEPTH and says so.
    let path: Vec<String> = (0..40).map(|i| format!("D{i}")).collect();
    let file = format!("{}/DEEP.PID", path.join("/"));
    let bytes = write_rez(&[(&file, b"x")]).unwrap();
    let rez = Rez::parse(&bytes).unwrap();
    let results: Vec<_> = rez.walk(&rez.root()).collect();
    assert_eq!(results.len(), 1);
    let err = results[0].as_ref().unwrap_err();
    assert!(matches!(
        rez_problem(err),
        RezProblem::Depth { depth, max, .. } if depth == MAX_DEPTH + 1 && max == MAX_DEPTH
    ));
    assert!(err.file().unwrap().starts_with("D0/D1/"));
    // Found by path only within the cap.
    assert!(rez.find(&file).unwrap().is_none());
    let shallow = path[..10].join("/");
    assert!(rez.find(&shallow).unwrap().is_some());
}

/// The file paths of a real archive as this project names them: `/`-separated, the
/// extension as the game names it (the list's `.DIP` is the stored, reversed form).
fn game_path(listed: &str) -> String {
    let path = listed.replace('\\', "/");
    match path.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}.{}", ext.chars().rev().collect::<String>()),
        None => path,
    }
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn gruntz_rez_s_tree_built_and_walked() {
    let list =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/gruntz-rez-paths.txt"))
            .unwrap();
    let mut expected: Vec<String> = list
        .lines()
        .filter(|l| !l.is_empty())
        .map(game_path)
        .collect();
    assert_eq!(expected.len(), 22_827);
    // Seven files are listed twice (two entries of one name in a directory): the writer
    // keeps both, as the archive does.
    let mut unique = expected.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 22_820);
    let contents: Vec<Vec<u8>> = (0..expected.len())
        .map(|i| (i as u32).to_le_bytes().to_vec())
        .collect();
    let files: Vec<(&str, &[u8])> = expected
        .iter()
        .map(String::as_str)
        .zip(contents.iter().map(Vec::as_slice))
        .collect();
    let bytes = write_rez(&files).unwrap();
    let rez = Rez::parse(&bytes).unwrap();
    let mut walked = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for item in rez.walk(&rez.root()) {
        let (path, file) = item.unwrap();
        // Each file holds its index in the list: the path leads to its own bytes.
        let i = u32::from_le_bytes(file.bytes.try_into().unwrap()) as usize;
        assert_eq!(path, expected[i]);
        assert!(seen.insert(i), "file {i} twice");
        walked.push(path);
    }
    assert_eq!(walked.len(), expected.len());
    walked.sort();
    expected.sort();
    assert_eq!(walked, expected);
    // Found by the list's own spelling, in lower case.
    let sample = "area8\\tilez\\action\\287.pid";
    assert!(rez.file(sample).unwrap().is_some());
}

/// An archive whose directories are laid out against the walk's order: the root lists an
/// empty directory EMPTY (its offset that of EARLY's entries), then LATE, then EARLY, whose
/// entries come before LATE's in the file.
fn out_of_order_archive() -> Vec<u8> {
    let mut header = vec![b' '; 127];
    header[..2].copy_from_slice(b"\r\n");
    header[124..].copy_from_slice(b"\r\n\x1a");
    let root_at = 168u32;
    let root_len = (entry(&Item::Dir("EMPTY", 0, 0)).len()
        + entry(&Item::Dir("LATE", 0, 0)).len()
        + entry(&Item::Dir("EARLY", 0, 0)).len()) as u32;
    let early_at = root_at + root_len;
    let early_len = entry(&Item::File("E", "PID", 0, 0, "", &[])).len() as u32;
    let late_at = early_at + early_len;
    let late_len = entry(&Item::File("L", "PID", 0, 0, "", &[])).len() as u32;
    let data_at = late_at + late_len;
    let mut out = header;
    for v in [1, root_at, root_len, 0, data_at + 4, 0, 2, 6, 5, 9] {
        out.extend(le(v));
    }
    out.push(0);
    out.extend(entry(&Item::Dir("EMPTY", early_at, 0)));
    out.extend(entry(&Item::Dir("LATE", late_at, late_len)));
    out.extend(entry(&Item::Dir("EARLY", early_at, early_len)));
    out.extend(entry(&Item::File("E", "PID", data_at, 2, "", &[])));
    out.extend(entry(&Item::File("L", "PID", data_at + 2, 2, "", &[])));
    out.extend(b"eell");
    out
}

#[test]
fn directories_laid_out_against_the_walk_s_order_are_no_loop() {
    // A directory read later may lie before one read earlier, and an empty directory may
    // share its offset with another's entries: neither overlaps anything.
    let bytes = out_of_order_archive();
    let rez = Rez::parse(&bytes).unwrap();
    assert_eq!(paths(&rez), ["LATE/L.PID", "EARLY/E.PID"]);
    assert_eq!(rez.file("early/e.pid").unwrap().unwrap().bytes, b"ee");
    assert_eq!(rez.file("LATE/L.PID").unwrap().unwrap().bytes, b"ll");
    // But a later directory whose entries cover one read before is a loop: EARLY made to
    // span LATE's entries too.
    // The root's entries start at 168.
    let early_dir =
        168 + entry(&Item::Dir("EMPTY", 0, 0)).len() + entry(&Item::Dir("LATE", 0, 0)).len();
    let early_len = entry(&Item::File("E", "PID", 0, 0, "", &[])).len() as u32;
    let late_len = entry(&Item::File("L", "PID", 0, 0, "", &[])).len() as u32;
    let covering = set(bytes, early_dir + 8, early_len + late_len);
    let rez = Rez::parse(&covering).unwrap();
    let results: Vec<_> = rez.walk(&rez.root()).collect();
    assert_eq!(results[0].as_ref().unwrap().0, "LATE/L.PID");
    assert!(matches!(
        rez_problem(results[1].as_ref().unwrap_err()),
        RezProblem::Loop { at, .. } if at == early_dir
    ));
}

#[test]
fn a_walk_s_debug_says_where_it_is() {
    let bytes = out_of_order_archive();
    let rez = Rez::parse(&bytes).unwrap();
    let mut walk = rez.walk(&rez.root());
    assert_eq!(
        format!("{walk:?}"),
        "Walk { depth: 1, directories_read: 1 }"
    );
    walk.next().unwrap().unwrap();
    // Inside LATE, with the root and LATE read (EMPTY, having no bytes, is not kept).
    assert_eq!(
        format!("{walk:?}"),
        "Walk { depth: 2, directories_read: 2 }"
    );
}
