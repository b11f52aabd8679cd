//! WWD benchmarks over every level: opening and walking every plane, tile, object and tile
//! property, beside decompression alone (the floor for compressed levels) and a copying
//! parse; the open of an uncompressed level; the header-only read a level picker uses.
//!
//! Data: every level of `$GAMEDATA_DIR/wwd` but the bad-signature file (the bench stops
//! with a clear message if the folder is missing there), else three synthetic levels of
//! `wap_core::synth` (printed at start). flate2's backend is zlib-rs, the workspace's one deflate
//! backend; `benches/README.md` keeps the 2026-11-23 comparison with miniz_oxide that chose
//! it.

// A bench may panic on setup failure: it has nothing to measure then.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use flate2::{Decompress, FlushDecompress};
use wap_core::raw::{TILE_FILLED, TILE_INVISIBLE};
use wap_core::{
    AttributesData, Level, LevelData, LevelFile, LevelOptions, TileAttributes, read_header, synth,
};

struct Levels {
    /// (name, file bytes)
    files: Vec<(String, Vec<u8>)>,
    /// Paths on disk, for the header-only read (empty for synthetic levels).
    paths: Vec<PathBuf>,
}

fn load() -> Levels {
    if let Some(dir) = gamedata_testkit::optional_file("wwd") {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .to_ascii_lowercase();
                name.ends_with(".wwd") && !name.contains("badsig")
            })
            .collect();
        paths.sort();
        eprintln!(
            "wwd benches: {} real levels in {}",
            paths.len(),
            dir.display()
        );
        let files = paths
            .iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(p).unwrap())
            })
            .collect();
        return Levels { files, paths };
    }
    eprintln!("wwd benches: three synthetic levels (set GAMEDATA_DIR for the real ones)");
    let files = [(1, 384, 96, true), (2, 768, 192, true), (3, 384, 96, false)]
        .into_iter()
        .map(|(seed, w, h, compress)| {
            let bytes = synth::level(seed, w, h).to_file(compress).unwrap();
            (format!("synth{seed}"), bytes)
        })
        .collect();
    Levels {
        files,
        paths: Vec::new(),
    }
}

/// Decompression alone: what any reader of a compressed level must do, into a zeroed
/// buffer of the declared size (fresh pages from the allocator, no clearing pass) after a
/// copy of the header: the floor for the full walk.
fn decompress_only(file: &[u8]) -> usize {
    let flags = u32::from_le_bytes(file[8..12].try_into().unwrap());
    if flags & 2 == 0 {
        return file.len();
    }
    let size = u32::from_le_bytes(file[0x2E8..0x2EC].try_into().unwrap()) as usize;
    let mut out = vec![0u8; 1524 + size];
    out[..1524].copy_from_slice(&file[..1524]);
    let mut z = Decompress::new(true);
    z.decompress(&file[1524..], &mut out[1524..], FlushDecompress::Finish)
        .unwrap();
    out.len()
}

/// Every tile read and classified: invisible and filled counted, the tile ids of the rest
/// summed (what a renderer or a statistics pass does per tile). Branch-free, in 32-bit
/// lanes over chunks, as `Plane::special_tile_counts` does.
fn tile_sums<T: Copy>(tiles: &[T], get: impl Fn(T) -> u32) -> u64 {
    let mut acc = 0u64;
    for chunk in tiles.chunks(1 << 15) {
        let (mut invisible, mut filled, mut ids) = (0u32, 0u32, 0u32);
        for &tile in chunk {
            let value = get(tile);
            let is_invisible = value == TILE_INVISIBLE;
            let is_filled = value == TILE_FILLED;
            invisible += u32::from(is_invisible);
            filled += u32::from(is_filled);
            ids += (value & 0xFFFF) * u32::from(!(is_invisible | is_filled));
        }
        acc += u64::from(invisible) + 2 * u64::from(filled) + u64::from(ids);
    }
    acc
}

/// Touches every plane, tile, image-set name, object and tile property record.
fn walk(level: &Level<'_>) -> u64 {
    let mut acc = 0u64;
    for plane in level.planes() {
        let plane = plane.unwrap();
        acc += tile_sums(plane.tiles(), |t| t.get());
        for name in plane.image_sets() {
            acc += name.unwrap().len() as u64;
        }
        for object in plane.objects() {
            let o = object.unwrap();
            acc += o.logic().len() as u64 + o.position().0.unsigned_abs() as u64;
        }
    }
    for record in level.tile_properties().unwrap().iter() {
        let r = record.unwrap();
        acc += match r.attributes() {
            TileAttributes::Single(v) => v.unsigned_abs() as u64,
            TileAttributes::Double(d) => d.inside.get().unsigned_abs() as u64,
            TileAttributes::Mask(m) => m.len() as u64,
        };
    }
    acc
}

/// The same walk over the owned copy.
fn walk_owned(data: &LevelData) -> u64 {
    let mut acc = 0u64;
    for plane in &data.planes {
        acc += tile_sums(&plane.tiles, |t| t);
        acc += plane.image_sets.iter().map(|n| n.len() as u64).sum::<u64>();
        for o in &plane.objects {
            acc += o.logic.len() as u64 + o.fixed.x.get().unsigned_abs() as u64;
        }
    }
    for r in &data.tile_properties.records {
        acc += match &r.attributes {
            AttributesData::Single(v) => v.unsigned_abs() as u64,
            AttributesData::Double(d) => d.inside.get().unsigned_abs() as u64,
            AttributesData::Mask(m) => m.len() as u64,
        };
    }
    acc
}

fn open(file: &[u8]) -> LevelFile {
    open_owned(file.to_vec())
}

/// Opens a level from bytes already read (what `LevelFile::open` does after the read).
fn open_owned(file: Vec<u8>) -> LevelFile {
    LevelFile::from_data(file, &LevelOptions::default()).unwrap()
}

/// Every file's bytes, as read from disk: the input of one iteration (not timed).
fn read_all(levels: &Levels) -> Vec<Vec<u8>> {
    levels.files.iter().map(|(_, f)| f.clone()).collect()
}

fn all_levels(c: &mut Criterion) {
    let levels = load();
    let image_bytes: usize = levels
        .files
        .iter()
        .map(|(_, f)| open(f).image().len())
        .sum();
    let mut g = c.benchmark_group("wwd/all_levels");
    g.throughput(Throughput::Bytes(image_bytes as u64));
    g.sample_size(20);
    g.bench_function("decompress_only", |b| {
        b.iter(|| {
            for (_, file) in &levels.files {
                black_box(decompress_only(black_box(file)));
            }
        })
    });
    g.bench_function("wap_core_open", |b| {
        b.iter_batched(
            || read_all(&levels),
            |files| {
                for file in files {
                    black_box(open_owned(black_box(file)));
                }
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("wap_core_open_and_walk", |b| {
        b.iter_batched(
            || read_all(&levels),
            |files| {
                for file in files {
                    let owner = open_owned(black_box(file));
                    black_box(walk(&owner.view().unwrap()));
                }
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("copying_parse_and_walk", |b| {
        b.iter_batched(
            || read_all(&levels),
            |files| {
                for file in files {
                    let owner = open_owned(black_box(file));
                    let data = LevelData::from_level(&owner.view().unwrap()).unwrap();
                    black_box(walk_owned(&data));
                }
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

fn uncompressed(c: &mut Criterion) {
    let levels = load();
    let Some((name, file)) = levels.files.iter().find(|(_, f)| f[8] & 2 == 0) else {
        return;
    };
    let mut g = c.benchmark_group(format!("wwd/uncompressed/{name}"));
    g.throughput(Throughput::Bytes(file.len() as u64));
    g.bench_function("parse_in_place", |b| {
        b.iter(|| black_box(Level::parse(black_box(file)).unwrap().plane_count()))
    });
    g.bench_function("parse_and_walk_in_place", |b| {
        b.iter(|| black_box(walk(&Level::parse(black_box(file)).unwrap())))
    });
    g.bench_function("copying_parse", |b| {
        b.iter(|| {
            let level = Level::parse(black_box(file)).unwrap();
            black_box(LevelData::from_level(&level).unwrap())
        })
    });
    g.finish();
}

fn header_only(c: &mut Criterion) {
    let levels = load();
    if levels.paths.is_empty() {
        return;
    }
    let mut g = c.benchmark_group("wwd/list_levels");
    g.sample_size(20);
    g.bench_function("read_header", |b| {
        b.iter(|| {
            for path in &levels.paths {
                black_box(read_header(black_box(path)).unwrap());
            }
        })
    });
    g.bench_function("read_and_open", |b| {
        b.iter(|| {
            for path in &levels.paths {
                black_box(LevelFile::open(black_box(path)).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, all_levels, uncompressed, header_only);
criterion_main!(benches);
