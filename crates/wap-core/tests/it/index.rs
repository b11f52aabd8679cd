//! An image source's index (`ImageSource::index`): folders by path and by image-set key,
//! frames by number, and the walk it is built from (repeated names, the path cap), on
//! archives written here byte by byte (`gamedata_testkit::rez`) and on disk folders.

use gamedata_testkit::rez::{Builder, Entry, pid};
use wap_core::{
    ErrorKind, FolderId, ImageSource, Rez, RezEntry, RezFile, RezOptions, RezProblem, WalkEntry,
};

fn source(bytes: Vec<u8>) -> ImageSource {
    ImageSource::Archive(RezFile::from_data(bytes, &Default::default()).unwrap())
}

/// Root: `A` and `A_B`; `A` holds `B` and `B_C`; `A/B` holds `C`; `A_B` holds `C`; each leaf
/// one image, numbered by its folder so that the test sees which folder answered.
fn cut_archive() -> Vec<u8> {
    let mut b = Builder::new();
    let leaf = |b: &mut Builder, n: u8| {
        let data = b.data(&pid(2, 2, n));
        let name = [b'F', b'0' + n];
        b.table(&[Entry::File {
            name: &name,
            ext: b"PID",
            data,
        }])
    };
    let abc = leaf(&mut b, 1);
    let a_bc = leaf(&mut b, 2);
    let ab_c = leaf(&mut b, 3);
    let ab = b.table(&[Entry::Dir {
        name: b"C",
        table: abc,
    }]);
    let a = b.table(&[
        Entry::Dir {
            name: b"B",
            table: ab,
        },
        Entry::Dir {
            name: b"B_C",
            table: a_bc,
        },
    ]);
    let a_b = b.table(&[Entry::Dir {
        name: b"C",
        table: ab_c,
    }]);
    let root = b.table(&[
        Entry::Dir {
            name: b"A_B",
            table: a_b,
        },
        Entry::Dir {
            name: b"A",
            table: a,
        },
    ]);
    b.finish(root)
}

#[test]
fn keys_resolve_to_the_folder_whose_first_names_are_shortest() {
    let images = source(cut_archive());
    let index = images.index(&RezOptions::default()).unwrap();
    assert!(index.problems().is_empty());
    // Root, A_B, A_B/C, A, A/B, A/B/C, A/B_C.
    assert_eq!(index.len(), 7);
    // Three folders join to A_B_C: A/B/C (names of 1, 1, 1 letters), A/B_C (1, 3) and
    // A_B/C (3, 1); trying the cuts shortest first finds A/B/C.
    let found = index.find_set("a_b_c").unwrap();
    assert_eq!(index.path(found), "A/B/C");
    assert_eq!(
        index.find_set("A_B").map(|f| index.path(f)),
        Some("A/B".into())
    );
    assert_eq!(index.find_set("A_B_C_D"), None);
    assert_eq!(index.find_set("B_C"), None);
    // Paths are exact, in any case and with either slash.
    for (path, want) in [("a/b_c", "A/B_C"), ("A_B\\c", "A_B/C"), ("A/B/C", "A/B/C")] {
        assert_eq!(
            index.folder(path).map(|f| index.path(f)),
            Some(want.into()),
            "{path}"
        );
    }
    assert_eq!(index.folder(""), Some(FolderId::ROOT));
    assert_eq!(index.folder("A/C"), None);
    // Each folder's image, by frame number and -1.
    for (path, n) in [("A/B/C", 1u32), ("A/B_C", 2), ("A_B/C", 3)] {
        let folder = index.folder(path).unwrap();
        let frames = index.frames(folder).unwrap();
        assert_eq!(frames.len(), 1);
        assert_eq!(frames.get(i64::from(n)), Some(0), "{path}");
        assert_eq!(frames.get(-1), Some(0));
        assert_eq!(frames.get(i64::from(n) + 1), None);
        assert_eq!(frames.number(0), Some(n));
        let bytes = index.image(&frames, 0).unwrap().unwrap();
        assert_eq!(bytes.as_ref(), pid(2, 2, n as u8).as_slice());
        assert_eq!(
            index.image_path(&frames, 0).unwrap(),
            format!("{path}/F{n}.PID")
        );
        assert!(index.image(&frames, 1).unwrap().is_none());
    }
    // Every lookup above that found a folder compared one folder with the name.
    assert_eq!(index.checks(), 8);
}

#[test]
fn frames_take_the_first_of_a_number_and_minus_one_the_lowest_number() {
    let mut b = Builder::new();
    let data = b.data(&pid(1, 1, 9));
    let table = b.table(&[
        Entry::File {
            name: b"FRAME007",
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"SEVEN7",
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"NODIGITS",
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"003",
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"012",
            ext: b"ANI",
            data,
        },
    ]);
    let root = b.table(&[Entry::Dir {
        name: b"SET",
        table,
    }]);
    let images = source(b.finish(root));
    let index = images.index(&RezOptions::default()).unwrap();
    let frames = index.frames(index.find_set("SET").unwrap()).unwrap();
    // The .ANI is not an image of the set.
    assert_eq!(frames.len(), 4);
    assert!(!frames.is_empty());
    // The root holds no image.
    assert!(index.frames(FolderId::ROOT).unwrap().is_empty());
    // FRAME007 and SEVEN7 are both frame 7: the first stored is tried first.
    assert_eq!(frames.get(7), Some(0));
    assert_eq!(frames.candidates(7).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(frames.get(3), Some(3));
    // A name without digits is frame 0 (C's `atoi` of an empty run), the lowest here:
    // frame -1; then 3, then the two 7s.
    assert_eq!(frames.number(2), Some(0));
    assert_eq!(frames.get(0), Some(2));
    assert_eq!(frames.get(-1), Some(2));
    assert_eq!(frames.candidates(-1).collect::<Vec<_>>(), [2, 3, 0, 1]);
    assert_eq!(frames.get(12), None);
    assert_eq!(frames.get(-2), None);
    assert_eq!(frames.candidates(-2).count(), 0);
    assert_eq!(
        index.image_path(&frames, 1).as_deref(),
        Some("SET/SEVEN7.PID")
    );
}

#[test]
fn a_folder_that_lists_itself_under_cut_names_is_read_once() {
    // The root's table holds 60 directories, A, A_A, A_A_A ..., every one pointing back at
    // the root's own table.
    let names: Vec<Vec<u8>> = (1..=60)
        .map(|k| vec!["A"; k].join("_").into_bytes())
        .collect();
    let mut b = Builder::new();
    let at = b.next_offset();
    let probe: Vec<Entry<'_>> = names
        .iter()
        .map(|n| Entry::Dir {
            name: n,
            table: (0, 0),
        })
        .collect();
    let size = gamedata_testkit::rez::table_len(&probe);
    let entries: Vec<Entry<'_>> = names
        .iter()
        .map(|n| Entry::Dir {
            name: n,
            table: (at, size),
        })
        .collect();
    let root = b.table(&entries);
    let images = source(b.finish(root));
    let index = images.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 1);
    assert_eq!(index.problems().total(), 60);
    // Trying every cut of 60 parts would be 2^59 tries; the index answers at once.
    assert_eq!(
        index.find_set(&names[59].iter().map(|&b| b as char).collect::<String>()),
        None
    );
    assert_eq!(index.checks(), 0);
}

#[test]
fn a_disk_folder_is_indexed_in_any_case_and_its_links_are_listed_once() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("Level1").join("Images").join("Arrow_Sign");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(set.join("frame002.pid"), pid(3, 1, 4)).unwrap();
    std::fs::write(set.join("FRAME001.PID"), pid(1, 1, 5)).unwrap();
    std::fs::write(set.join("notes.txt"), b"x").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("Level1"), set.join("LOOP")).unwrap();
    let images = ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
    let index = images.index(&RezOptions::default()).unwrap();
    // Root, Level1, Images, Arrow_Sign; the link back to Level1 is left out.
    assert_eq!(index.len(), 4);
    #[cfg(unix)]
    assert_eq!(index.problems().total(), 1);
    let folder = index.find_set("LEVEL1_IMAGES_ARROW_SIGN").unwrap();
    assert_eq!(index.path(folder), "Level1/Images/Arrow_Sign");
    assert_eq!(index.folder("level1/images/arrow_sign"), Some(folder));
    let frames = index.frames(folder).unwrap();
    // Name order: FRAME001.PID before frame002.pid.
    assert_eq!(frames.len(), 2);
    assert_eq!(frames.get(2), Some(1));
    assert_eq!(frames.get(-1), Some(0));
    assert_eq!(
        index.image(&frames, 1).unwrap().unwrap().as_ref(),
        pid(3, 1, 4).as_slice()
    );
    assert_eq!(
        index.image_path(&frames, 0).as_deref(),
        Some("Level1/Images/Arrow_Sign/FRAME001.PID")
    );
}

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

#[test]
fn an_entry_is_read_again_at_its_offset() {
    let bytes = cut_archive();
    let rez = Rez::parse(&bytes).unwrap();
    let root = rez.root();
    let entries: Vec<RezEntry<'_>> = rez.entries(&root).map(Result::unwrap).collect();
    let RezEntry::Dir(second) = entries[1] else {
        panic!("{:?}", entries[1]);
    };
    assert_eq!(rez.entry_at(&root, second.at), Ok(Some(entries[1])));
    // One byte into an entry: its offset field read as the kind.
    assert!(rez.entry_at(&root, second.at + 1).is_err());
    assert_eq!(
        rez.entry_at(&root, root.offset as usize + root.size as usize),
        Ok(None)
    );
    assert_eq!(rez.entry_at(&root, 0), Ok(None));
}

#[test]
fn a_source_s_files_are_found_by_path_in_any_case() {
    let archive = source(cut_archive());
    let bytes = archive.file("a/b/c/f1.pid").unwrap().unwrap();
    assert!(matches!(bytes, std::borrow::Cow::Borrowed(_)));
    assert_eq!(bytes.as_ref(), pid(2, 2, 1).as_slice());
    assert_eq!(
        archive.file("A\\B_C\\F2.PID").unwrap().unwrap().as_ref(),
        pid(2, 2, 2).as_slice()
    );
    assert!(archive.file("A/B/C/F2.PID").unwrap().is_none());
    // A folder is not a file.
    assert!(archive.file("A/B").unwrap().is_none());
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("Level1").join("Tiles");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(set.join("012.pid"), pid(1, 2, 3)).unwrap();
    std::fs::write(dir.path().join("outside.pid"), b"no").unwrap();
    let folder = ImageSource::at(set.parent().unwrap(), |p| wap_core::RezFile::open(p)).unwrap();
    assert_eq!(
        folder.file("TILES/012.PID").unwrap().unwrap().as_ref(),
        pid(1, 2, 3).as_slice()
    );
    for path in [
        "TILES/013.PID",
        "TILES",
        "../outside.pid",
        "TILES/../../outside.pid",
    ] {
        assert!(folder.file(path).unwrap().is_none(), "{path}");
    }
}

/// A root that lists itself as `D`: a path through it twice finds nothing (the lookup
/// enters no table twice), however many times the path repeats `D`.
#[test]
fn a_path_through_a_table_twice_finds_nothing() {
    let mut b = Builder::new();
    let data = b.data(b"x");
    let at = b.next_offset();
    let size = gamedata_testkit::rez::table_len(&[
        Entry::Dir {
            name: b"D",
            table: (0, 0),
        },
        Entry::File {
            name: b"F",
            ext: b"PID",
            data,
        },
    ]);
    let root = b.table(&[
        Entry::Dir {
            name: b"D",
            table: (at, size),
        },
        Entry::File {
            name: b"F",
            ext: b"PID",
            data,
        },
    ]);
    let bytes = b.finish(root);
    let rez = Rez::parse(&bytes).unwrap();
    assert!(matches!(
        rez.find("F.PID").unwrap(),
        Some(RezEntry::File(_))
    ));
    // The entry D is found; going into it enters the root's table again.
    assert!(matches!(rez.find("D").unwrap(), Some(RezEntry::Dir(_))));
    for path in [
        "D/F.PID",
        "D/D",
        "D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D",
    ] {
        assert_eq!(rez.find(path).unwrap(), None, "{path}");
        assert_eq!(rez.find_all(path).unwrap(), None, "{path}");
    }
    // The stored names of a path given in another case, one lookup.
    let chain = rez.find_all("f.pid").unwrap().unwrap();
    assert_eq!(chain.len(), 1);
    assert_eq!(rez.find_all("").unwrap(), Some(Vec::new()));
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

#[test]
fn a_disk_source_s_bounds_are_its_problems() {
    // A root that cannot be listed is an error.
    let dir = tempfile::tempdir().unwrap();
    let gone = ImageSource::Folder(dir.path().join("missing"));
    assert!(gone.index(&RezOptions::default()).is_err());
    // 40 folders nested: the 33rd and deeper are left out (one problem, where it stops).
    let mut deep = dir.path().to_path_buf();
    for i in 0..40 {
        deep = deep.join(format!("N{i}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    let tree = ImageSource::Folder(dir.path().to_path_buf());
    let index = tree.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 33);
    assert_eq!(index.problems().total(), 1);
    // A path cap of 10 bytes keeps N0/N1/N2 (8 bytes) and leaves N0/N1/N2/N3 out.
    let short = RezOptions::default().with_max_path_bytes(10);
    let index = tree.index(&short).unwrap();
    assert_eq!(index.len(), 4);
    assert!(index.folder("N0/N1/N2").is_some());
    assert_eq!(index.problems().total(), 1);
    // A path of exactly the cap (N0/N1/N2/N3, 11 bytes) is kept.
    let exact = RezOptions::default().with_max_path_bytes(11);
    let index = tree.index(&exact).unwrap();
    assert_eq!(index.len(), 5);
    assert!(index.folder("N0/N1/N2/N3").is_some());
    // Folders whose names differ only in case: the first in name order is kept.
    let twins = tempfile::tempdir().unwrap();
    std::fs::create_dir(twins.path().join("SET")).unwrap();
    std::fs::create_dir(twins.path().join("set")).unwrap();
    let twins = ImageSource::Folder(twins.path().to_path_buf());
    let index = twins.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 2);
    assert_eq!(index.path(index.folder("set").unwrap()), "SET");
    assert_eq!(index.problems().total(), 1);
}

/// A link to a folder outside the source is not followed (a link to `/` would index the
/// whole file system); hard links to one image are one file.
#[cfg(unix)]
#[test]
fn a_disk_source_stays_inside_its_folder() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(outside.path().join("OTHER")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("SET");
    std::fs::create_dir(&set).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("AWAY")).unwrap();
    std::os::unix::fs::symlink("/", dir.path().join("ROOT")).unwrap();
    std::fs::write(set.join("001.PID"), pid(2, 2, 1)).unwrap();
    std::fs::hard_link(set.join("001.PID"), set.join("002.PID")).unwrap();
    std::fs::write(set.join("003.PID"), pid(2, 2, 1)).unwrap();
    let images = ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
    let index = images.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 2);
    assert_eq!(index.problems().total(), 2);
    assert!(
        index
            .problems()
            .kept()
            .iter()
            .all(|p| p.to_string().contains("outside the source"))
    );
    let frames = index.frames(index.folder("SET").unwrap()).unwrap();
    let id = |i| index.image_identity(&frames, i).unwrap();
    assert_eq!(id(0), id(1));
    assert_ne!(id(0), id(2));
    assert_eq!(
        source(cut_archive())
            .index(&RezOptions::default())
            .unwrap()
            .image_identity(&frames, 0),
        None
    );
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

/// A path through a file, or through a folder that is not there, names nothing (not an
/// error).
#[test]
fn a_path_through_a_file_or_a_missing_folder_names_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("MAIN.PAL"), b"x").unwrap();
    let folder = ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
    for path in ["MAIN.PAL/X", "NOPE/MAIN.PAL", "NOPE/DEEPER/X"] {
        assert!(folder.file(path).unwrap().is_none(), "{path}");
    }
    assert_eq!(folder.file("main.pal").unwrap().unwrap().as_ref(), b"x");
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

/// An entry is read at an offset only inside its directory's table: the first entry of
/// another table, before or after it, is no entry of it.
#[test]
fn an_entry_is_read_only_inside_its_table() {
    let mut b = Builder::new();
    let data = b.data(b"x");
    let before = b.table(&[Entry::File {
        name: b"BEFORE",
        ext: b"PID",
        data,
    }]);
    let middle = b.table(&[Entry::File {
        name: b"MIDDLE",
        ext: b"PID",
        data,
    }]);
    let after = b.table(&[Entry::File {
        name: b"AFTER",
        ext: b"PID",
        data,
    }]);
    let root = b.table(&[
        Entry::Dir {
            name: b"B",
            table: before,
        },
        Entry::Dir {
            name: b"M",
            table: middle,
        },
        Entry::Dir {
            name: b"A",
            table: after,
        },
    ]);
    let bytes = b.finish(root);
    let rez = Rez::parse(&bytes).unwrap();
    let Some(RezEntry::Dir(m)) = rez.find("M").unwrap() else {
        panic!("no M");
    };
    let name = |at: u32| match rez.entry_at(&m, at as usize).unwrap() {
        Some(RezEntry::File(f)) => Some(f.file_name()),
        Some(RezEntry::Dir(_)) => Some("a folder".into()),
        None => None,
    };
    assert_eq!(name(middle.0).as_deref(), Some("MIDDLE.PID"));
    assert_eq!(name(before.0), None);
    assert_eq!(name(after.0), None);
}

/// A folder and a file named in Latin-1 are found by their names in UTF-8, ASCII letters
/// in any case.
#[test]
fn a_latin1_folder_is_found_by_its_text() {
    let mut b = Builder::new();
    let data = b.data(b"x");
    let inner = b.table(&[
        Entry::File {
            name: b"F",
            ext: b"PID",
            data,
        },
        Entry::File {
            name: b"\xC9",
            ext: b"PID",
            data,
        },
    ]);
    let root = b.table(&[Entry::Dir {
        name: b"\xC9T\xC9",
        table: inner,
    }]);
    let bytes = b.finish(root);
    let rez = Rez::parse(&bytes).unwrap();
    for path in ["ÉTÉ/F.PID", "ÉtÉ/f.pid", "ÉTÉ/É.PID", "ÉTÉ/É.pid"] {
        assert!(
            matches!(rez.find(path).unwrap(), Some(RezEntry::File(_))),
            "{path}"
        );
    }
    assert!(rez.find("ETE/F.PID").unwrap().is_none());
}

/// A pipe or a device at a path inside a folder source is an error, never waited on; a
/// regular file's length is given without reading it.
#[cfg(unix)]
#[test]
fn a_folder_source_reads_only_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let pal = dir.path().join("LEVEL1").join("PALETTES");
    std::fs::create_dir_all(&pal).unwrap();
    gamedata_testkit::mkfifo(&pal.join("MAIN.PAL"));
    std::fs::write(pal.join("OTHER.PAL"), [7u8; 768]).unwrap();
    std::os::unix::fs::symlink("/dev/zero", pal.join("ZERO.PAL")).unwrap();
    let source = ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
    for path in ["LEVEL1/PALETTES/MAIN.PAL", "level1/palettes/zero.pal"] {
        let err = source.file(path).unwrap_err().to_string();
        assert!(
            err.contains("not a regular file") || err.contains("a FIFO") || err.contains("device"),
            "{path}: {err}"
        );
        assert!(source.file_len(path).is_err(), "{path}");
    }
    assert_eq!(
        source.file_len("LEVEL1/PALETTES/OTHER.PAL").unwrap(),
        Some(768)
    );
    assert_eq!(source.file_len("LEVEL1/PALETTES/NONE.PAL").unwrap(), None);
    assert_eq!(
        source
            .file("LEVEL1/PALETTES/OTHER.PAL")
            .unwrap()
            .unwrap()
            .len(),
        768
    );
    // In an archive, an entry's length.
    let archive = source_of_archive();
    assert_eq!(
        archive.file_len("A/B/C/F1.PID").unwrap(),
        Some(pid(2, 2, 1).len() as u64)
    );
    assert_eq!(archive.file_len("A/NONE").unwrap(), None);
}

fn source_of_archive() -> ImageSource {
    source(cut_archive())
}
