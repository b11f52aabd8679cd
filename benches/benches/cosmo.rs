//! Cosmo benchmarks: opening the two group files, looking up every entry, and the
//! attributes of every cell of every map (throughput in cells/s).
//!
//! Data: the real episode 1 files when `GAMEDATA_DIR` is set (the bench stops with a clear
//! message if `cosmo/COSMO1.STN` or `cosmo/COSMO1.VOL` is missing there), else the
//! synthetic episode of `mni_core::synth` (printed at start).
//! Each group sets mni-core beside a copying reader (what a straightforward reader does:
//! copy every entry into owned buffers) and, for the cell scan, the raw memory read of the
//! same tile bytes: the physical limit.

// A bench may panic on setup failure: it has nothing to measure then.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mni_core::{Episode, Map, TileAttrTable, synth};

struct Data {
    stn: Vec<u8>,
    vol: Vec<u8>,
}

fn load() -> Data {
    let stn = gamedata_testkit::optional_file("cosmo/COSMO1.STN");
    let vol = gamedata_testkit::optional_file("cosmo/COSMO1.VOL");
    if let (Some(stn), Some(vol)) = (stn, vol) {
        eprintln!(
            "cosmo benches: real episode 1 files beside {}",
            stn.display()
        );
        return Data {
            stn: std::fs::read(stn).unwrap(),
            vol: std::fs::read(vol).unwrap(),
        };
    }
    eprintln!("cosmo benches: synthetic episode (set GAMEDATA_DIR for the real files)");
    let e = synth::episode().unwrap();
    Data {
        stn: e.stn,
        vol: e.vol,
    }
}

/// The copying reader: every entry copied out into a map of owned buffers.
fn copying_open(bytes: &[u8]) -> HashMap<String, Vec<u8>> {
    let mut entries = HashMap::new();
    for slot in bytes[..4000].chunks_exact(20) {
        let name_len = slot[..12].iter().position(|&b| b == 0).unwrap_or(12);
        let offset = u32::from_le_bytes(slot[12..16].try_into().unwrap()) as usize;
        let size = u32::from_le_bytes(slot[16..20].try_into().unwrap()) as usize;
        if name_len == 0 || (offset == 0 && size == 0) {
            break;
        }
        if let Some(data) = bytes.get(offset..offset + size) {
            let name = String::from_utf8_lossy(&slot[..name_len]).to_ascii_uppercase();
            entries.insert(name, data.to_vec());
        }
    }
    entries
}

fn open(c: &mut Criterion) {
    let d = load();
    let mut g = c.benchmark_group("cosmo/open_stn_and_vol");
    g.bench_function("mni_core", |b| {
        b.iter(|| black_box(Episode::parse(black_box(&d.stn), black_box(&d.vol)).unwrap()))
    });
    g.bench_function("copying", |b| {
        b.iter(|| {
            black_box((
                copying_open(black_box(&d.stn)),
                copying_open(black_box(&d.vol)),
            ))
        })
    });
    g.finish();
}

fn lookup(c: &mut Criterion) {
    let d = load();
    let ep = Episode::parse(&d.stn, &d.vol).unwrap();
    let names: Vec<String> = ep
        .stn
        .entries()
        .chain(ep.vol.entries())
        .map(|e| e.name_lossy().to_ascii_lowercase())
        .collect();
    let mut g = c.benchmark_group("cosmo/lookup_every_entry");
    g.throughput(Throughput::Elements(names.len() as u64));
    g.bench_function("mni_core", |b| {
        b.iter(|| {
            names
                .iter()
                .map(|n| ep.get(black_box(n)).unwrap().map_or(0, <[u8]>::len))
                .sum::<usize>()
        })
    });
    let (stn, vol) = (copying_open(&d.stn), copying_open(&d.vol));
    g.bench_function("copying_hashmap", |b| {
        b.iter(|| {
            names
                .iter()
                .map(|n| {
                    let key = black_box(n).to_ascii_uppercase();
                    stn.get(&key).or_else(|| vol.get(&key)).unwrap().len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

fn cell_attributes(c: &mut Criterion) {
    let d = load();
    let ep = Episode::parse(&d.stn, &d.vol).unwrap();
    let attrs = ep.tile_attributes().unwrap();
    let maps: Vec<&[u8]> = ep.level_names().map(|e| e.data().unwrap()).collect();
    let parsed: Vec<Map<'_>> = maps.iter().map(|m| Map::parse(m).unwrap()).collect();
    let cells: u64 = parsed.iter().map(|m| m.tile_values().len() as u64).sum();
    eprintln!("cosmo benches: {} maps, {cells} cells", maps.len());

    let mut g = c.benchmark_group("cosmo/attributes_of_every_cell");
    g.throughput(Throughput::Elements(cells));
    // Every variant does the same light work per cell: add up the attribute bytes.
    g.bench_function("mni_core_scan", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for bytes in &maps {
                let map = Map::parse(black_box(bytes)).unwrap();
                sum += map
                    .cell_attributes(&attrs)
                    .map(|a| u64::from(a.bits()))
                    .sum::<u64>();
            }
            sum
        })
    });
    g.bench_function("mni_core_xy", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for map in black_box(&parsed) {
                for y in 0..map.height() {
                    for x in 0..map.width() {
                        sum += map
                            .attributes(x, y, &attrs)
                            .map_or(0, |a| u64::from(a.bits()));
                    }
                }
            }
            sum
        })
    });
    g.bench_function("copying", |b| {
        b.iter(|| {
            let table: Vec<u8> = attrs.bytes().to_vec();
            let mut sum = 0u64;
            for bytes in &maps {
                let words = u16::from_le_bytes([bytes[4], bytes[5]]) as usize;
                let tiles: Vec<u16> = black_box(bytes)[6 + words * 2..]
                    .chunks_exact(2)
                    .map(|p| u16::from_le_bytes([p[0], p[1]]))
                    .collect();
                for v in tiles {
                    sum += u64::from(table.get(usize::from(v / 8)).copied().unwrap_or(0));
                }
            }
            sum
        })
    });
    g.bench_function("raw_read_u16_sum", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for map in &parsed {
                sum += black_box(map.tile_values())
                    .iter()
                    .map(|v| u64::from(v.get()))
                    .sum::<u64>();
            }
            sum
        })
    });
    g.finish();
}

/// Parsing a 7,000-byte table is a length check; kept to show it costs nothing.
fn tileattr(c: &mut Criterion) {
    let d = load();
    let ep = Episode::parse(&d.stn, &d.vol).unwrap();
    let bytes = ep.get("TILEATTR.MNI").unwrap().unwrap();
    c.bench_function("cosmo/tileattr_summary", |b| {
        b.iter(|| TileAttrTable::parse(black_box(bytes)).unwrap().summary())
    });
}

criterion_group!(benches, open, lookup, cell_attributes, tileattr);
criterion_main!(benches);
