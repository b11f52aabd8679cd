//! The walk an image source's index is built from: names repeated in their folder flagged
//! (thousands of them each once), tables too short for an entry left out, and the path cap
//! (what it counts, a name at it listed, a path past it an error while the rest is walked).

use gamedata_testkit::rez::{Builder, Entry, pid};
use wap_core::{ErrorKind, Rez, RezEntry, RezOptions, RezProblem, WalkEntry};

use crate::index::source;

#[test]
fn a_walk_flags_names_repeated_in_their_folder() {
    let mut b = Builder::new();
    let data = b.data(b"x");
    let inner = b.table(&[Entry::File {
        name: b"Z",
        ext: b"PID",
        data,
    }]);
    let other = b.table(&[Entry::File {
        name: b"Y",
        ext: b"PID",
        data,
    }]);
    let root = b.table(&[
        Entry::File {
            name: b"A",
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"a",
            ext: b"pid",
            data,
        },
        Entry::File {
            name: b"A",
            ext: b"ANI",
            data,
        },
        Entry::Dir {
            name: b"A",
            table: inner,
        },
        Entry::Dir {
            name: b"a",
            table: other,
        },
        Entry::File {
            name: b"AB",
            ext: b"",
            data,
        },
        Entry::File {
            name: b"A",
            ext: b"B",
            data,
        },
    ]);
    let bytes = b.finish(root);
    let rez = Rez::parse(&bytes).unwrap();
    let mut walk = rez.walk(&rez.root());
    let mut seen = Vec::new();
    while let Some(item) = walk.next_entry() {
        let WalkEntry {
            path,
            depth,
            repeated,
            entry,
        } = item.unwrap();
        let kind = if matches!(entry, RezEntry::Dir(_)) {
            "dir"
        } else {
            "file"
        };
        seen.push((path.to_owned(), depth, repeated, kind));
    }
    let want = [
        ("A.PID", 1, false, "file"),
        ("a.pid", 1, true, "file"),
        ("A.ANI", 1, false, "file"),
        ("A", 1, false, "dir"),
        ("A/Z.PID", 2, false, "file"),
        ("a", 1, true, "dir"),
        ("a/Y.PID", 2, false, "file"),
        ("AB", 1, false, "file"),
        ("A.B", 1, false, "file"),
    ];
    let want: Vec<(String, usize, bool, &str)> = want
        .iter()
        .map(|(p, d, r, k)| (p.to_string(), *d, *r, *k))
        .collect();
    assert_eq!(seen, want);
    // The index keeps the first A and leaves the second out.
    let images = source(bytes.clone());
    let index = images.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 2);
    let problem = index.problems().kept()[0].kind();
    assert!(
        matches!(problem, Some(ErrorKind::Rez(RezProblem::Repeated { .. }))),
        "{problem:?}"
    );
    assert_eq!(index.frames(index.folder("a").unwrap()).unwrap().len(), 1);
}

#[test]
fn a_path_past_the_cap_is_an_error_and_the_rest_is_walked() {
    let mut b = Builder::new();
    let data = b.data(b"x");
    let long = vec![b'N'; 300];
    let deep = b.table(&[Entry::File {
        name: b"IN",
        ext: b"PID",
        data,
    }]);
    let root = b.table(&[
        Entry::Dir {
            name: &long,
            table: deep,
        },
        Entry::File {
            name: &long[..257],
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"OK",
            ext: b"PID",
            data,
        },
    ]);
    let bytes = b.finish(root);
    let rez = Rez::parse(&bytes).unwrap();
    let items: Vec<_> = rez.walk(&rez.root()).collect();
    assert_eq!(items.len(), 3);
    let too_long = |i: usize| match items[i].as_ref().unwrap_err().kind {
        ErrorKind::Rez(RezProblem::PathTooLong { len, max, .. }) => (len, max),
        other => panic!("{other:?}"),
    };
    assert_eq!(too_long(0), (300, 260));
    assert_eq!(too_long(1), (261, 260));
    assert_eq!(items[2].as_ref().unwrap().0, "OK.PID");
    // With a larger cap the directory is entered.
    let limits = RezOptions::default().with_max_path_bytes(400);
    let paths: Vec<String> = rez
        .walk_with(&rez.root(), &limits)
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(paths.len(), 3);
    assert_eq!(paths[0], format!("{}/IN.PID", "N".repeat(300)));
}

/// Directories whose tables are too short for one entry (under 18 bytes) hold nothing: a
/// walk reads each once (an error), keeps none of them for its loop check, and the index
/// leaves them out.
#[test]
fn tables_too_short_for_an_entry_are_not_kept() {
    let mut b = Builder::new();
    let tiny = b.data(&[1u8; 17]);
    let names: Vec<String> = (0..50).map(|i| format!("T{i:02}")).collect();
    // Every directory points at the same 17 bytes: too short to loop through.
    let root = b.dirs(names.iter().cloned(), tiny);
    let bytes = b.finish(root);
    let rez = Rez::parse(&bytes).unwrap();
    let items: Vec<_> = rez.walk(&rez.root()).collect();
    assert_eq!(items.len(), 50);
    // Each a bad entry (17 bytes of 1: kind 0x01010101), none a loop.
    for item in &items {
        let kind = item.as_ref().unwrap_err().kind;
        assert!(
            matches!(kind, ErrorKind::Rez(RezProblem::EntryKind { .. })),
            "{kind:?}"
        );
    }
    let images = source(bytes);
    let index = images.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 1);
    assert!(!index.is_empty());
    assert_eq!(index.folder("T00"), None);
}

/// 6,000 names each stored twice, in two runs: the second of each is flagged, through the
/// lookup table of the candidates' top bits (kept when there are more than 4,096).
#[test]
fn thousands_of_repeated_names_are_each_flagged_once() {
    let mut b = Builder::new();
    let names: Vec<String> = (0..6000).map(|i| format!("N{i:05}")).collect();
    let data = b.data(b"x");
    let first = b.files(names.iter().cloned(), b"PID", data);
    let second = b.files(names.iter().map(|n| n.to_lowercase()), b"PID", data);
    let bytes = b.finish((first.0, first.1 + second.1));
    let rez = Rez::parse(&bytes).unwrap();
    let mut walk = rez.walk(&rez.root());
    let (mut listed, mut repeated) = (0, 0);
    while let Some(item) = walk.next_entry() {
        let entry = item.unwrap();
        listed += 1;
        if entry.repeated {
            repeated += 1;
            assert!(entry.path.starts_with('n'), "{}", entry.path);
        }
    }
    assert_eq!((listed, repeated), (12_000, 6000));
}

/// An image whose stored name is exactly the path cap long is one of its folder's frames;
/// one byte longer, none (no path can name it).
#[test]
fn an_image_name_at_the_path_cap_is_listed_and_past_it_is_not() {
    let mut b = Builder::new();
    let data = b.data(&pid(1, 1, 9));
    // Stored names of 8 and 9 bytes (the extension is a field of its own).
    let table = b.table(&[
        Entry::File {
            name: b"FRAME001",
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"FRAME0002",
            ext: b"PID",
            data,
        },
    ]);
    let root = b.table(&[Entry::Dir { name: b"S", table }]);
    let images = source(b.finish(root));
    let limits = RezOptions::default().with_max_path_bytes(8);
    let index = images.index(&limits).unwrap();
    let frames = index.frames(index.folder("S").unwrap()).unwrap();
    assert_eq!(frames.len(), 1);
    assert_eq!(frames.get(1), Some(0));
    assert_eq!(frames.get(2), None);
}

/// Paths at the cap and one past it, counted as the walk prints them: the `/` between
/// folders, the `.` before an extension (none without one) and a Latin-1 name's text
/// (`É` is two bytes): at the cap listed, past it refused.
#[test]
fn the_path_cap_counts_separators_dots_and_decoded_text() {
    let mut b = Builder::new();
    let data = b.data(b"x");
    let folder = b.table(&[
        // ABC/DEFG.PID: 12 bytes.
        Entry::File {
            name: b"DEFG",
            ext: b"PID",
            data,
        },
        // ABC/NOEXTNOE: 12 bytes, no dot.
        Entry::File {
            name: b"NOEXTNOE",
            ext: b"",
            data,
        },
        // ABC/DEFGH.PID: 13 bytes.
        Entry::File {
            name: b"DEFGH",
            ext: b"PID",
            data,
        },
        // ABC/É12.PID: 3 stored bytes, 4 of text: 12 bytes.
        Entry::File {
            name: b"\xC912",
            ext: b"PID",
            data,
        },
        // ABC/É123.PID: 13 bytes of text (12 stored).
        Entry::File {
            name: b"\xC9123",
            ext: b"PID",
            data,
        },
    ]);
    let root = b.table(&[Entry::Dir {
        name: b"ABC",
        table: folder,
    }]);
    let bytes = b.finish(root);
    let rez = Rez::parse(&bytes).unwrap();
    let limits = RezOptions::default().with_max_path_bytes(12);
    let items: Vec<Result<String, (u64, u64)>> = rez
        .walk_with(&rez.root(), &limits)
        .map(|r| match r {
            Ok((path, _)) => Ok(path),
            Err(e) => match e.kind {
                ErrorKind::Rez(RezProblem::PathTooLong { len, max, .. }) => Err((len, max)),
                other => panic!("{other:?}"),
            },
        })
        .collect();
    assert_eq!(
        items,
        [
            Ok("ABC/DEFG.PID".to_owned()),
            Ok("ABC/NOEXTNOE".to_owned()),
            Err((13, 12)),
            Ok("ABC/É12.PID".to_owned()),
            Err((13, 12)),
        ]
    );
}
