//! REZ archives read by ranges (`RezFetch`, `RezTables`): the same tree as read whole, on
//! the writer's archives, crafted trees, random corruptions and GRUNTZ.REZ's tree
//! (`GAMEDATA_DIR`); the tables alone held, each kept once; hostile trees given up within
//! the budget.

use gamedata_testkit::rez::{Builder, Entry};
use wap_core::{Rez, RezEntry, RezFetch, RezOptions, RezTables, write_rez};

/// A fetch's end: the tables, none (given up) or the whole archive's error.
type Fetched = Result<Option<RezTables>, wap_core::DataError>;

/// `data` read by ranges, with the ranges asked.
fn fetch(data: &[u8]) -> (Fetched, Vec<(u64, u32)>) {
    let mut fetch = RezFetch::new(data.len() as u64, &RezOptions::default());
    let mut asked = Vec::new();
    while let Some((offset, length)) = fetch.wanted() {
        asked.push((offset, length));
        let at = offset as usize;
        fetch.give(data[at..at + length as usize].to_vec());
    }
    (fetch.finish(), asked)
}

/// Every file of a walk: path, range and the entry's offset.
fn files(rez: &Rez<'_>) -> Vec<(String, u32, u32, usize)> {
    rez.walk(&rez.root())
        .map(|item| {
            let (path, file) = item.unwrap();
            (path, file.offset, file.size, file.at)
        })
        .collect()
}

#[test]
fn the_writer_s_archive_read_by_its_tables_is_the_whole_archive_s_tree() {
    let big = vec![9u8; 300_000];
    let listed: Vec<(String, Vec<u8>)> = (0..200)
        .map(|i| {
            let path = format!("LEVEL{}/IMAGES/SET{}/FRAME{i:03}.PID", i % 3, i % 7);
            let bytes = if i == 5 {
                big.clone()
            } else {
                vec![i as u8; 40]
            };
            (path, bytes)
        })
        .collect();
    let given: Vec<(&str, &[u8])> = listed
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let data = write_rez(&given).unwrap();
    let whole = Rez::parse(&data).unwrap();
    let (tables, asked) = fetch(&data);
    let tables = tables.unwrap().expect("the tables fit the budget");
    let view = tables.view();
    assert!(!view.is_whole());
    assert_eq!(files(&view), files(&whole));
    assert_eq!(files(&view).len(), 200);
    // The header, the root, 3 LEVEL directories, their IMAGES, and each level's sets.
    let dirs = whole
        .walk(&whole.root())
        .map(|i| i.unwrap().0)
        .map(|p| p.rsplit_once('/').unwrap().0.to_owned())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    assert_eq!(dirs, 21);
    assert_eq!(tables.table_count(), 1 + 3 + 3 + dirs);
    // The writer lays the tables together: the header, then one range holds them all,
    // reaching 64 KiB past the root's table or to the archive's end.
    assert_eq!(asked.len(), 2, "{asked:?}");
    let (offset, length) = asked[1];
    assert_eq!(
        offset + u64::from(length),
        (offset + (64 << 10)).min(data.len() as u64)
    );
    // Kept: the header and tables alone, not the files' bytes.
    let stored: u64 = listed.iter().map(|(_, b)| b.len() as u64).sum();
    assert_eq!(
        tables.held_bytes(),
        data.len() as u64 - stored,
        "the header and tables: the rest are files"
    );
    // A file found by its path, in any case, has its range; read there, its bytes.
    let file = view
        .file("level2/images/set5/frame005.pid")
        .unwrap()
        .unwrap();
    assert!(file.bytes.is_empty());
    let at = file.offset as usize;
    assert_eq!(&data[at..at + file.size as usize], &big[..]);
    match view.find("LEVEL1/IMAGES").unwrap() {
        Some(RezEntry::Dir(d)) => assert_eq!(d.name, b"IMAGES"),
        other => panic!("{other:?}"),
    }
    assert_eq!(view.len(), data.len());
    assert!(view.bytes().is_empty());
    assert_eq!(tables.len(), data.len() as u64);
    assert!(!tables.is_empty());
}

#[test]
fn crafted_and_corrupted_archives_read_the_same_both_ways() {
    // The exercise's property compares both ways (and panics on a difference): the
    // seeds' shapes, then random corruptions of a writer's archive.
    let files: Vec<(String, Vec<u8>)> = (0..40)
        .map(|i| (format!("A{}/B{}/F{i}.PID", i % 4, i % 5), vec![i as u8; 30]))
        .collect();
    let given: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let data = write_rez(&given).unwrap();
    let mut rng = gamedata_testkit::rng(59);
    let mut compared = 0;
    for round in 0..1_500 {
        let mut bad = data.clone();
        for _ in 0..1 + round % 4 {
            let at = gamedata_testkit::below(&mut rng, bad.len());
            bad[at] = gamedata_testkit::below(&mut rng, 256) as u8;
        }
        if round % 5 == 0 {
            bad.truncate(gamedata_testkit::below(&mut rng, data.len()));
        }
        gamedata_exercise::wwd::rez(&bad);
        compared += usize::from(matches!(fetch(&bad).0, Ok(Some(_))));
    }
    assert!(
        compared > 500,
        "{compared} archives compared by their trees"
    );
}

#[test]
fn a_tree_pointing_into_itself_is_read_once_a_table() {
    // Directory A's table is the root's: the walk reports the loop both ways; the root's
    // table is read once.
    let mut b = Builder::new();
    let root_at = b.next_offset();
    let root_len = Entry::Dir {
        name: b"A",
        table: (0, 0),
    }
    .len()
        + Entry::File {
            name: b"F",
            ext: b"PID",
            data: (0, 0),
        }
        .len();
    let data_at = root_at + root_len;
    let root = b.table(&[
        Entry::Dir {
            name: b"A",
            table: (root_at, root_len),
        },
        Entry::File {
            name: b"F",
            ext: b"PID",
            data: (data_at, 4),
        },
    ]);
    b.data(b"four");
    let data = b.finish(root);
    let (tables, asked) = fetch(&data);
    // The root's range reaches the archive's end (its read-ahead); A's table is found in
    // it, already kept.
    let rest = u32::try_from(data.len()).unwrap() - root_at;
    assert_eq!(asked, [(0, 168), (u64::from(root_at), rest)]);
    assert_eq!(tables.as_ref().unwrap().as_ref().unwrap().table_count(), 1);
    let tables = tables.unwrap().unwrap();
    let whole = Rez::parse(&data).unwrap();
    let walk = |rez: &Rez<'_>| -> Vec<String> {
        rez.walk(&rez.root())
            .map(|i| match i {
                Ok((p, _)) => p,
                Err(e) => e.to_string(),
            })
            .collect()
    };
    assert_eq!(walk(&tables.view()), walk(&whole));
    assert!(
        walk(&whole).iter().any(|s| s.contains("loops")),
        "{:?}",
        walk(&whole)
    );
}

#[test]
fn tables_past_the_budget_are_given_up_before_they_are_asked() {
    // 400 directories, each pointing at a table from its own offset to the archive's end:
    // each table distinct, together far more than the archive (a quadratic sum).
    let mut b = Builder::new();
    let names: Vec<String> = (0..400).map(|i| format!("D{i}")).collect();
    let len_of_root: u32 = names
        .iter()
        .map(|n| {
            Entry::Dir {
                name: n.as_bytes(),
                table: (0, 0),
            }
            .len()
        })
        .sum();
    let root_at = b.next_offset();
    let filler = 3_000_000u32;
    let end = root_at + len_of_root + filler;
    let entries: Vec<Entry<'_>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let at = root_at + i as u32;
            Entry::Dir {
                name: n.as_bytes(),
                table: (at, end - at),
            }
        })
        .collect();
    let root = b.table(&entries);
    b.data(&vec![0u8; filler as usize]);
    let data = b.finish(root);
    let (tables, asked) = fetch(&data);
    assert!(
        tables.unwrap().is_none(),
        "given up: the caller reads whole"
    );
    let read: u64 = asked.iter().map(|&(_, l)| u64::from(l)).sum();
    let budget = data.len() as u64 / 2 + (1 << 20) + 168;
    assert!(read <= budget, "{read} of {budget}");
    assert!(asked.len() < 10, "{} ranges", asked.len());
}

#[test]
fn bad_headers_fail_as_the_whole_archive_fails() {
    let data = write_rez(&[("A/B.PID", b"b")]).unwrap();
    let mut cases = vec![data[..100].to_vec(), Vec::new()];
    let mut version = data.clone();
    version[127] = 2;
    cases.push(version);
    let mut root = data.clone();
    root[131..135].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push(root);
    for bad in cases {
        let (tables, _) = fetch(&bad);
        let whole = Rez::parse(&bad).unwrap_err().to_string();
        assert_eq!(tables.unwrap_err().to_string(), whole);
    }
    // A range given back short: the fetch gives up (the caller reads whole).
    let mut f = RezFetch::new(data.len() as u64, &RezOptions::default());
    f.give(data[..10].to_vec());
    assert!(f.wanted().is_none());
    assert!(f.finish().unwrap().is_none());
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn gruntz_rez_s_tree_read_by_its_tables() {
    let list =
        std::fs::read_to_string(gamedata_testkit::require_file("wap32/gruntz-rez-paths.txt"))
            .unwrap();
    let paths: Vec<String> = list
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.replace('\\', "/"))
        .collect();
    // Each file 1 KiB: the tables are a small part of the archive, as in the real one.
    let body = vec![7u8; 1024];
    let given: Vec<(&str, &[u8])> = paths.iter().map(|p| (p.as_str(), &body[..])).collect();
    let data = write_rez(&given).unwrap();
    let whole = Rez::parse(&data).unwrap();
    let (tables, asked) = fetch(&data);
    let tables = tables.unwrap().unwrap();
    assert_eq!(files(&tables.view()), files(&whole));
    assert_eq!(files(&whole).len(), 22_827);
    // One range a directory, each once, and their bytes a small share of the archive.
    let mut dirs = std::collections::BTreeSet::new();
    for (path, ..) in files(&whole) {
        let mut at = path.as_str();
        while let Some((parent, _)) = at.rsplit_once('/') {
            dirs.insert(parent.to_owned());
            at = parent;
        }
    }
    // Every directory's table kept once, the root's too, from a few ranges (the writer lays
    // the tables together, 64 KiB a range).
    assert_eq!(tables.table_count(), dirs.len() + 1);
    assert!(asked.len() < 40, "{} ranges", asked.len());
    assert!(tables.held_bytes() < data.len() as u64 / 20);
}

// Faults an attack found, kept as tests.

#[test]
fn a_directory_pointing_at_the_header_reads_as_the_whole_archive() {
    // The root's table is the header's 168 bytes: read as a table by ranges too (a range
    // the fetch asked before), and the same errors both ways.
    let mut b = Builder::new();
    b.data(b"pad");
    let data = b.finish((0, 168));
    let (tables, asked) = fetch(&data);
    assert_eq!(asked[0], (0, 168));
    assert!(asked.len() <= 2, "{asked:?}");
    assert!(tables.unwrap().is_some());
    gamedata_exercise::wwd::rez(&data);
}

#[test]
fn an_entry_read_where_no_listed_directory_leads_names_a_table_not_read() {
    // The root lists A, then an entry of kind 5 (its listing stops there), then B, whose
    // table is A's first entry alone: B is read by entry_at, and its table was not read.
    let f1 = Entry::File {
        name: b"SECRET",
        ext: b"PID",
        data: (0, 4),
    };
    let f2 = Entry::File {
        name: b"OTHER",
        ext: b"PID",
        data: (0, 4),
    };
    let mut b = Builder::new();
    let sub = b.table(&[f1, f2]);
    let root_at = b.next_offset();
    let a = Entry::Dir {
        name: b"A",
        table: sub,
    };
    let x = Entry::Dir {
        name: b"X",
        table: (0, 0),
    };
    let h = Entry::Dir {
        name: b"B",
        table: (sub.0, f1.len()),
    };
    let root = b.table(&[a, x, h]);
    let mut data = b.finish(root);
    data[(root_at + a.len()) as usize] = 5;
    let at = (root_at + a.len() + x.len()) as usize;
    let whole = Rez::parse(&data).unwrap();
    let tables = fetch(&data).0.unwrap().unwrap();
    let view = tables.view();
    let Some(RezEntry::Dir(d)) = view.entry_at(&view.root(), at).unwrap() else {
        panic!("B is a directory entry")
    };
    assert_eq!(whole.entries(&d).count(), 1);
    let e = view.entries(&d).next().unwrap().unwrap_err();
    assert_eq!(
        e.kind(),
        wap_core::ErrorKind::Rez(wap_core::RezProblem::TableNotRead {
            offset: sub.0,
            size: f1.len()
        })
    );
    assert!(e.to_string().contains("were not read"), "{e}");
    // What the listing reaches is the same both ways.
    gamedata_exercise::wwd::rez(&data);
}

#[test]
fn a_file_of_no_bytes_past_the_end_reads_as_the_whole_archive() {
    let mut b = Builder::new();
    let root = b.table(&[Entry::File {
        name: b"E",
        ext: b"PID",
        data: (1_000_000, 0),
    }]);
    let data = b.finish(root);
    gamedata_exercise::wwd::rez(&data);
    let tables = fetch(&data).0.unwrap().unwrap();
    let file = tables.view().file("E.PID").unwrap().unwrap();
    assert_eq!((file.offset, file.size), (1_000_000, 0));
}

#[test]
fn a_table_listing_more_directories_than_the_budget_is_given_up_in_its_reading() {
    // A root of 200,000 directories, each with its own table of 1 byte: what they cost to
    // keep track of passes the budget while the root is read.
    let mut b = Builder::new();
    let root_at = b.next_offset();
    let root = b.sliding_dirs("D", 200_000, root_at, 1);
    // Room in the budget to read the root (4.6 MB) twice over.
    b.data(&vec![0; 16 << 20]);
    let data = b.finish(root);
    let (tables, asked) = fetch(&data);
    assert!(tables.unwrap().is_none(), "given up");
    assert_eq!(asked.len(), 2, "the header and the root alone");
}

#[test]
fn small_tables_overlapping_in_one_range_are_each_counted() {
    // 60,000 tables of 4 KiB, each starting a byte after the last, all inside the first
    // range read (64 KiB): each kept is counted, so the fetch gives up past the budget
    // (240 MB of tables from one range), not after keeping them all.
    let mut b = Builder::new();
    let region = b.data(&vec![0u8; 70_000]);
    let root = b.sliding_dirs("S", 60_000, region.0, 4096);
    b.data(&vec![0; 4 << 20]);
    let data = b.finish(root);
    let (tables, asked) = fetch(&data);
    assert!(tables.unwrap().is_none(), "given up");
    let read: u64 = asked.iter().map(|&(_, l)| u64::from(l)).sum();
    assert!(read < data.len() as u64 / 2 + (1 << 20), "{read}");
    assert!(asked.len() <= 3, "{} ranges", asked.len());
}

// Tests from mutation testing of `RezFetch`.

#[test]
fn a_fetch_stopped_early_gives_no_tables() {
    let data = write_rez(&[("A/B.PID", b"b"), ("C/D.PID", b"d")]).unwrap();
    let mut f = RezFetch::new(data.len() as u64, &RezOptions::default());
    let (offset, length) = f.wanted().unwrap();
    f.give(data[offset as usize..(offset + u64::from(length)) as usize].to_vec());
    assert!(f.wanted().is_some(), "the root is wanted next");
    assert!(f.finish().unwrap().is_none());
}

#[test]
fn a_directory_of_no_bytes_is_not_asked_for() {
    let mut b = Builder::new();
    let root = b.table(&[
        Entry::Dir {
            name: b"EMPTY",
            table: (168, 0),
        },
        Entry::File {
            name: b"F",
            ext: b"PID",
            data: (0, 4),
        },
    ]);
    let data = b.finish(root);
    let (tables, asked) = fetch(&data);
    assert_eq!(asked.len(), 2, "{asked:?}");
    let tables = tables.unwrap().unwrap();
    assert_eq!(tables.table_count(), 1);
    let whole = Rez::parse(&data).unwrap();
    assert_eq!(files(&tables.view()), files(&whole));
}

#[test]
fn read_ahead_stops_at_half_the_budget_and_the_rest_is_read_table_by_table() {
    // 200 tables of one file entry, 100 KiB apart (20 MB): a range of 64 KiB each would
    // pass half the budget; past it, each range is its table alone, and all are kept.
    let mut b = Builder::new();
    let mut dirs = Vec::new();
    for i in 0..200 {
        let table = b.table(&[Entry::File {
            name: b"F",
            ext: b"PID",
            data: (0, 4),
        }]);
        dirs.push((format!("D{i:03}"), table));
        b.data(&vec![0u8; 100 << 10]);
    }
    let entries: Vec<Entry<'_>> = dirs
        .iter()
        .map(|(n, t)| Entry::Dir {
            name: n.as_bytes(),
            table: *t,
        })
        .collect();
    let root = b.table(&entries);
    let data = b.finish(root);
    let (tables, asked) = fetch(&data);
    let tables = tables.unwrap().expect("all kept");
    assert_eq!(tables.table_count(), 201);
    let ahead = asked.iter().filter(|&&(_, l)| l == 64 << 10).count();
    assert!(ahead > 10 && ahead < 150, "{ahead} ranges read ahead");
    assert!(
        asked[2..].iter().rev().take(20).all(|&(_, l)| l < 1000),
        "{asked:?}"
    );
    let read: u64 = asked.iter().map(|&(_, l)| u64::from(l)).sum();
    assert!(read <= data.len() as u64 / 4 + (1 << 19) + 65_536, "{read}");
}

#[test]
fn a_table_past_the_budget_after_a_root_read_alone_is_not_asked() {
    // The root at the archive's end (read alone, its range its table), listing a table of
    // 3 MB: more than the budget (2.5 MB): given up without asking it.
    let mut b = Builder::new();
    let big = b.data(&vec![0u8; 3 << 20]);
    let root = b.table(&[Entry::Dir {
        name: b"BIG",
        table: big,
    }]);
    let data = b.finish(root);
    let (tables, asked) = fetch(&data);
    assert!(tables.unwrap().is_none(), "given up");
    assert_eq!(asked.len(), 2, "{asked:?}");
}

#[test]
fn large_tables_overlapping_in_one_range_are_each_counted() {
    // 2,000 tables of 32 KiB inside one range of 64 KiB: meeting them is cheap (96 KB),
    // keeping them is 64 MB: given up as they are kept from the range.
    let mut b = Builder::new();
    let region = b.data(&vec![0u8; 70_000]);
    let root = b.sliding_dirs("L", 2_000, region.0, 32 << 10);
    b.data(&vec![0; 1 << 20]);
    let data = b.finish(root);
    let (tables, asked) = fetch(&data);
    assert!(tables.unwrap().is_none(), "given up");
    assert!(asked.len() <= 3, "{asked:?}");
}

/// An archive's bytes read by range, each range counted.
struct Ranges {
    data: std::sync::Arc<Vec<u8>>,
    asked: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl wap_core::ReadRange for Ranges {
    fn read_range(&self, offset: u64, length: u32) -> Result<Vec<u8>, gamedata_io::FileError> {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let at = offset as usize;
        self.data
            .get(at..at + length as usize)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| gamedata_io::FileError::io("test", std::io::Error::other("past")))
    }
}

#[test]
fn an_image_source_of_tables_indexes_lists_and_reads_as_the_whole_archive() {
    use wap_core::{ImageSource, RangedArchive, RezFile};
    let data = wap_core::synth::level_archive(&wap_core::synth::level(3, 20, 16)).unwrap();
    let whole =
        ImageSource::Archive(RezFile::from_data(data.clone(), &Default::default()).unwrap());
    let tables = fetch(&data).0.unwrap().unwrap();
    let asked = std::sync::Arc::default();
    let ranged = ImageSource::Tables(RangedArchive::new(
        std::sync::Arc::new(tables),
        Box::new(Ranges {
            data: std::sync::Arc::new(data.clone()),
            asked: std::sync::Arc::clone(&asked),
        }),
    ));
    assert!(format!("{ranged:?}").contains("RangedArchive"));
    let options = RezOptions::default();
    let (a, b) = (
        whole.index(&options).unwrap(),
        ranged.index(&options).unwrap(),
    );
    assert_eq!(a.len(), b.len());
    assert!(a.len() > 5);
    let mut images = 0;
    for (fa, fb) in a.folders().zip(b.folders()) {
        assert_eq!(a.path(fa), b.path(fb));
        assert_eq!(b.folder(&a.path(fa)), Some(fb));
        let (la, lb) = (a.frames(fa).unwrap(), b.frames(fb).unwrap());
        assert_eq!(la.len(), lb.len(), "{}", a.path(fa));
        for i in 0..la.len() {
            assert_eq!(la.number(i), lb.number(i));
            assert_eq!(a.image_path(&la, i), b.image_path(&lb, i));
            let (ia, ib) = (a.image(&la, i).unwrap(), b.image(&lb, i).unwrap());
            assert_eq!(ia, ib);
            images += usize::from(ia.is_some());
            let path = a.image_path(&la, i).unwrap();
            assert_eq!(whole.file(&path).unwrap(), ranged.file(&path).unwrap());
            assert_eq!(
                whole.file_len(&path).unwrap(),
                ranged.file_len(&path).unwrap()
            );
        }
    }
    assert!(images > 20, "{images} images compared");
    // Each image and file read by its range, no other read.
    assert_eq!(asked.load(std::sync::atomic::Ordering::Relaxed), 2 * images);
    assert!(ranged.file("NO/SUCH.PID").unwrap().is_none());
    assert!(ranged.file_len("NO/SUCH.PID").unwrap().is_none());
    // A file past the stream cap is an error that says so, not a read.
    let view = wap_core::Rez::parse(&data).unwrap();
    let (_, first) = view.walk(&view.root()).next().unwrap().unwrap();
    let ImageSource::Tables(r) = &ranged else {
        unreachable!()
    };
    let exact = gamedata_io::Limits::default().with_max_stream_bytes(u64::from(first.size));
    assert_eq!(r.read(&first, &exact).unwrap(), first_bytes(&data, &first));
    let small = gamedata_io::Limits::default().with_max_stream_bytes(1);
    let e = r.read(&first, &small).unwrap_err();
    assert!(
        e.to_string().contains("max_stream_bytes") || format!("{e:?}").contains("max_stream_bytes"),
        "{e:?}"
    );
}

/// The bytes of `file` in the archive `data`.
fn first_bytes(data: &[u8], file: &wap_core::RezFileEntry<'_>) -> Vec<u8> {
    data[file.offset as usize..(file.offset + file.size) as usize].to_vec()
}

#[test]
fn an_image_source_of_tables_lists_the_root_s_own_images() {
    use wap_core::{FolderId, ImageSource, RangedArchive, RezFile};
    let pid = gamedata_testkit::rez::pid(3, 2, 4);
    let data = write_rez(&[("FRAME001.PID", &pid[..]), ("B/FRAME002.PID", &pid[..])]).unwrap();
    let whole =
        ImageSource::Archive(RezFile::from_data(data.clone(), &Default::default()).unwrap());
    let ranged = ImageSource::Tables(RangedArchive::new(
        std::sync::Arc::new(fetch(&data).0.unwrap().unwrap()),
        Box::new(Ranges {
            data: std::sync::Arc::new(data.clone()),
            asked: std::sync::Arc::default(),
        }),
    ));
    let options = RezOptions::default();
    for source in [&whole, &ranged] {
        let index = source.index(&options).unwrap();
        let root = index.frames(FolderId::ROOT).unwrap();
        assert_eq!(root.len(), 1);
        assert_eq!(root.number(0), Some(1));
        assert_eq!(index.image(&root, 0).unwrap().unwrap(), &pid[..]);
    }
}
