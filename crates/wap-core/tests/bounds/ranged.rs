//! A REZ archive read by ranges (`RezFetch`): what the fetch holds, measured by dhat, stays
//! within its budget (half the archive plus 1 MiB), however many directories a table lists
//! or however its tables overlap.

use gamedata_testkit::heap::{self, MIB};
use gamedata_testkit::rez::{Builder, Entry};
use wap_core::{RezFetch, RezOptions};

/// `data` fetched by ranges (the ranges copied as a page's reads are); whether the tables
/// came, and the peak heap of the fetch (the archive itself not counted). `serial` is
/// taken before the archive is made, so that no other test measures meanwhile.
fn fetched(serial: &heap::Serial, data: &[u8]) -> (bool, u64) {
    heap::peak(serial, || {
        let mut fetch = RezFetch::new(data.len() as u64, &RezOptions::default());
        while let Some((offset, length)) = fetch.wanted() {
            let at = offset as usize;
            fetch.give(data[at..at + length as usize].to_vec());
        }
        fetch.finish().unwrap().is_some()
    })
}

#[test]
fn a_table_of_many_directories_is_given_up_within_the_budget() {
    let serial = heap::serial();
    // 400,000 directories in the root, each with its own table of 1 byte: 9.6 MB of root,
    // and 48 bytes of bookkeeping each would be 19 MB more.
    let mut b = Builder::new();
    let root_at = b.next_offset();
    let root = b.sliding_dirs("D", 400_000, root_at, 1);
    // Room in the budget to read the root (twice its bytes counted: read and kept).
    b.data(&vec![0; 40 << 20]);
    let data = b.finish(root);
    let budget = data.len() as u64 / 2 + MIB;
    let (came, peak) = fetched(&serial, &data);
    assert!(!came, "given up");
    // The root's range, kept as its table (held once, counted twice), and the directories
    // met before the budget: within the budget less the root's second count.
    let held = budget - u64::from(root.1) + MIB;
    assert!(peak < held, "peak heap {peak} of {held}");
}

#[test]
fn overlapping_tables_are_each_counted_within_the_budget() {
    let serial = heap::serial();
    // 3,000 directories whose tables are windows of one 1 MB region, each starting a byte
    // later: each distinct, each kept and counted.
    let mut b = Builder::new();
    let region = b.data(&vec![0u8; 1 << 20]);
    let names: Vec<String> = (0..3_000).map(|i| format!("W{i}")).collect();
    let entries: Vec<Entry<'_>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| Entry::Dir {
            name: n.as_bytes(),
            table: (region.0 + i as u32, region.1 - i as u32),
        })
        .collect();
    let root = b.table(&entries);
    b.data(&vec![0; 8 << 20]);
    let data = b.finish(root);
    let budget = data.len() as u64 / 2 + MIB;
    let (came, peak) = fetched(&serial, &data);
    assert!(!came, "given up: 3 GB of windows");
    assert!(
        peak < budget + 2 * MIB,
        "peak heap {peak} of a budget of {budget}"
    );
}
