//! An image source's index (`ImageSource::index`) over archives written here byte by byte
//! (`gamedata_testkit::rez`): folders by path and by image-set key, frames by number, a
//! folder listing itself, entries read at their offsets only inside their tables, Latin-1
//! names. The archive builders the other `index_*` modules share.

use gamedata_testkit::rez::{Builder, Entry, pid};
use wap_core::{FolderId, ImageSource, Rez, RezEntry, RezFile, RezOptions};

pub(crate) fn source(bytes: Vec<u8>) -> ImageSource {
    ImageSource::Archive(RezFile::from_data(bytes, &Default::default()).unwrap())
}

/// Root: `A` and `A_B`; `A` holds `B` and `B_C`; `A/B` holds `C`; `A_B` holds `C`; each leaf
/// one image, numbered by its folder so that the test sees which folder answered.
pub(crate) fn cut_archive() -> Vec<u8> {
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

pub(crate) fn source_of_archive() -> ImageSource {
    source(cut_archive())
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
