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
        fetch.give(&data[at..at + length as usize]);
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
    f.give(&data[..10]);
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
