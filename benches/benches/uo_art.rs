//! Ultima Online art: every land tile and item of a synthetic art set (1,024 land tiles and
//! 4,096 items of 1 to 64 x 1 to 96 pixels, `mul_core::art::write::synthetic_art_sized`)
//! decoded to RGBA, side by side:
//!
//! - `gamedata`: `mul_core::Art` over the bytes in memory, each picture drawn by
//!   `gamedata_render::uo::art` (`land_picture`, `item_picture`) as the client draws it;
//! - `gamedata_parallel`: the same with rayon over the entries;
//! - `uo_rust_libs`: uo-rust-libs 0.1.0 as its users call it, `ArtReader::read_tile` and
//!   `read_static` then `Art::to_image` (its `image` feature), over in-memory readers;
//! - `raw_read`: one sequential read of art.mul's bytes (the memory-bandwidth limit).
//!
//! ultimapy, a Python package, is timed against the gamedata Python package by
//! `tools/reference/uo_art_ultimapy.py --time` (the figures of both: `benches/README.md`).

// A bench may panic on setup failure: it has nothing to measure then.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation,
    missing_docs
)]

use std::hint::black_box;
use std::io::Cursor;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use mul_core::art::ITEM_BASE;
use mul_core::{Art, Limits};
use rayon::prelude::*;
use uorustlibs::art::{Art as _, ArtReader};
use uorustlibs::mul::MulReader;

const LANDS: usize = 1024;
const ITEMS: usize = 4096;

/// One picture's RGBA summed (a cheap checksum that reads every byte).
fn sum(pixels: &[u8]) -> u64 {
    pixels.iter().map(|&b| u64::from(b)).sum()
}

/// Entry `number` drawn as the client draws it; 0 for no picture.
fn ours(art: &Art<'_>, number: usize, limits: &Limits) -> u64 {
    if number < ITEM_BASE {
        match art.land(number as u16) {
            Ok(Some(land)) => sum(land_picture(&land, ArtHue::None).unwrap().pixels()),
            _ => 0,
        }
    } else {
        match art.item_at(number as u32) {
            Ok(Some(item)) if item.width() > 0 && item.height() > 0 => {
                sum(item_picture(&item, ArtHue::None, limits).unwrap().pixels())
            }
            _ => 0,
        }
    }
}

fn art(c: &mut Criterion) {
    let (index, data) = mul_core::art::write::synthetic_art_sized(1, LANDS, ITEMS);
    let art = Art::parse(&index, &data).unwrap();
    let numbers: Vec<usize> = (0..LANDS).chain(ITEM_BASE..ITEM_BASE + ITEMS).collect();
    let limits = Limits::default();
    let mut g = c.benchmark_group("uo_art/decode_all");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    let expected: u64 = numbers.iter().map(|&n| ours(&art, n, &limits)).sum();
    g.bench_function("gamedata", |b| {
        b.iter(|| {
            let total: u64 = numbers.iter().map(|&n| ours(&art, n, &limits)).sum();
            assert_eq!(total, expected);
            black_box(total)
        });
    });
    g.bench_function("gamedata_parallel", |b| {
        b.iter(|| {
            let total: u64 = numbers.par_iter().map(|&n| ours(&art, n, &limits)).sum();
            assert_eq!(total, expected);
            black_box(total)
        });
    });
    g.bench_function("uo_rust_libs", |b| {
        b.iter(|| {
            let mul = MulReader::from_readables(Cursor::new(&index[..]), Cursor::new(&data[..]));
            let mut reader = ArtReader::from_mul(mul);
            let mut total = 0u64;
            for id in 0..LANDS as u32 {
                if let Ok(tile) = reader.read_tile(id) {
                    total += sum(tile.to_image().as_raw());
                }
            }
            for id in 0..ITEMS as u32 {
                if let Ok(item) = reader.read_static(id) {
                    total += sum(item.to_image().as_raw());
                }
            }
            black_box(total)
        });
    });
    g.bench_function("raw_read", |b| b.iter(|| black_box(sum(black_box(&data)))));
    g.finish();
}

criterion_group!(benches, art);
criterion_main!(benches);
