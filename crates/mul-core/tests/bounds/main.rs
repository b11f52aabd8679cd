//! The resource contract (`docs/robustness.md`), held by counting the
//! heap (dhat's allocator): crafted files of a megabyte or more shaped to multiply a reader's
//! memory or work, each test asserting the peak heap of the call and what it returns; and
//! the sweeps of the real files (`sweeps`), each call's heap bounded by its input. Never
//! wall-clock time.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use std::io::Write;
use std::path::PathBuf;

use flate2::Compression as Level;
use flate2::write::ZlibEncoder;
use gamedata_io::{FileData, Limits};
use gamedata_testkit::heap::{self, MIB};
use mul_core::facet::map_uop::map_chunk_name;
use mul_core::{
    DiffData, DiffIndex, ErrorKind, Facet, FacetBytes, FacetData, FacetFiles, FacetOptions,
    FacetPaths, IndexProblem, MapFormat, MapSize, Multis, StaticFormat, StaticsPatch, Uop,
    UopTableProblem, facet::query, name_hash,
};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

mod attack;
mod mobtypes;
mod sweeps;

/// 12-byte index records, all `(offset, length)`.
fn index(count: usize, offset: u32, length: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(count * 12);
    for _ in 0..count {
        out.extend(offset.to_le_bytes());
        out.extend(length.to_le_bytes());
        out.extend(0u32.to_le_bytes());
    }
    out
}

/// A UOP container with one table block of `entries` (name hash, stored bytes, decoded
/// length, compression), data after the table in entry order.
fn uop(entries: &[(u64, &[u8], u32, u16)]) -> Vec<u8> {
    let table_at = 28u64;
    let data_at = table_at + 12 + 34 * entries.len() as u64;
    let mut out = Vec::new();
    out.extend(0x0050_594Du32.to_le_bytes());
    out.extend(5u32.to_le_bytes());
    out.extend(0xFD23_EC43u32.to_le_bytes());
    out.extend(table_at.to_le_bytes());
    out.extend((entries.len() as u32).to_le_bytes());
    out.extend((entries.len() as u32).to_le_bytes());
    out.extend((entries.len() as u32).to_le_bytes());
    out.extend(0u64.to_le_bytes());
    let mut at = data_at;
    for (hash, stored, decoded, compression) in entries {
        out.extend(at.to_le_bytes());
        out.extend(0u32.to_le_bytes());
        out.extend((stored.len() as u32).to_le_bytes());
        out.extend(decoded.to_le_bytes());
        out.extend(hash.to_le_bytes());
        out.extend(0u32.to_le_bytes());
        out.extend(compression.to_le_bytes());
        at += stored.len() as u64;
    }
    for (_, stored, _, _) in entries {
        out.extend_from_slice(stored);
    }
    out
}

fn paths(map_format: MapFormat) -> FacetPaths {
    FacetPaths {
        facet: 0,
        map: PathBuf::from("map0LegacyMUL.uop"),
        map_format,
        staidx: PathBuf::from("staidx0.mul"),
        statics: PathBuf::from("statics0.mul"),
        tiledata: None,
        radarcol: None,
        hues: None,
        diffs: Default::default(),
    }
}

fn data(map: Vec<u8>, staidx: Vec<u8>, statics: Vec<u8>) -> FacetData {
    FacetData {
        map: FileData::from(map),
        staidx: FileData::from(staidx),
        statics: FileData::from(statics),
        tiledata: None,
        radarcol: None,
        hues: None,
        diffs: DiffData::default(),
    }
}

/// A map UOP of 4,096 chunks, each ~800 bytes of zlib that inflate to 4,096 zero blocks
/// (802,816 bytes): 3.4 MB that would decode to 3.2 GB. Refused before any chunk is decoded.
#[test]
fn a_map_uop_whose_chunks_decode_past_the_limit_is_refused_before_decoding() {
    let serial = heap::serial();
    let mut z = ZlibEncoder::new(Vec::new(), Level::best());
    z.write_all(&vec![0u8; 4096 * 196]).unwrap();
    let chunk = z.finish().unwrap();
    let names: Vec<u64> = (0..4096)
        .map(|i| name_hash(&map_chunk_name(0, i)))
        .collect();
    let entries: Vec<(u64, &[u8], u32, u16)> = names
        .iter()
        .map(|&h| (h, &chunk[..], 4096 * 196, 1))
        .collect();
    let file = uop(&entries);
    assert!(file.len() > 3_000_000, "{} bytes", file.len());
    let files = data(file, Vec::new(), Vec::new());
    let (result, peak) = heap::peak(&serial, || {
        FacetFiles::from_data(paths(MapFormat::Uop), files, &FacetOptions::default())
    });
    let err = result.unwrap_err();
    let ErrorKind::Limit(limit) = err.kind() else {
        panic!("{err}");
    };
    assert_eq!(limit.limit, Limits::DEFAULT_MAX_DECODED_BYTES);
    // Refused at the first chunk past 256 MiB: 335 chunks declared, none decoded.
    assert_eq!(limit.found, 335 * 4096 * 196);
    // The table's 4,096 entries and lookups: far below one decoded chunk.
    assert!(peak < 2 * MIB, "peak heap {peak} bytes");
}

/// The same chunks within a raised limit decode to exactly the map, with the memory of the
/// decoded blocks alone (no second copy of each chunk).
#[test]
fn a_map_uop_decodes_each_chunk_once_into_its_own_buffer() {
    let serial = heap::serial();
    let mut z = ZlibEncoder::new(Vec::new(), Level::best());
    z.write_all(&vec![0u8; 4096 * 196]).unwrap();
    let chunk = z.finish().unwrap();
    // 32 chunks: 131,072 blocks, 25.7 MB decoded.
    let names: Vec<u64> = (0..32).map(|i| name_hash(&map_chunk_name(0, i))).collect();
    let entries: Vec<(u64, &[u8], u32, u16)> = names
        .iter()
        .map(|&h| (h, &chunk[..], 4096 * 196, 1))
        .collect();
    let files = data(uop(&entries), index(512 * 256, u32::MAX, 0), Vec::new());
    let decoded = 32 * 4096 * 196u64;
    let size = MapSize::from_blocks(512, 256).unwrap();
    let options = FacetOptions::default().with_size(size);
    let (files, peak) = heap::peak(&serial, || {
        FacetFiles::from_data(paths(MapFormat::Uop), files, &options).unwrap()
    });
    assert!(
        peak < decoded + 2 * MIB,
        "peak heap {peak}, decoded {decoded}"
    );
    assert_eq!(files.map_len(), decoded);
    let facet = files.view().unwrap();
    assert_eq!(query::land_stats(&facet.map).cells, 512 * 256 * 64);
}

/// Chunks stored over the same bytes: the map would be read many times over from one run.
#[test]
fn map_uop_chunks_over_the_same_bytes_are_refused() {
    let serial = heap::serial();
    let chunk = vec![0u8; 4096 * 196];
    let mut file = uop(&[(name_hash(&map_chunk_name(0, 0)), &chunk[..], 0, 0)]);
    // A second table entry, named chunk 1, over chunk 0's bytes: rebuild with two entries
    // and point the second at the first's offset.
    let names = [0, 1].map(|i| name_hash(&map_chunk_name(0, i)));
    file = {
        let two = uop(&[(names[0], &chunk[..], 0, 0), (names[1], &chunk[..], 0, 0)]);
        let mut two = two;
        let first_offset: [u8; 8] = two[40..48].try_into().unwrap();
        two[74..82].copy_from_slice(&first_offset);
        let _ = file;
        two
    };
    let files = data(file, Vec::new(), Vec::new());
    let (result, peak) = heap::peak(&serial, || {
        FacetFiles::from_data(paths(MapFormat::Uop), files, &FacetOptions::default())
    });
    let err = result.unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::ChunkOverlap { chunk: 1, other: 0 },
        "{err}"
    );
    assert!(peak < MIB, "peak heap {peak}");
}

/// A 1024 x 1024 facet whose 16,384 statics index entries all cover the same 2.1 MB of
/// statics (300,000 records): a scan reads them once, and the 16,383 others are reported.
#[test]
fn statics_index_entries_over_the_same_bytes_are_read_once() {
    let serial = heap::serial();
    let statics: Vec<u8> = (0..300_000u32)
        .flat_map(|i| {
            let mut r = [0u8; 7];
            r[0..2].copy_from_slice(&((i % 7 + 1) as u16).to_le_bytes());
            r[2] = (i % 8) as u8;
            r[3] = (i / 8 % 8) as u8;
            r
        })
        .collect();
    let staidx = index(16_384, 0, statics.len() as u32);
    let map = vec![0u8; 16_384 * 196];
    let size = MapSize::from_tiles(1024, 1024).unwrap();
    let bytes = FacetBytes {
        map: &map,
        staidx: &staidx,
        statics: &statics,
    };
    let facet = Facet::parse(bytes, size, Some(StaticFormat::Standard)).unwrap();
    let ((stats, found, problems), peak) = heap::peak(&serial, || {
        let stats = query::statics_stats(&facet.statics, size.blocks());
        let found = query::statics_found(
            facet.statics.clone(),
            size,
            &|s: &mul_core::raw::StaticRecord| s.id.get() == 1,
        )
        .count();
        (stats, found, facet.statics.validate(size.blocks()))
    });
    // Block 0 is read; every other block overlaps it.
    assert_eq!(stats.count, 300_000);
    assert_eq!(found, 300_000 / 7 + 1);
    assert_eq!(problems.total(), 16_383);
    assert_eq!(problems.kept().len(), 100);
    assert!(matches!(
        problems.kept()[0],
        ErrorKind::IndexEntry {
            entry: 1,
            problem: IndexProblem::Overlap { other: 0 },
            ..
        }
    ));
    // The entries' sort (8 bytes each) and the kept problems.
    assert!(peak < MIB, "peak heap {peak}");
    // The parallel scan agrees.
    let par = query::statics_stats_par(&facet.statics, size.blocks());
    assert_eq!(par.count, 300_000);
}

/// 100,000 multi.idx entries over the same 1.2 MB of components: one multi is read.
#[test]
fn multi_entries_over_the_same_bytes_are_read_once() {
    let serial = heap::serial();
    let mul = vec![0u8; 100_000 * 12];
    let idx = index(100_000, 0, mul.len() as u32);
    let multis = Multis::parse(&idx, &mul, Some(mul_core::MultiFormat::Short)).unwrap();
    let ((ids, problems), peak) = heap::peak(&serial, || (multis.ids().count(), multis.validate()));
    assert_eq!(ids, 1);
    assert_eq!(problems.total(), 99_999);
    assert_eq!(multis.get(0).unwrap().unwrap().len(), 100_000);
    // The sort of the non-empty entries (8 bytes each) and the list of those left out (16
    // bytes each): within 3 times the 1.2 MB index.
    assert!(peak < 3 * idx.len() as u64, "peak heap {peak}");
}

/// 100,000 stadifl entries (distinct blocks) whose stadifi records all cover the same
/// 1.4 MB of stadif: the first patches its block, the rest are left out and counted.
#[test]
fn statics_patch_records_over_the_same_bytes_are_left_out() {
    let serial = heap::serial();
    let stadif = vec![0u8; 200_000 * 7];
    let stadifl: Vec<u8> = (0..100_000u32).flat_map(u32::to_le_bytes).collect();
    let stadifi = index(100_000, 0, stadif.len() as u32);
    let (diffs, peak) = heap::peak(&serial, || {
        DiffIndex::new(None, Some((&stadifl, &stadifi, &stadif)))
    });
    assert_eq!(diffs.statics.len(), 1);
    assert_eq!(diffs.problems.total(), 99_999);
    assert!(peak < 4 * MIB, "peak heap {peak}");
    // Reading every patched block reads the 1.4 MB once.
    let map = vec![0u8; 16_384 * 196];
    let staidx = index(16_384, u32::MAX, 0);
    let size = MapSize::from_tiles(1024, 1024).unwrap();
    let bytes = FacetBytes {
        map: &map,
        staidx: &staidx,
        statics: &[],
    };
    let facet = Facet::parse(bytes, size, Some(StaticFormat::Standard)).unwrap();
    let patched = facet.statics.clone().with_patch(StaticsPatch {
        index: &diffs.statics,
        records: mul_core::facet::diff::index_records(&stadifi),
        data: &stadif,
    });
    assert_eq!(query::statics_stats(&patched, size.blocks()).count, 200_000);
}

/// 1,000,000 `mapdifl` entries (4 MB) past a `mapdif` of 10 blocks: the patch keeps 10
/// blocks, the rest are counted problems (100 kept), and nothing grows with the list.
#[test]
fn diff_lists_with_no_records_cost_their_problems_only() {
    let serial = heap::serial();
    let list: Vec<u8> = (0..1_000_000u32).flat_map(u32::to_le_bytes).collect();
    let mapdif = vec![0u8; 10 * 196];
    let (diffs, peak) = heap::peak(&serial, || DiffIndex::new(Some((&list, &mapdif)), None));
    assert_eq!(diffs.map.len(), 10);
    assert_eq!(diffs.problems.total(), 999_990);
    assert_eq!(diffs.problems.kept().len(), 100);
    assert!(peak < MIB, "peak heap {peak}");
}

/// A 1 MB UOP container whose second table block points back at the first: refused at the
/// second block, before its entries are collected again.
#[test]
fn uop_table_blocks_that_loop_are_refused() {
    let serial = heap::serial();
    // One block of 30,000 entries (1 MB), whose `next` is its own offset.
    let names: Vec<u64> = (0..30_000)
        .map(|i| name_hash(&format!("build/x/{i}")))
        .collect();
    let data = [0u8; 4];
    let entries: Vec<(u64, &[u8], u32, u16)> =
        names.iter().map(|&h| (h, &data[..], 4, 0)).collect();
    let mut file = uop(&entries);
    file[32..40].copy_from_slice(&28u64.to_le_bytes());
    assert!(file.len() > 1_000_000);
    let (result, peak) = heap::peak(&serial, || Uop::parse(&file, &Limits::default()));
    let err = result.unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::UopTable {
                block: 1,
                offset: 28,
                problem: UopTableProblem::Overlap { .. }
            }
        ),
        "{err}"
    );
    // The first block's 30,000 entries (a few words each) before the refusal.
    assert!(peak < 2 * MIB, "peak heap {peak}");
}

/// 200,000 artidx.mul entries over the same item (exact repeats, read as the client reads
/// them) and 200,000 more each overlapping the next by a byte (errors): the overlaps cost
/// a sort of the entries, never a read of the data per entry pair.
#[test]
fn art_entries_that_repeat_or_overlap_cost_the_index_only() {
    use mul_core::Art;
    let serial = heap::serial();
    // One item of 4 x 2000 rows, each row one run of 4 pixels (about 28 KB).
    let rows = 2000u16;
    let mut item: Vec<u8> = [0u16, 0, 4, rows]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    for y in 0..rows {
        item.extend((y * 8).to_le_bytes());
    }
    for _ in 0..rows {
        for w in [0u16, 4, 1, 2, 3, 4, 0, 0] {
            item.extend(w.to_le_bytes());
        }
    }
    let len = item.len() as u32;
    let mut idx = index(0x4000, u32::MAX, u32::MAX);
    idx.extend(index(200_000, 0, len));
    // Each overlapping the next: offsets 0, 1, 2 ... with the item's length.
    let mut data = item.clone();
    data.extend(vec![0u8; 200_000]);
    for i in 0..200_000u32 {
        idx.extend(index(1, i + 1, len));
    }
    let art = Art::parse(&idx, &data).unwrap();
    let ((repeats, overlapping), peak) = heap::peak(&serial, || {
        let repeats = (0..200_000u32)
            .filter(|&id| {
                art.item_at(0x4000 + id)
                    .is_ok_and(|i| i.is_some_and(|i| i.height() == 2000))
            })
            .count();
        let overlapping = (200_000..400_000u32)
            .filter(|&id| art.item_at(0x4000 + id).is_err())
            .count();
        (repeats, overlapping)
    });
    // Of the chain, only entries that overlap no kept entry are read: one every `len`
    // bytes at most, so their bytes add up to at most the data's.
    assert_eq!(repeats, 200_000);
    let read = 200_000 - overlapping;
    assert!(read <= data.len() / item.len(), "{read} read");
    assert!(overlapping >= 199_990);
    // The sort of the used entries (8 bytes each) and the list of those left out (16
    // bytes each): within 3 times the 4.8 MB index.
    assert!(peak < 3 * idx.len() as u64, "peak heap {peak}");
}

/// 200,000 texidx.mul entries over the same 128 x 128 texture map (exact repeats, read)
/// and 200,000 more each overlapping the next by a byte (errors): as for art, the overlaps
/// cost a sort of the entries, and every texture map read is a view of the file.
#[test]
fn texmap_entries_that_repeat_or_overlap_cost_the_index_only() {
    use mul_core::Texmaps;
    let serial = heap::serial();
    let len = 0x8000u32;
    let mut idx = index(200_000, 0, len);
    let mut data = vec![0x11u8; len as usize];
    data.extend(vec![0u8; 200_000]);
    for i in 0..200_000u32 {
        idx.extend(index(1, i + 1, len));
    }
    let texmaps = Texmaps::parse(&idx, &data).unwrap();
    let ((repeats, overlapping, sum), peak) = heap::peak(&serial, || {
        let mut sum = 0u64;
        let repeats = (0..200_000u32)
            .filter(|&id| {
                texmaps.texmap(id).is_ok_and(|t| {
                    t.is_some_and(|t| {
                        sum += u64::from(t.pixels()[100].get());
                        t.side() == 128
                    })
                })
            })
            .count();
        let overlapping = (200_000..400_000u32)
            .filter(|&id| texmaps.texmap(id).is_err())
            .count();
        (repeats, overlapping, sum)
    });
    assert_eq!((repeats, sum), (200_000, 200_000 * 0x1111));
    let read = 200_000 - overlapping;
    assert!(read <= data.len() / len as usize, "{read} read");
    // The sort of the used entries and the list of those left out: within 3 times the
    // 4.8 MB index, nothing a texture map.
    assert!(peak < 3 * idx.len() as u64, "peak heap {peak}");
}

/// A frame group of 1,000 frames one after another, none but the last ending its runs
/// (about 1 MB): the client would read each frame's runs on into every frame after it
/// (500,000 frames' worth of runs); here each frame stops where the next starts, an error,
/// so its runs are read once. In stored order, and listed backwards (a sort of the offsets,
/// 4 bytes a frame).
#[test]
fn frames_that_run_into_each_other_are_read_once() {
    use mul_core::{AnimProblem, FrameGroup};
    let serial = heap::serial();
    let (frames, runs) = (1000usize, 200usize);
    // A frame of 1 x 1 pixels, centre (0, 0): each run is its one pixel, x = 0, y = -1
    // (row -1 + 0 + 1 = 0): header 0x3FF << 12 | 1.
    let mut one = Vec::new();
    for v in [0i16, 0, 1, 1] {
        one.extend(v.to_le_bytes());
    }
    for _ in 0..runs {
        one.extend(0x003F_F001u32.to_le_bytes());
        one.push(7);
    }
    for backwards in [false, true] {
        let mut group = vec![0u8; 512];
        group.extend((frames as u32).to_le_bytes());
        let first = 4 + 4 * frames;
        let mut offsets: Vec<u32> = (0..frames)
            .map(|i| (first + i * one.len()) as u32)
            .collect();
        if backwards {
            offsets.reverse();
        }
        for o in &offsets {
            group.extend(o.to_le_bytes());
        }
        for _ in 0..frames {
            group.extend(&one);
        }
        group.extend(0x7FFF_7FFFu32.to_le_bytes());
        let ((read, overlapping), peak) = heap::peak(&serial, || {
            let g = FrameGroup::parse(&group).unwrap();
            let (mut read, mut overlapping) = (0, 0);
            for frame in g.frames() {
                for run in frame.unwrap().runs() {
                    match run {
                        Ok(_) => read += 1,
                        Err(e) => {
                            assert!(matches!(
                                e.kind(),
                                ErrorKind::Anim(AnimProblem::FrameOverlap { .. })
                            ));
                            overlapping += 1;
                        }
                    }
                }
            }
            (read, overlapping)
        });
        assert_eq!(read, frames * runs, "each frame's runs read once");
        assert_eq!(overlapping, frames - 1);
        // The sorted offsets when they are listed backwards, and an error at a time.
        let sorted = if backwards { 4 * frames as u64 } else { 0 };
        assert!(peak <= sorted + 16 * 1024, "peak heap {peak}");
    }
}

/// A frame group that declares 2^32 - 1 frames in 520 bytes, and one frame of 32,767 x
/// 32,767 pixels in 532: refused, or read, before anything is allocated for them.
#[test]
fn huge_counts_and_sizes_in_few_bytes_allocate_nothing() {
    use mul_core::FrameGroup;
    let serial = heap::serial();
    let mut huge = vec![0u8; 520];
    huge[512..516].copy_from_slice(&u32::MAX.to_le_bytes());
    let mut big = vec![0u8; 512];
    big.extend(1u32.to_le_bytes());
    big.extend(8u32.to_le_bytes());
    for v in [0i16, 0, 0x7FFF, 0x7FFF] {
        big.extend(v.to_le_bytes());
    }
    big.extend(0x7FFF_7FFFu32.to_le_bytes());
    let ((refused, runs), peak) = heap::peak(&serial, || {
        let refused = FrameGroup::parse(&huge).is_err();
        let g = FrameGroup::parse(&big).unwrap();
        let frame = g.frame(0).unwrap().unwrap();
        assert_eq!(frame.width(), 0x7FFF);
        (refused, frame.runs().count())
    });
    assert!(refused);
    assert_eq!(runs, 0);
    // Nothing is allocated for them (what they declare is 16 GiB of offsets and 4 GiB of
    // pixels); the bound leaves room for the test harness's own bytes on other threads.
    assert!(peak < 64 * 1024, "peak heap {peak}");
}
