//! Crafted archives shaped to multiply the work or memory of finding a level's images: one
//! folder under many names, a deep tree of long names, many image sets against a large root.
//! Work is counted by the index's own measure ([`ImageIndex::checks`]), memory by dhat.

use gamedata_testkit::heap::{self, MIB};
use gamedata_testkit::rez::{Builder, Entry, pid};
use wap_core::{ErrorKind, ImageSource, Rez, RezFile, RezOptions, RezProblem};

/// A REZ archive whose root holds `names` directory entries all pointing at one table of
/// `files` images: only the first name is indexed, and the table's listing is read once.
#[test]
fn one_folder_listed_under_many_names_is_indexed_once() {
    let serial = heap::serial();
    let mut b = Builder::new();
    let data = b.data(&pid(4, 4, 1));
    let table = b.files((0..2000).map(|i| format!("FRAME{i:04}")), b"PID", data);
    let root = b.dirs((0..50_000).map(|i| format!("D{i:05}")), table);
    let bytes = b.finish(root);
    assert!(bytes.len() > 1_200_000, "{}", bytes.len());
    let images = ImageSource::Archive(RezFile::from_data(bytes, &Default::default()).unwrap());
    let ((folders, problems, listed, found), peak) = heap::peak(&serial, || {
        let index = images.index(&RezOptions::default()).unwrap();
        let first = index.find_set("D00000").unwrap();
        let listed = index.frames(first).unwrap().len();
        let found = (1..50_000)
            .filter(|i| index.find_set(&format!("D{i:05}")).is_some())
            .count();
        (index.len(), index.problems().total(), listed, found)
    });
    assert_eq!((folders, problems, listed, found), (2, 49_999, 2000, 0));
    // The walk's ranges and name hashes, the index of two folders, 100 problems kept.
    assert!(peak < 4 * MIB, "peak heap {peak}");
}

/// 32 directories nested, each name 100,000 bytes: a walk holds one path (3.2 MB), not one
/// a level (52 MB); with the default cap the first name is refused.
#[test]
fn a_deep_tree_of_long_names_holds_one_path() {
    let serial = heap::serial();
    let mut b = Builder::new();
    let data = b.data(b"leaf");
    let mut table = b.table(&[Entry::File {
        name: b"LEAF",
        ext: b"PID",
        data,
    }]);
    let names: Vec<Vec<u8>> = (0..32)
        .map(|i| vec![b'A' + (i % 26) as u8; 100_000])
        .collect();
    for name in names.iter().take(31) {
        table = b.table(&[Entry::Dir { name, table }]);
    }
    let bytes = b.finish(table);
    let rez = Rez::parse(&bytes).unwrap();
    let unlimited = RezOptions::default().with_max_path_bytes(u64::MAX);
    let (paths, peak) = heap::peak(&serial, || {
        rez.walk_with(&rez.root(), &unlimited)
            .map(|r| r.unwrap().0.len())
            .collect::<Vec<_>>()
    });
    assert_eq!(paths, vec![31 * 100_001 + "LEAF.PID".len()]);
    // The path buffer (grown by doubling) and the one path returned.
    assert!(peak < 8 * MIB, "peak heap {peak}");
    let (items, peak) = heap::peak(&serial, || rez.walk(&rez.root()).collect::<Vec<_>>());
    assert_eq!(items.len(), 1);
    assert!(matches!(
        items[0].as_ref().unwrap_err().kind,
        ErrorKind::Rez(RezProblem::PathTooLong {
            len: 100_000,
            max: 260,
            ..
        })
    ));
    assert!(peak < MIB, "peak heap {peak}");
}

/// 10,000 image sets looked up against a root of 200,000 files: each lookup compares one
/// folder with the name (a scan of the root each would be 2 billion comparisons).
#[test]
fn many_image_sets_cost_one_check_each() {
    let serial = heap::serial();
    let mut b = Builder::new();
    let data = b.data(&pid(1, 1, 1));
    // 10,000 sets of one image each (each its own table), then a root of 200,000 files
    // and the sets' folder.
    let tables: Vec<(u32, u32)> = (0..10_000)
        .map(|_| b.files(["001".to_owned()], b"PID", data))
        .collect();
    let names: Vec<String> = (0..10_000).map(|i| format!("SET{i:05}")).collect();
    let entries: Vec<Entry<'_>> = names
        .iter()
        .zip(&tables)
        .map(|(n, &table)| Entry::Dir {
            name: n.as_bytes(),
            table,
        })
        .collect();
    let sets = b.table(&entries);
    let files = b.files((0..200_000).map(|i| format!("F{i:06}")), b"PID", data);
    let images = b.table(&[Entry::Dir {
        name: b"IMAGES",
        table: sets,
    }]);
    let root = (files.0, files.1 + images.1);
    let bytes = b.finish(root);
    assert!(bytes.len() > 6_000_000, "{}", bytes.len());
    let images = ImageSource::Archive(RezFile::from_data(bytes, &Default::default()).unwrap());
    let ((found, missing, checks), peak) = heap::peak(&serial, || {
        let index = images.index(&RezOptions::default()).unwrap();
        let found = (0..10_000)
            .filter(|i| index.find_set(&format!("IMAGES_SET{i:05}")).is_some())
            .count();
        let missing = (0..10_000)
            .filter(|i| index.find_set(&format!("IMAGES_NONE{i:05}")).is_none())
            .count();
        (found, missing, index.checks())
    });
    assert_eq!((found, missing), (10_000, 10_000));
    assert_eq!(checks, 10_000);
    // The root's 200,001 name hashes (the walk's repeat check, 3.5 MB) and 10,002 folders.
    assert!(peak < 6 * MIB, "peak heap {peak}");
}

/// A 10 MB name of a Latin-1 letter (20 MB as text) is refused by its stored length, never
/// decoded: by the walk, by a lookup and by the index.
#[test]
fn a_long_name_is_refused_before_it_is_decoded() {
    let serial = heap::serial();
    let mut b = Builder::new();
    let data = b.data(&pid(1, 1, 1));
    let name = vec![0xE9u8; 10_000_000];
    let inner = b.files(["001".to_owned()], b"PID", data);
    let root = b.table(&[
        Entry::Dir {
            name: &name,
            table: inner,
        },
        Entry::File {
            name: &name,
            ext: b"PID",
            data,
        },
    ]);
    let bytes = b.finish(root);
    let rez = Rez::parse(&bytes).unwrap();
    let images =
        ImageSource::Archive(RezFile::from_data(bytes.clone(), &Default::default()).unwrap());
    let ((walked, found, folders), peak) = heap::peak(&serial, || {
        let walked: Vec<_> = rez.walk(&rez.root()).collect();
        let found = rez.find("\u{e9}\u{e9}/001.PID").unwrap();
        let index = images.index(&RezOptions::default()).unwrap();
        (walked, found, index.len())
    });
    assert_eq!(walked.len(), 2);
    for item in &walked {
        assert!(matches!(
            item.as_ref().unwrap_err().kind,
            ErrorKind::Rez(RezProblem::PathTooLong {
                len: 10_000_000..,
                max: 260,
                ..
            })
        ));
    }
    assert_eq!((found, folders), (None, 1));
    assert!(peak < MIB, "peak heap {peak}");
}

/// 20,000 animations under folders whose path nears the path cap: the registry keeps a
/// hash a key (24 bytes), not its 250 bytes of text, and every key is found again,
/// checked against its path.
#[test]
fn an_animation_registry_keeps_no_key_text() {
    let serial = heap::serial();
    let mut b = Builder::new();
    let data = b.data(&pid(2, 2, 1));
    let ani = b.data(&gamedata_testkit::ani::bytes(
        b"",
        &[gamedata_testkit::ani::Record::show(1, 10)],
    ));
    let files = b.files((0..20_000).map(|i| format!("A{i:05}")), b"ANI", ani);
    // Five nested folders of 45 bytes below LEVEL1/ANIS.
    let long: Vec<String> = (0..5)
        .map(|i| format!("{}", char::from(b'K' + i)).repeat(45))
        .collect();
    let mut table = files;
    for name in long.iter().rev() {
        table = b.dirs([name.clone()], table);
    }
    let set = b.files(["F1".to_owned()], b"PID", data);
    let images = b.dirs(["X".to_owned()], set);
    let level = b.table(&[
        Entry::Dir {
            name: b"IMAGES",
            table: images,
        },
        Entry::Dir {
            name: b"ANIS",
            table,
        },
    ]);
    let root = b.dirs(["LEVEL1".to_owned()], level);
    let bytes = b.finish(root);
    let size = bytes.len() as u64;
    let source = ImageSource::Archive(RezFile::from_data(bytes, &Default::default()).unwrap());
    let index = source.index(&RezOptions::default()).unwrap();
    let names = wap_core::ImageNames {
        tiles: "LEVEL1/TILES".into(),
        palette: String::new(),
        prefixes: vec![("LEVEL".into(), "LEVEL1_IMAGES".into())],
    };
    let (anis, peak) = heap::peak(&serial, || index.animations(&names));
    assert_eq!(anis.len(), 20_000);
    // The listing (20 bytes a file) and the hashes (24 a key), with the vectors' growth
    // and the sort's buffer: about 100 bytes a file at the peak, far under the 5 MB of
    // the keys' text alone.
    // 2.05 MB measured for an archive of 0.72 MB (36 bytes a file).
    assert!(peak < 3 * size, "peak heap {peak}, archive {size}");
    let prefix = format!("LEVEL_{}", long.join("_"));
    assert!(prefix.len() > 230);
    let found = (0..20_000)
        .filter(|i| {
            index
                .find_animation(&anis, format!("{prefix}_a{i:05}").as_bytes())
                .is_some()
        })
        .count();
    assert_eq!(found, 20_000);
    assert!(
        index
            .find_animation(&anis, format!("{prefix}_A20000").as_bytes())
            .is_none()
    );
}
