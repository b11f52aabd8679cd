//! A picture UOP read by ranges (`UopFetch`, `UopIndex::from_tables`): the same slots and
//! the same errors as from the whole bytes, without reading the pictures, on good,
//! corrupted and hostile containers.

use mul_core::art::write::{art_to_uop, synthetic_art_sized};
use mul_core::gump::write::{
    GumpCompression, gumps_to_compressed_uop, gumps_to_uop, synthetic_gumps,
};
use mul_core::uop::{UopFetch, UopTables};
use mul_core::{Art, DecodedGump, Gumps, Limits, Uop, UopIndex, UopPictures};

use crate::gump::pixels;

/// What a fetch over `data` read: the tables (`None`: given up), the ranges asked for and
/// their bytes in all.
struct Fetched {
    tables: Option<UopTables>,
    ranges: usize,
    bytes: u64,
}

fn fetch(data: &[u8], limits: &Limits, pictures: Option<UopPictures>) -> Fetched {
    let mut fetch = UopFetch::new(data.len() as u64, limits);
    if pictures == Some(UopPictures::Gumps) {
        fetch = fetch.with_gump_sizes();
    }
    let (mut ranges, mut bytes) = (0, 0);
    while let Some((at, size)) = fetch.wanted() {
        let (at, size) = (at as usize, size as usize);
        assert!(
            at + size <= data.len(),
            "a range past the end: {at} + {size}"
        );
        ranges += 1;
        bytes += size as u64;
        assert!(ranges <= data.len() / 4 + 4, "too many ranges");
        fetch.give(data[at..at + size].to_vec());
    }
    Fetched {
        tables: fetch.finish(),
        ranges,
        bytes,
    }
}

/// The slots built from the whole bytes and by ranges, compared: records, compressed
/// marks, problems (each slot's sentence) or the error's sentence.
fn same_both_ways(data: &[u8], limits: &Limits, pictures: UopPictures) -> Fetched {
    let whole = UopIndex::build(data, limits, pictures);
    let fetched = fetch(data, limits, Some(pictures));
    let Some(tables) = &fetched.tables else {
        return fetched;
    };
    let ranged = UopIndex::from_tables(tables, limits, pictures);
    match (&whole, &ranged) {
        (Ok(whole), Ok(ranged)) => {
            assert_eq!(whole.records(), ranged.records());
            assert_eq!(whole.problems(), ranged.problems());
            for slot in 0..whole.records().len() {
                assert_eq!(whole.is_compressed(slot), ranged.is_compressed(slot));
                assert_eq!(
                    whole.problem(data, slot).map(|e| e.to_string()),
                    ranged.problem_in(tables, slot).map(|e| e.to_string()),
                    "slot {slot}"
                );
            }
        }
        (Err(whole), Err(ranged)) => assert_eq!(whole.to_string(), ranged.to_string()),
        _ => panic!(
            "whole {:?} but by ranges {:?}",
            whole.as_ref().err(),
            ranged.as_ref().err()
        ),
    }
    fetched
}

#[test]
fn art_by_ranges_has_the_wholes_slots_and_reads_only_its_table() {
    let (index, data) = synthetic_art_sized(7, 300, 2_000);
    let art = Art::parse(&index, &data).unwrap();
    let uop = art_to_uop(&art).unwrap().files;
    let fetched = same_both_ways(&uop, &Limits::default(), UopPictures::Art);
    let tables = fetched.tables.as_ref().expect("not given up");
    // The header, then each block in one range, or two when it holds more entries than
    // the block before (the first is guessed to hold 100); the last block may be read
    // with room for as many entries as the block before.
    let whole = Uop::parse(&uop, &Limits::default()).unwrap();
    assert!(
        fetched.ranges <= 1 + 2 * whole.table_blocks(),
        "{}",
        fetched.ranges
    );
    let table_bytes = 28 + 12 * whole.table_blocks() as u64 + 34 * whole.table_entries() as u64;
    let last_block_room = 34 * u64::from(whole.header().block_capacity.get());
    assert!(
        fetched.bytes <= table_bytes + last_block_room,
        "{} bytes read of a table of {table_bytes}",
        fetched.bytes
    );
    // What is kept: the header and each block exactly, with 48 bytes a range.
    assert!(tables.held_bytes() <= fetched.bytes + 48 * fetched.ranges as u64);
    assert!(
        tables.held_bytes() >= table_bytes,
        "{}",
        tables.held_bytes()
    );
    assert_eq!(tables.len(), uop.len() as u64);
    assert!(!tables.is_empty());
    assert!(
        uop.len() as u64 > 10 * fetched.bytes,
        "the pictures were not read"
    );
    // A picture read alone from its record's range is the whole-bytes art's.
    let ranged = UopIndex::from_tables(tables, &Limits::default(), UopPictures::Art).unwrap();
    let whole_index = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    let whole = Art::from_uop(&whole_index, &uop);
    for id in [0u16, 1, 150, 299] {
        let r = ranged.records()[usize::from(id)];
        let alone = &uop[r.offset.get() as usize..][..r.length.get() as usize];
        assert_eq!(alone, whole.entry(u32::from(id)).unwrap().unwrap());
    }
}

#[test]
fn gumps_by_ranges_decode_alone_as_from_the_whole_bytes() {
    let (index, data) = synthetic_gumps(5);
    let mul = Gumps::parse(&index, &data).unwrap();
    let plain = gumps_to_uop(&mul).unwrap().files;
    let fetched = same_both_ways(&plain, &Limits::default(), UopPictures::Gumps);
    // Each gump stored as is gives its 8 bytes of size: a range each.
    assert!(fetched.ranges > 190, "{}", fetched.ranges);
    // Without the gumps' sizes, gumps stored as is are slots that cannot be taken.
    let no_heads = fetch(&plain, &Limits::default(), None).tables.unwrap();
    let index = UopIndex::from_tables(&no_heads, &Limits::default(), UopPictures::Gumps).unwrap();
    assert!(index.problems() > 190);
    for how in [GumpCompression::ZlibBwt, GumpCompression::Zlib] {
        let uop = gumps_to_compressed_uop(&mul, how).unwrap().files;
        let fetched = same_both_ways(&uop, &Limits::default(), UopPictures::Gumps);
        let tables = fetched.tables.unwrap();
        let slots = UopIndex::from_tables(&tables, &Limits::default(), UopPictures::Gumps).unwrap();
        let whole_slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
        let whole = Gumps::from_uop(&whole_slots, &uop);
        let mut decoded = 0;
        for id in 0..200 {
            let Some((position, raw)) = slots.compressed_entry_in(&tables, id) else {
                assert!(!whole.is_compressed(id as u32), "gump {id}");
                continue;
            };
            let start = (raw.offset.get() + u64::from(raw.header_len.get())) as usize;
            let stored = &uop[start..start + raw.compressed_len.get() as usize];
            let alone = DecodedGump::from_uop_entry(id, position, raw, stored, &Limits::default())
                .unwrap()
                .unwrap();
            let want = whole
                .decoded(id as u32, &Limits::default())
                .unwrap()
                .unwrap();
            assert_eq!(alone.extra(), want.extra());
            assert_eq!(alone.bytes(), want.bytes());
            assert_eq!(
                pixels(&alone.gump().unwrap()),
                pixels(&want.gump().unwrap())
            );
            decoded += 1;
        }
        assert_eq!(decoded, 199, "every gump but the empty one");
        // A stream cut short is the same error alone as in the whole bytes.
        let (position, raw) = slots.compressed_entry_in(&tables, 3).unwrap();
        let start = (raw.offset.get() + u64::from(raw.header_len.get())) as usize;
        let cut = &uop[start..start + raw.compressed_len.get() as usize / 2];
        let alone = DecodedGump::from_uop_entry(3, position, raw, cut, &Limits::default());
        let alone = alone.unwrap_err().to_string();
        assert!(alone.contains("gump 0x0003"), "{alone}");
        assert!(alone.contains("UOP entry"), "{alone}");
    }
}

/// A small deterministic generator (64-bit LCG, Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

#[test]
fn corrupted_tables_are_the_same_errors_by_ranges() {
    let (index, data) = synthetic_gumps(2);
    let mul = Gumps::parse(&index, &data).unwrap();
    let art = {
        let (index, data) = synthetic_art_sized(3, 40, 260);
        art_to_uop(&Art::parse(&index, &data).unwrap())
            .unwrap()
            .files
    };
    let containers = [
        (gumps_to_uop(&mul).unwrap().files, UopPictures::Gumps),
        (
            gumps_to_compressed_uop(&mul, GumpCompression::Zlib)
                .unwrap()
                .files,
            UopPictures::Gumps,
        ),
        (art, UopPictures::Art),
    ];
    let mut rng = Lcg(59);
    let mut errors = 0;
    for (good, pictures) in &containers {
        // The table's bytes: the header and the first blocks' entries.
        let table_end = good.len().min(28 + 3 * (12 + 34 * 100));
        for _ in 0..400 {
            let mut bad = good.clone();
            for _ in 0..1 + rng.next() % 4 {
                let at = (rng.next() as usize) % table_end;
                bad[at] = match rng.next() % 4 {
                    0 => 0,
                    1 => 0xFF,
                    _ => rng.next() as u8,
                };
            }
            let limits = if rng.next().is_multiple_of(8) {
                Limits::default().with_max_records(150)
            } else {
                Limits::default()
            };
            same_both_ways(&bad, &limits, *pictures);
            errors += usize::from(UopIndex::build(&bad, &limits, *pictures).is_err());
        }
    }
    assert!(errors > 100, "the corruptions reach the errors: {errors}");
}

/// The offsets of the table blocks of a container's chain (a sound one).
fn block_offsets(uop: &[u8]) -> Vec<usize> {
    let word = |at: usize| u64::from_le_bytes(uop[at..at + 8].try_into().unwrap()) as usize;
    let mut next = word(12);
    let mut blocks = Vec::new();
    while next != 0 {
        blocks.push(next);
        next = word(next + 4);
    }
    blocks
}

#[test]
fn corrupted_chains_are_the_same_errors_by_ranges() {
    let (index, data) = synthetic_gumps(4);
    let mul = Gumps::parse(&index, &data).unwrap();
    let good = gumps_to_uop(&mul).unwrap().files;
    let blocks = block_offsets(&good);
    assert!(!blocks.is_empty());
    let len = good.len() as u64;
    let mut rng = Lcg(2026);
    for round in 0..600 {
        let mut bad = good.clone();
        let block = blocks[rng.next() as usize % blocks.len()];
        // A count or a next offset of the chain, or the header's first table.
        let (at, value): (usize, u64) = match rng.next() % 3 {
            0 => (
                block,
                match rng.next() % 4 {
                    0 => u64::from(u32::MAX),
                    1 => (len - block as u64) / 34,
                    2 => (len - block as u64) / 34 + 1,
                    _ => rng.next() % 400,
                },
            ),
            1 => (
                block + 4,
                match rng.next() % 4 {
                    0 => block as u64,
                    1 => rng.next() % 28,
                    2 => len - rng.next() % 20,
                    _ => rng.next() % len,
                },
            ),
            _ => (12, rng.next() % len),
        };
        let width = if at == block { 4 } else { 8 };
        bad[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
        let limits = if round % 5 == 0 {
            Limits::default().with_max_records(100)
        } else {
            Limits::default()
        };
        same_both_ways(&bad, &limits, UopPictures::Gumps);
        same_both_ways(&bad, &limits, UopPictures::Art);
    }
}

#[test]
fn a_table_at_the_containers_end_is_read_to_its_last_byte() {
    // The gumps' data first, then the table as the container's last bytes.
    let (index, data) = synthetic_gumps(8);
    let mul = Gumps::parse(&index, &data).unwrap();
    let good = gumps_to_uop(&mul).unwrap().files;
    let blocks = block_offsets(&good);
    let first = blocks[0];
    let count = u32::from_le_bytes(good[first..first + 4].try_into().unwrap()) as usize;
    assert_eq!(blocks.len(), 1, "one block here");
    let table = good[first..first + 12 + 34 * count].to_vec();
    let mut moved = good.clone();
    let at = moved.len() as u64;
    moved.extend_from_slice(&table);
    moved[12..20].copy_from_slice(&at.to_le_bytes());
    let fetched = same_both_ways(&moved, &Limits::default(), UopPictures::Gumps);
    let tables = fetched.tables.unwrap();
    let whole = UopIndex::build(&moved, &Limits::default(), UopPictures::Gumps).unwrap();
    let ranged = UopIndex::from_tables(&tables, &Limits::default(), UopPictures::Gumps).unwrap();
    assert_eq!(whole.problems(), 0);
    assert_eq!(ranged.problems(), 0, "every gump's size was read");
}

/// A container whose chain is `blocks` blocks of `entries` unused entries each (offset 0),
/// each block right after the last.
fn small_blocks(blocks: usize, entries: u32) -> Vec<u8> {
    let mut uop = Vec::new();
    uop.extend_from_slice(&0x0050_594Du32.to_le_bytes());
    uop.extend_from_slice(&5u32.to_le_bytes());
    uop.extend_from_slice(&0u32.to_le_bytes());
    uop.extend_from_slice(&28u64.to_le_bytes());
    uop.extend_from_slice(&entries.to_le_bytes());
    uop.extend_from_slice(&0u32.to_le_bytes());
    let size = 12 + 34 * entries as u64;
    for k in 0..blocks as u64 {
        let next = if k + 1 == blocks as u64 {
            0
        } else {
            28 + size * (k + 1)
        };
        uop.extend_from_slice(&entries.to_le_bytes());
        uop.extend_from_slice(&next.to_le_bytes());
        uop.resize(uop.len() + 34 * entries as usize, 0);
    }
    uop
}

#[test]
fn blocks_of_two_entries_cost_more_than_half_their_container() {
    // 12 + 68 bytes a block, kept with 64 bytes more: 1.8 times the container.
    let uop = small_blocks(100_000, 2);
    let fetched = fetch(&uop, &Limits::default(), Some(UopPictures::Art));
    assert!(fetched.tables.is_none(), "given up");
    // Blocks of 100 cost little more than their bytes: read by ranges when the
    // container holds more than twice as much data (a table alone is read whole).
    let mut uop = small_blocks(1_000, 100);
    let table = uop.len() as u64;
    let fetched = fetch(&uop, &Limits::default(), Some(UopPictures::Art));
    assert!(fetched.tables.is_none(), "all table");
    uop.resize(uop.len() * 3, 0);
    let fetched = same_both_ways(&uop, &Limits::default(), UopPictures::Art);
    let tables = fetched.tables.expect("read by ranges");
    assert!(tables.held_bytes() < table + table / 10);
}

/// A container whose chain is `blocks` empty blocks, each 12 bytes after the last.
fn tiny_blocks(blocks: usize) -> Vec<u8> {
    let mut uop = Vec::new();
    uop.extend_from_slice(&0x0050_594Du32.to_le_bytes());
    uop.extend_from_slice(&5u32.to_le_bytes());
    uop.extend_from_slice(&0u32.to_le_bytes());
    uop.extend_from_slice(&28u64.to_le_bytes());
    uop.extend_from_slice(&100u32.to_le_bytes());
    uop.extend_from_slice(&0u32.to_le_bytes());
    for k in 0..blocks {
        let next = if k + 1 == blocks {
            0
        } else {
            28 + 12 * (k as u64 + 1)
        };
        uop.extend_from_slice(&0u32.to_le_bytes());
        uop.extend_from_slice(&next.to_le_bytes());
    }
    uop
}

#[test]
fn a_table_that_costs_more_than_half_the_container_is_given_up() {
    // A few tiny blocks are read: the cost is within the constant.
    let few = tiny_blocks(100);
    let fetched = same_both_ways(&few, &Limits::default(), UopPictures::Art);
    assert!(fetched.tables.is_some());
    // 100,000 of them (1.2 MB) would cost far more than the container: given up, having
    // read no more than about half its length.
    let many = tiny_blocks(100_000);
    let fetched = fetch(&many, &Limits::default(), Some(UopPictures::Art));
    assert!(fetched.tables.is_none());
    assert!(
        fetched.bytes < many.len() as u64 / 2 + (1 << 20),
        "{}",
        fetched.bytes
    );
    // A loop back to the first block ends the fetch and is the whole bytes' error.
    let mut looped = tiny_blocks(50);
    let last = 28 + 12 * 49 + 4;
    looped[last..last + 8].copy_from_slice(&28u64.to_le_bytes());
    let fetched = same_both_ways(&looped, &Limits::default(), UopPictures::Art);
    assert!(fetched.ranges <= 52, "{}", fetched.ranges);
    assert!(UopIndex::build(&looped, &Limits::default(), UopPictures::Art).is_err());
}

/// A UOP header whose first table block is at `first`.
fn header(first: u64) -> Vec<u8> {
    let mut u = Vec::new();
    u.extend(0x0050_594Du32.to_le_bytes());
    u.extend(5u32.to_le_bytes());
    u.extend(0u32.to_le_bytes());
    u.extend(first.to_le_bytes());
    u.extend(100u32.to_le_bytes());
    u.extend(0u32.to_le_bytes());
    u
}

/// A table entry: offset, header length, stored and decoded lengths, name hash,
/// compression.
fn entry(offset: u64, stored: u32, decoded: u32, hash: u64, compression: u16) -> Vec<u8> {
    let mut e = Vec::new();
    e.extend(offset.to_le_bytes());
    e.extend(0u32.to_le_bytes());
    e.extend(stored.to_le_bytes());
    e.extend(decoded.to_le_bytes());
    e.extend(hash.to_le_bytes());
    e.extend(0u32.to_le_bytes());
    e.extend(compression.to_le_bytes());
    e
}

#[test]
fn an_empty_compressed_gump_is_none_alone_as_in_the_whole_container() {
    // Found by an attack: compression 3 with no stored bytes, compression 1 with its size
    // alone.
    let name = |slot| mul_core::uop::name_hash(&UopPictures::Gumps.entry_name(slot));
    let data_at = 28 + 12 + 34 * 2;
    let mut uop = header(28);
    uop.extend(2u32.to_le_bytes());
    uop.extend(0u64.to_le_bytes());
    uop.extend(entry(data_at, 0, 100, name(0), 3));
    uop.extend(entry(data_at, 8, 100, name(1), 1));
    uop.extend(10i32.to_le_bytes());
    uop.extend(10i32.to_le_bytes());
    let fetched = same_both_ways(&uop, &Limits::default(), UopPictures::Gumps);
    let tables = fetched.tables.unwrap();
    let slots = UopIndex::from_tables(&tables, &Limits::default(), UopPictures::Gumps).unwrap();
    let whole_slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    let whole = Gumps::from_uop(&whole_slots, &uop);
    for slot in [0usize, 1] {
        assert!(
            whole
                .decoded(slot as u32, &Limits::default())
                .unwrap()
                .is_none()
        );
        let (position, raw) = slots.compressed_entry_in(&tables, slot).unwrap();
        let start = raw.offset.get() as usize;
        let stored = &uop[start..start + raw.compressed_len.get() as usize];
        let alone = DecodedGump::from_uop_entry(slot, position, raw, stored, &Limits::default());
        assert!(alone.unwrap().is_none(), "slot {slot}");
    }
}

#[test]
fn no_range_is_asked_past_the_budget_and_a_loop_walks_what_was_read() {
    // Found by an attack: one block of 3,000,000 unused entries (102 MB) was asked for
    // in one range before the fetch gave up.
    let count = 300_000u32;
    let mut uop = header(28);
    uop.extend(count.to_le_bytes());
    uop.extend(0u64.to_le_bytes());
    uop.resize(uop.len() + 34 * count as usize, 0);
    let mut fetch = UopFetch::new(uop.len() as u64, &Limits::default());
    let budget = uop.len() as u64 / 2 + (1 << 20);
    while let Some((at, size)) = fetch.wanted() {
        assert!(size <= budget, "a range of {size} bytes");
        fetch.give(uop[at as usize..(at + size) as usize].to_vec());
    }
    assert!(fetch.finish().is_none(), "given up");
    // Found by an attack: a loop of two blocks in a large container made the check keep
    // 8 bytes a possible block of the file; by ranges it walks what was read.
    let mut looped = header(28);
    looped.extend(0u32.to_le_bytes());
    looped.extend(40u64.to_le_bytes());
    looped.extend(0u32.to_le_bytes());
    looped.extend(28u64.to_le_bytes());
    looped.resize(64 << 20, 0);
    let fetched = same_both_ways(&looped, &Limits::default(), UopPictures::Art);
    assert!(fetched.ranges <= 3, "{}", fetched.ranges);
    assert!(UopIndex::build(&looped, &Limits::default(), UopPictures::Art).is_err());
}

#[test]
fn uop_animations_by_ranges_decode_alone_as_from_the_whole_file() {
    use mul_core::DecodedUopAnimation;
    use mul_core::anim::UopAnimations;
    use mul_core::anim::uop_anim_entry_name;
    use mul_core::anim::write::{
        SYNTHETIC_UOP_ENTRIES, UopAnimCompression, synthetic_uop_animations,
    };
    use mul_core::uop::name_hash;
    for how in [
        UopAnimCompression::None,
        UopAnimCompression::Zlib,
        UopAnimCompression::ZlibBwt,
    ] {
        let file = synthetic_uop_animations(5, how);
        let limits = Limits::default();
        let whole = UopAnimations::parse([(1u8, file.as_slice())], &limits).unwrap();
        let fetched = fetch(&file, &limits, None);
        let tables = fetched.tables.unwrap();
        let entries = tables.entries(&limits).unwrap();
        let parsed = Uop::parse(&file, &limits).unwrap();
        assert_eq!(entries.len(), parsed.entries().len());
        for (body, action) in SYNTHETIC_UOP_ENTRIES {
            let hash = name_hash(&uop_anim_entry_name(body, action));
            let entry = entries.iter().rev().find(|e| e.hash() == hash).unwrap();
            let range = tables.stored_range(entry).unwrap();
            let stored = &file[range.start as usize..range.end as usize];
            let alone =
                DecodedUopAnimation::from_entry(1, body, action, entry, stored, &limits).unwrap();
            let want = whole.decoded(body, action, &limits).unwrap().unwrap();
            assert_eq!(alone.bytes(), want.bytes(), "body {body} action {action}");
            assert_eq!(alone.entry_index(), want.entry_index());
            // Cut short, the same error as the whole file's over the same bytes.
            if !matches!(how, UopAnimCompression::None) {
                let cut = &stored[..stored.len() / 2];
                let error = DecodedUopAnimation::from_entry(1, body, action, entry, cut, &limits)
                    .unwrap_err()
                    .to_string();
                assert!(
                    error.contains(&format!("body {body} action {action}")),
                    "{error}"
                );
            }
        }
        // Outside the container: the whole file's sentence.
        let entry = &entries[0];
        let short = fetch(&file[..file.len() - 1], &limits, None)
            .tables
            .unwrap();
        let last = short
            .entries(&limits)
            .unwrap()
            .into_iter()
            .max_by_key(|e| e.raw().offset.get())
            .unwrap();
        let cut = Uop::parse(&file[..file.len() - 1], &limits).unwrap();
        let in_cut = cut
            .entries()
            .iter()
            .max_by_key(|e| e.raw().offset.get())
            .unwrap();
        assert_eq!(
            short.stored_range(&last).unwrap_err().to_string(),
            cut.stored_range(in_cut).unwrap_err().to_string()
        );
        assert!(tables.stored_range(entry).is_ok());
    }
}

#[test]
fn gumps_stored_as_is_or_sized_out_decode_alone_as_in_the_whole_container() {
    use crate::gump::gump_name;
    let (index, data) = synthetic_gumps(7);
    let mul = Gumps::parse(&index, &data).unwrap();
    let plain = gumps_to_uop(&mul).unwrap().files;
    let limits = Limits::default();
    let slots = UopIndex::build(&plain, &limits, UopPictures::Gumps).unwrap();
    let whole = Gumps::from_uop(&slots, &plain);
    let container = Uop::parse(&plain, &limits).unwrap();
    let mut decoded = 0;
    for id in 0..200usize {
        let Some(entry) = container.find(gump_name(id)) else {
            continue;
        };
        let stored = container.stored(entry).unwrap();
        let alone =
            DecodedGump::from_uop_entry(id, entry.index(), entry.raw(), stored, &limits).unwrap();
        let want = whole.decoded(id as u32, &limits).unwrap();
        match (alone, want) {
            (Some(alone), Some(want)) => {
                assert_eq!(alone.extra(), want.extra(), "gump {id}");
                assert_eq!(alone.bytes(), want.bytes(), "gump {id}");
                decoded += 1;
            }
            (None, None) => {}
            (a, w) => panic!("gump {id}: alone {a:?}, whole {w:?}"),
        }
    }
    assert!(decoded > 190, "{decoded}");
    // Hand-made entries: a size alone (none), a size of 0 or less with zlib (none), a
    // width past 0xFFFF (the whole container's sentence for the slot).
    let name = |slot| mul_core::uop::name_hash(&UopPictures::Gumps.entry_name(slot));
    let data_at = 28 + 12 + 34 * 3;
    let mut uop = header(28);
    uop.extend(3u32.to_le_bytes());
    uop.extend(0u64.to_le_bytes());
    uop.extend(entry(data_at, 8, 8, name(0), 0));
    uop.extend(entry(data_at + 8, 10, 100, name(1), 1));
    uop.extend(entry(data_at + 18, 12, 12, name(2), 0));
    uop.extend(4i32.to_le_bytes());
    uop.extend(4i32.to_le_bytes());
    uop.extend(0i32.to_le_bytes());
    uop.extend((-3i32).to_le_bytes());
    uop.extend([0x78, 0x9C]);
    uop.extend(0x1_0000i32.to_le_bytes());
    uop.extend(2i32.to_le_bytes());
    uop.extend([1, 2, 3, 4]);
    let slots = UopIndex::build(&uop, &limits, UopPictures::Gumps).unwrap();
    let whole = Gumps::from_uop(&slots, &uop);
    let container = Uop::parse(&uop, &limits).unwrap();
    for slot in 0..3usize {
        let entry = container.find(name(slot)).unwrap();
        let stored = container.stored(entry).unwrap();
        let alone = DecodedGump::from_uop_entry(slot, entry.index(), entry.raw(), stored, &limits);
        match slot {
            0 | 1 => {
                assert!(alone.unwrap().is_none(), "slot {slot}");
                assert!(whole.decoded(slot as u32, &limits).unwrap().is_none());
            }
            _ => {
                let alone = alone.unwrap_err().to_string();
                let problem = slots.problem(&uop, slot).unwrap().to_string();
                assert!(alone.contains(&problem), "{alone} / {problem}");
            }
        }
    }
    // A container of no bytes: its tables are empty.
    let empty = fetch(&[], &limits, None).tables.unwrap();
    assert!(empty.is_empty());
}

#[test]
fn a_block_after_a_large_one_is_not_read_with_room_the_budget_lacks() {
    // Block 1: 100,000 unused entries (3.4 MB); block 2 right after it, one entry; then
    // data to 10 MB. After block 1, the budget (5 MB + 1 MiB) cannot afford guessing that
    // block 2 is as large: its header is read alone.
    let count = 100_000u32;
    let second = 28 + 12 + 34 * u64::from(count);
    let mut uop = header(28);
    uop.extend(count.to_le_bytes());
    uop.extend(second.to_le_bytes());
    uop.resize(uop.len() + 34 * count as usize, 0);
    uop.extend(1u32.to_le_bytes());
    uop.extend(0u64.to_le_bytes());
    uop.extend(entry(20 << 20, 4, 4, 1, 0));
    uop.resize(10 << 20, 0);
    let fetched = same_both_ways(&uop, &Limits::default(), UopPictures::Art);
    assert!(fetched.tables.is_some());
    let budget = uop.len() as u64 / 2 + (1 << 20);
    assert!(fetched.bytes <= budget, "{} bytes asked", fetched.bytes);
}

#[test]
fn a_zlib_gump_sized_on_one_side_only_is_decoded_alone_as_whole() {
    // Compression 1 with a width of 0 but a height of 5: not "no gump" (that takes both
    // sides), so its stream is decoded, and fails the same way both ways.
    let name = |slot| mul_core::uop::name_hash(&UopPictures::Gumps.entry_name(slot));
    let data_at = 28 + 12 + 34;
    let mut uop = header(28);
    uop.extend(1u32.to_le_bytes());
    uop.extend(0u64.to_le_bytes());
    uop.extend(entry(data_at, 12, 100, name(0), 1));
    uop.extend(0i32.to_le_bytes());
    uop.extend(5i32.to_le_bytes());
    uop.extend([0x78, 0x9C, 1, 2]);
    let limits = Limits::default();
    let slots = UopIndex::build(&uop, &limits, UopPictures::Gumps).unwrap();
    let whole = Gumps::from_uop(&slots, &uop);
    let want = whole.decoded(0, &limits).unwrap_err().to_string();
    let container = Uop::parse(&uop, &limits).unwrap();
    let entry = container.find(name(0)).unwrap();
    let stored = container.stored(entry).unwrap();
    let alone = DecodedGump::from_uop_entry(0, entry.index(), entry.raw(), stored, &limits)
        .unwrap_err()
        .to_string();
    assert_eq!(alone, want);
}
