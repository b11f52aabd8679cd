//! Ultima Online benchmarks on a synthetic full-size facet 0 (7168 x 4096 tiles, 896 x 512
//! blocks, about 3.2 million statics) written by `mul_core::synth`:
//!
//! - `uo/land_histogram`: land id histogram and z range over all 29.4 M cells;
//! - `uo/statics_histogram`: statics count, id histogram and z range over all blocks;
//! - `uo/open_facet`: finding, mapping and casting a facet's files, small and full size.
//!
//! Each scan sets mul-core (sequential and rayon-parallel) beside the raw sequential read of
//! the same bytes (the memory-bandwidth limit), a hand-written loop over the raw bytes doing
//! the same query (the zero-cost limit), `uo-rust-libs` 0.1.0 as its users call it (its
//! `MapReader` / `StaticLocationReader` over `BufReader`s), and a copying baseline that
//! parses the files into `Vec`s of structs first.

// A bench may panic on setup failure: it has nothing to measure then.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    missing_docs
)]

use std::fs::File;
use std::hint::black_box;
use std::io::BufReader;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamedata_io::Limits;
use mul_core::facet::map_uop;
use mul_core::synth::World;
use mul_core::{
    Facet, FacetBytes, FacetFiles, FacetOptions, Map, MapSize, StaticFormat, Uop, facet::query,
};
use uorustlibs::map::MapReader;
use uorustlibs::map::static_location::StaticLocationReader;
use uorustlibs::mul::MulReader;

const W: u32 = 896;
const H: u32 = 512;

struct Data {
    dir: tempfile::TempDir,
    small: tempfile::TempDir,
    size: MapSize,
    map: Vec<u8>,
    staidx: Vec<u8>,
    statics: Vec<u8>,
}

impl Data {
    fn facet_bytes(&self) -> FacetBytes<'_> {
        FacetBytes {
            map: &self.map,
            staidx: &self.staidx,
            statics: &self.statics,
        }
    }
}

fn load() -> Data {
    let size = MapSize::from_blocks(W, H).unwrap();
    let world = World::generate(size, 1);
    eprintln!(
        "uo benches: synthetic facet 0, {size}, {} statics",
        world.static_count
    );
    let dir = tempfile::tempdir().unwrap();
    world.write_to(dir.path(), 0).unwrap();
    let small = tempfile::tempdir().unwrap();
    World::generate(MapSize::from_blocks(16, 16).unwrap(), 2)
        .write_to(small.path(), 0)
        .unwrap();
    Data {
        dir,
        small,
        size,
        map: world.map,
        staidx: world.staidx,
        statics: world.statics,
    }
}

/// The figures every variant computes: (histogram sum of squares as a checksum, z min, z max).
type Figures = (u64, i8, i8);

fn figures(histogram: &[u64], z_min: i8, z_max: i8) -> Figures {
    (
        histogram
            .iter()
            .enumerate()
            .map(|(i, n)| i as u64 * n)
            .sum(),
        z_min,
        z_max,
    )
}

/// The raw sequential read of `bytes`: 8 bytes at a time, summed.
fn raw_read(bytes: &[u8]) -> u64 {
    bytes.chunks_exact(8).fold(0u64, |a, c| {
        a.wrapping_add(u64::from_le_bytes(c.try_into().unwrap()))
    })
}

/// Land histogram by hand over the raw map bytes, with the same algorithm as mul-core
/// (equal neighbouring ids counted as runs, a block of 64 equal ids as one run, z bytes
/// reduced in 48 byte lanes flipped to unsigned), so the difference is the abstraction's cost.
fn land_hand(map: &[u8], blocks: usize) -> Figures {
    let mut hist = vec![0u64; 65536];
    let mut z_mask = [0u8; 48];
    for (i, m) in z_mask.iter_mut().enumerate() {
        *m = if i % 3 == 2 { 0xFF } else { 0 };
    }
    let mut id_mask = [0u8; 189];
    for (i, m) in id_mask.iter_mut().enumerate() {
        *m = if i % 3 == 2 { 0 } else { 0xFF };
    }
    let (mut lo, mut hi) = ([0xFFu8; 48], [0u8; 48]);
    let (mut run_id, mut run) = (0usize, 0u64);
    let mut push = |id: usize, n: u64, hist: &mut Vec<u64>| {
        if id == run_id {
            run += n;
        } else {
            hist[run_id] += run;
            (run_id, run) = (id, n);
        }
    };
    for block in map[..blocks * 196].chunks_exact(196) {
        let cells = &block[4..196];
        for lane in 0..4 {
            for i in 0..48 {
                let z = cells[lane * 48 + i] ^ 0x80;
                lo[i] = lo[i].min(z | !z_mask[i]);
                hi[i] = hi[i].max(z & z_mask[i]);
            }
        }
        let mut differ = 0u8;
        for i in 0..189 {
            differ |= (cells[i] ^ cells[i + 3]) & id_mask[i];
        }
        if differ == 0 {
            push(
                usize::from(u16::from_le_bytes([cells[0], cells[1]])),
                64,
                &mut hist,
            );
        } else {
            for c in cells.chunks_exact(3) {
                push(usize::from(u16::from_le_bytes([c[0], c[1]])), 1, &mut hist);
            }
        }
    }
    push(usize::MAX, 0, &mut hist);
    let lo = (*lo.iter().min().unwrap() ^ 0x80) as i8;
    let hi = (*hi.iter().max().unwrap() ^ 0x80) as i8;
    figures(&hist, lo, hi)
}

/// The plain hand loop: one histogram increment a cell.
fn land_hand_plain(map: &[u8], blocks: usize) -> Figures {
    let mut hist = vec![0u64; 65536];
    let (mut lo, mut hi) = (i8::MAX, i8::MIN);
    for block in map[..blocks * 196].chunks_exact(196) {
        for cell in block[4..].chunks_exact(3) {
            hist[usize::from(u16::from_le_bytes([cell[0], cell[1]]))] += 1;
            let z = cell[2] as i8;
            lo = lo.min(z);
            hi = hi.max(z);
        }
    }
    figures(&hist, lo, hi)
}

/// The copying baseline's static: id, x, y, z, hue.
type StaticCopy = (u16, u8, u8, i8, u16);

/// The copying baseline's records.
#[derive(Clone, Copy)]
struct CellCopy {
    id: u16,
    z: i8,
}

fn land(c: &mut Criterion) {
    let d = load();
    let blocks = d.size.blocks();
    let facet = Facet::parse(d.facet_bytes(), d.size, None).unwrap();
    let expected = {
        let l = query::land_stats(&facet.map);
        figures(&l.histogram, l.z_min, l.z_max)
    };
    assert_eq!(land_hand(&d.map, blocks), expected);
    assert_eq!(land_hand_plain(&d.map, blocks), expected);

    let mut g = c.benchmark_group("uo/land_histogram");
    g.throughput(Throughput::Bytes(d.map.len() as u64));
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.bench_function("raw_read", |b| b.iter(|| raw_read(black_box(&d.map))));
    g.bench_function("hand_loop", |b| {
        b.iter(|| land_hand(black_box(&d.map), blocks))
    });
    g.bench_function("hand_loop_plain", |b| {
        b.iter(|| land_hand_plain(black_box(&d.map), blocks))
    });
    g.bench_function("mul_core_seq", |b| {
        b.iter(|| {
            let l = query::land_stats(black_box(&facet.map));
            (l.z_min, l.z_max, l.cells)
        })
    });
    g.bench_function("mul_core_par", |b| {
        b.iter(|| {
            let l = query::land_stats_par(black_box(&facet.map));
            (l.z_min, l.z_max, l.cells)
        })
    });
    let map_path = d.dir.path().join("map0.mul");
    g.bench_function("copying", |b| {
        b.iter(|| {
            let bytes = std::fs::read(&map_path).unwrap();
            let cells: Vec<[CellCopy; 64]> = bytes[..blocks * 196]
                .chunks_exact(196)
                .map(|blk| {
                    std::array::from_fn(|i| CellCopy {
                        id: u16::from_le_bytes([blk[4 + i * 3], blk[5 + i * 3]]),
                        z: blk[6 + i * 3] as i8,
                    })
                })
                .collect();
            let mut hist = vec![0u64; 65536];
            let (mut lo, mut hi) = (i8::MAX, i8::MIN);
            for c in cells.iter().flatten() {
                hist[usize::from(c.id)] += 1;
                lo = lo.min(c.z);
                hi = hi.max(c.z);
            }
            figures(&hist, lo, hi)
        })
    });
    g.bench_function("uo_rust_libs", |b| {
        b.iter(|| {
            let file = BufReader::new(File::open(&map_path).unwrap());
            let mut reader = MapReader::from_readable(file, W, H);
            let mut hist = vec![0u64; 65536];
            let (mut lo, mut hi) = (i8::MAX, i8::MIN);
            for id in 0..blocks as u32 {
                let block = reader.read_block::<File>(id, None).unwrap();
                for c in block.cells {
                    hist[usize::from(c.graphic)] += 1;
                    lo = lo.min(c.altitude);
                    hi = hi.max(c.altitude);
                }
            }
            let f = figures(&hist, lo, hi);
            assert_eq!(f, expected);
            f
        })
    });
    g.finish();
}

/// Statics histogram by hand over the raw index and data bytes.
fn statics_hand(idx: &[u8], data: &[u8], blocks: usize) -> (u64, Figures) {
    let mut hist = vec![0u64; 65536];
    let (mut lo, mut hi, mut count) = (i8::MAX, i8::MIN, 0u64);
    for rec in idx[..blocks * 12].chunks_exact(12) {
        let offset = u32::from_le_bytes(rec[0..4].try_into().unwrap());
        let length = u32::from_le_bytes(rec[4..8].try_into().unwrap());
        if offset == u32::MAX || length == 0 || length == u32::MAX {
            continue;
        }
        let Some(bytes) = data.get(offset as usize..offset as usize + length as usize) else {
            continue;
        };
        for s in bytes.chunks_exact(7) {
            hist[usize::from(u16::from_le_bytes([s[0], s[1]]))] += 1;
            let z = s[4] as i8;
            lo = lo.min(z);
            hi = hi.max(z);
            count += 1;
        }
    }
    (count, figures(&hist, lo, hi))
}

fn statics(c: &mut Criterion) {
    let d = load();
    let blocks = d.size.blocks();
    let facet = Facet::parse(d.facet_bytes(), d.size, None).unwrap();
    let expected = {
        let s = query::statics_stats(&facet.statics, blocks);
        (s.count, figures(&s.histogram, s.z_min, s.z_max))
    };
    assert_eq!(statics_hand(&d.staidx, &d.statics, blocks), expected);

    let mut g = c.benchmark_group("uo/statics_histogram");
    g.throughput(Throughput::Bytes((d.staidx.len() + d.statics.len()) as u64));
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.bench_function("raw_read", |b| {
        b.iter(|| raw_read(black_box(&d.staidx)).wrapping_add(raw_read(black_box(&d.statics))))
    });
    g.bench_function("hand_loop", |b| {
        b.iter(|| statics_hand(black_box(&d.staidx), black_box(&d.statics), blocks))
    });
    g.bench_function("mul_core_seq", |b| {
        b.iter(|| query::statics_stats(black_box(&facet.statics), blocks).count)
    });
    g.bench_function("mul_core_par", |b| {
        b.iter(|| query::statics_stats_par(black_box(&facet.statics), blocks).count)
    });
    let (idx_path, mul_path) = (
        d.dir.path().join("staidx0.mul"),
        d.dir.path().join("statics0.mul"),
    );
    g.bench_function("copying", |b| {
        b.iter(|| {
            let idx = std::fs::read(&idx_path).unwrap();
            let data = std::fs::read(&mul_path).unwrap();
            let lists: Vec<Vec<StaticCopy>> = idx
                .chunks_exact(12)
                .map(|rec| {
                    let offset = u32::from_le_bytes(rec[0..4].try_into().unwrap()) as usize;
                    let length = u32::from_le_bytes(rec[4..8].try_into().unwrap()) as usize;
                    data.get(offset..offset.wrapping_add(length))
                        .unwrap_or_default()
                        .chunks_exact(7)
                        .map(|s| {
                            (
                                u16::from_le_bytes([s[0], s[1]]),
                                s[2],
                                s[3],
                                s[4] as i8,
                                u16::from_le_bytes([s[5], s[6]]),
                            )
                        })
                        .collect()
                })
                .collect();
            let mut hist = vec![0u64; 65536];
            let (mut lo, mut hi, mut count) = (i8::MAX, i8::MIN, 0u64);
            for s in lists.iter().flatten() {
                hist[usize::from(s.0)] += 1;
                lo = lo.min(s.3);
                hi = hi.max(s.3);
                count += 1;
            }
            (count, figures(&hist, lo, hi))
        })
    });
    g.bench_function("uo_rust_libs", |b| {
        b.iter(|| {
            let idx = BufReader::new(File::open(&idx_path).unwrap());
            let data = BufReader::new(File::open(&mul_path).unwrap());
            let mut reader =
                StaticLocationReader::from_mul(MulReader::from_readables(idx, data), W, H);
            let mut hist = vec![0u64; 65536];
            let (mut lo, mut hi, mut count) = (i8::MAX, i8::MIN, 0u64);
            for id in 0..blocks as u32 {
                // Empty blocks are an error in this reader: skip them, as its users do.
                let Ok(list) = reader.read_block(id, None) else {
                    continue;
                };
                for s in list {
                    hist[usize::from(s.object_id)] += 1;
                    lo = lo.min(s.altitude);
                    hi = hi.max(s.altitude);
                    count += 1;
                }
            }
            let f = (count, figures(&hist, lo, hi));
            assert_eq!(f, expected);
            f
        })
    });
    g.finish();
}

/// Maps a file the bench itself wrote and nothing else touches.
#[allow(unsafe_code)]
/// Finds and maps facet 0's files in `dir`, as the command does.
fn map_facet(dir: &Path, options: &FacetOptions) -> FacetFiles {
    // SAFETY: the files are the bench's own temporary files; nothing modifies or truncates
    // them while they are mapped.
    unsafe { FacetFiles::map_with(dir, 0, options) }.unwrap()
}

fn open(c: &mut Criterion) {
    let d = load();
    let mut g = c.benchmark_group("uo/open_facet");
    // With the record size detected (a sample of at most 256 index records), and given.
    for (name, dir, size, format) in [
        (
            "16x16_blocks",
            d.small.path(),
            MapSize::from_blocks(16, 16).unwrap(),
            None,
        ),
        ("896x512_blocks", d.dir.path(), d.size, None),
        (
            "16x16_blocks_format_given",
            d.small.path(),
            MapSize::from_blocks(16, 16).unwrap(),
            Some(StaticFormat::Standard),
        ),
        (
            "896x512_blocks_format_given",
            d.dir.path(),
            d.size,
            Some(StaticFormat::Standard),
        ),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut options = FacetOptions::default().with_size(size);
                options.statics = format;
                let files = map_facet(dir, &options);
                let facet = files.view().unwrap();
                black_box(facet.map.len())
            })
        });
    }
    g.finish();
}

/// `container` (from `write_map_uop`: one table block at 0x200) with its chunks' data
/// stored in reverse order and the entries' offsets moved to match.
fn reverse_chunk_data(container: &[u8]) -> Vec<u8> {
    let count = u32::from_le_bytes(container[0x200..0x204].try_into().unwrap()) as usize;
    let entry = |i: usize| 0x200 + 12 + i * 34;
    let used: Vec<(usize, u64, usize)> = (0..count)
        .map(|i| {
            let e = entry(i);
            let offset = u64::from_le_bytes(container[e..e + 8].try_into().unwrap());
            let len = u32::from_le_bytes(container[e + 12..e + 16].try_into().unwrap());
            (i, offset, len as usize)
        })
        .filter(|&(_, offset, _)| offset != 0)
        .collect();
    let data_start = used.iter().map(|&(_, o, _)| o as usize).min().unwrap();
    let mut out = container[..data_start].to_vec();
    for &(i, offset, len) in used.iter().rev() {
        let at = out.len() as u64;
        out.extend_from_slice(&container[offset as usize..offset as usize + len]);
        out[entry(i)..entry(i) + 8].copy_from_slice(&at.to_le_bytes());
    }
    out
}

/// The same facet's map from its MUL and its UOP form (written by `uop::write_map_uop`):
/// whole-map land figures, sequential and rayon, and a cell lookup every 8 tiles.
fn map_forms(c: &mut Criterion) {
    let d = load();
    // Both forms in buffers allocated the same way (one copy each), so that the memory
    // behind them (page sizes, placement) is alike.
    let uop_bytes = mul_core::write_map_uop(&d.map, 0).unwrap().clone();
    let mul_bytes = d.map.clone();
    let shuffled = reverse_chunk_data(&uop_bytes);
    let limits = Limits::default();
    let container = Uop::parse(&uop_bytes, &limits).unwrap();
    let chunks = map_uop::map_chunks(&container, 0, &limits).unwrap();
    let mul = Map::parse(&mul_bytes, d.size).unwrap();
    let chunked = Map::from_chunks(&uop_bytes, &chunks, d.size).unwrap();
    assert_eq!(query::land_stats(&mul), query::land_stats(&chunked));
    assert!(chunked.as_slice().is_some(), "chunks in order: one run");
    let shuffled_container = Uop::parse(&shuffled, &limits).unwrap();
    let shuffled_chunks = map_uop::map_chunks(&shuffled_container, 0, &limits).unwrap();
    let scattered = Map::from_chunks(&shuffled, &shuffled_chunks, d.size).unwrap();
    assert!(
        scattered.as_slice().is_none(),
        "chunks in reverse order: chunk by chunk"
    );
    assert_eq!(query::land_stats(&mul), query::land_stats(&scattered));
    let lookups = |map: &Map<'_>| {
        let mut acc = 0u64;
        for y in (0..d.size.height()).step_by(8) {
            for x in (0..d.size.width()).step_by(8) {
                acc += u64::from(map.cell(x, y).map_or(0, |c| c.id.get()));
            }
        }
        acc
    };
    assert_eq!(lookups(&mul), lookups(&chunked));
    let mut g = c.benchmark_group("uo/map_forms");
    g.throughput(Throughput::Bytes(d.map.len() as u64));
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    for (name, map) in [
        ("mul", &mul),
        ("uop", &chunked),
        ("uop_reversed_chunks", &scattered),
    ] {
        g.bench_function(format!("land_stats_seq/{name}"), |b| {
            b.iter(|| query::land_stats(black_box(map)).cells)
        });
        g.bench_function(format!("land_stats_par/{name}"), |b| {
            b.iter(|| query::land_stats_par(black_box(map)).cells)
        });
        g.bench_function(format!("cell_every_8_tiles/{name}"), |b| {
            b.iter(|| black_box(lookups(map)))
        });
    }
    g.bench_function("open/uop_table_and_chunks", |b| {
        b.iter(|| {
            let container = Uop::parse(black_box(&uop_bytes), &limits).unwrap();
            map_uop::map_chunks(&container, 0, &limits).unwrap().len()
        })
    });
    g.finish();
}

criterion_group!(benches, land, statics, open, map_forms);
criterion_main!(benches);
