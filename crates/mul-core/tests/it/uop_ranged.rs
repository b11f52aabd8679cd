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
    let mut fetch = UopFetch::new(data.len() as u64, limits, pictures);
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
    assert!(tables.held_bytes() <= fetched.bytes + 48 * fetched.ranges as u64);
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
