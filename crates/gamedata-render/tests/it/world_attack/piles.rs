//! Piles of statics and tall pictures: a block of 100,000 statics on one cell, a facet
//! whose every index entry aliases one pile, a tall item on every tile, and the measures
//! (ignored tests, run by hand with `/usr/bin/time`) of the work and memory they cost.

use std::time::Instant;

use gamedata_render::PngCompression;
use gamedata_render::uo::world::{WorldSource, WorldView};

use super::build::{Files, Pic, Placed, art_files, both, index, map_bytes, record, statics_files};

/// A 100,000-static pile on cell (3, 3) of block (0, 0), at every z, with 1,000 records at
/// x or y of 8 and more after it: every static of the cell drawn and counted once, the
/// records outside the block never.
#[test]
fn a_hundred_thousand_statics_on_one_cell_each_count_once() {
    let mut files = Files::plain(16, 16);
    files.map = map_bytes(16, 16, |_, _| (0, 0));
    let mut pile = Vec::with_capacity(101_000 * 7);
    for k in 0..100_000u32 {
        pile.extend_from_slice(&record(0x100, 3, 3, (k % 256) as u8 as i8, (k % 9) as u16));
    }
    for k in 0..1000u32 {
        let (x, y) = (8 + (k % 248) as u8, (k % 17) as u8);
        pile.extend_from_slice(&record(0x100, x, y.max(8 * (k % 2) as u8), 0, 0));
    }
    let mut entries = vec![(u32::MAX, u32::MAX); 4];
    entries[0] = (0, pile.len() as u32);
    files.staidx = index(&entries);
    files.statics = pile;
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    // Tile (3, 3)'s 2 x 2 pictures lie at x -1..1 and y 152 - 4 z - 2..152 - 4 z.
    let view = WorldView {
        x: -50,
        y: -400,
        width: 100,
        height: 1100,
    };
    let start = Instant::now();
    let (_, counts) = both(&source, view);
    assert_eq!(counts.statics_drawn, 100_000);
    eprintln!("100,000 statics on one cell: {:?}", start.elapsed());
}

/// A 128 x 128 facet (256 blocks) whose every staidx entry points at the one pile of
/// 10,000 statics: overlapping entries, so one block's statics are read and the others
/// are bad; the frame draws the pile once.
#[test]
fn every_block_aliasing_one_pile_draws_it_once() {
    let side = 128;
    let mut files = Files::plain(side, side);
    files.map = map_bytes(side, side, |_, _| (0, 0));
    let pile: Vec<u8> = (0..10_000u32)
        .flat_map(|k| record(0x100, (k % 8) as u8, (k / 8 % 8) as u8, (k % 100) as i8, 0))
        .collect();
    files.staidx = index(&vec![(0, pile.len() as u32); 256]);
    files.statics = pile;
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    let mut view = source.frame(None).unwrap();
    view.y -= 500;
    view.height += 500;
    let counts = source
        .write_png(view, PngCompression::Fast, std::io::sink(), &|_| {})
        .unwrap();
    assert!(counts.statics_drawn <= 10_000, "{counts:?}");
    eprintln!("aliased pile: {counts:?}");
}

/// A 1 x 0x7FFF item on every tile of a 64 x 64 facet: a 10 x 256 view over column 0
/// (the tiles (k, k)) draws each of the 64 whose picture crosses it, once.
#[test]
fn a_tall_item_on_every_tile_counts_the_ones_crossing_the_view() {
    let side = 64;
    let mut files = Files::plain(side, side);
    files.map = map_bytes(side, side, |_, _| (0, 0));
    (files.artidx, files.art) = art_files(&[(0x4100, Pic::item(1, 0x7FFF, &[(0, 1)]))]);
    let placed: Vec<Placed> = (0..side * side)
        .map(|k| Placed {
            x: k % side,
            y: k / side,
            z: 0,
            id: 0x100,
            hue: 0,
        })
        .collect();
    (files.staidx, files.statics) = statics_files(side, side, &placed);
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    let view = WorldView {
        x: -5,
        y: 0,
        width: 10,
        height: 256,
    };
    let (_, counts) = both(&source, view);
    assert_eq!(counts.statics_drawn, 64);
}

/// `ATTACK_SIDE` (tiles a side, 64), `ATTACK_TALL` (an item art entry of 1 x 0x7FFF that
/// no static uses), `ATTACK_STATICS` (statics on each tile, 0), `ATTACK_VIEW` (x,y,w,h):
/// the view written to a sink and the time it took; peak memory by `/usr/bin/time`.
#[test]
#[ignore = "a measure, run by hand"]
fn measure_world_view() {
    let var = |name: &str, default: i64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let side = var("ATTACK_SIDE", 64) as u32;
    let per_tile = var("ATTACK_STATICS", 0) as u32;
    let mut files = Files::plain(side, side);
    let mut pictures = vec![(3, Pic::Land), (0x4100, Pic::item(2, 2, &[(0, 2)]))];
    if var("ATTACK_TALL", 0) != 0 {
        pictures.push((0x4101, Pic::item(1, 0x7FFF, &[(0, 1)])));
    }
    (files.artidx, files.art) = art_files(&pictures);
    let placed: Vec<Placed> = (0..side * side)
        .flat_map(|k| {
            (0..per_tile).map(move |j| Placed {
                x: k % side,
                y: k / side,
                z: (j % 100) as i8,
                id: 0x100,
                hue: 0,
            })
        })
        .collect();
    (files.staidx, files.statics) = statics_files(side, side, &placed);
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    let view = match std::env::var("ATTACK_VIEW") {
        Ok(v) => {
            let p: Vec<i64> = v.split(',').map(|s| s.parse().unwrap()).collect();
            WorldView {
                x: p[0],
                y: p[1],
                width: p[2] as u32,
                height: p[3] as u32,
            }
        }
        Err(_) => source.frame(None).unwrap(),
    };
    let input = files.map.len() + files.statics.len() + files.staidx.len() + files.art.len();
    let start = Instant::now();
    let counts = source
        .write_png(view, PngCompression::Fast, std::io::sink(), &|_| {})
        .unwrap();
    eprintln!(
        "MEASURE side {side} statics/tile {per_tile} input {input} B view {view:?}: {:.3} s {counts:?}",
        start.elapsed().as_secs_f64()
    );
}

/// `ATTACK_ITEMS` distinct items of `ATTACK_SIDE_PX` x `ATTACK_SIDE_PX` pixels (each row
/// touching every page of its decoded row, all rows one row of bytes: a few KB of art an
/// item), stacked on one tile, drawn in one small view: the pictures a stripe decodes are
/// held together, so peak memory grows by their decoded size each.
#[test]
#[ignore = "a measure, run by hand"]
fn measure_decoded_pictures() {
    let var = |name: &str, default: u32| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let n = var("ATTACK_ITEMS", 4);
    let side = var("ATTACK_SIDE_PX", 4000) as u16;
    let mut files = Files::plain(16, 16);
    // A pixel every 1,000: each 4 KiB page of a decoded row written.
    let runs: Vec<(u16, u16)> = std::iter::once((0, 1))
        .chain((1..side / 1000).map(|_| (999, 1)))
        .collect();
    let pictures: Vec<(u32, Pic)> = (0..n)
        .map(|k| (0x4100 + k, Pic::item(side, side, &runs)))
        .collect();
    (files.artidx, files.art) = art_files(&pictures);
    let placed: Vec<Placed> = (0..n)
        .map(|k| Placed {
            x: 8,
            y: 8,
            z: 0,
            id: 0x100 + k as u16,
            hue: 0,
        })
        .collect();
    (files.staidx, files.statics) = statics_files(16, 16, &placed);
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    let view = WorldView {
        x: -10,
        y: 16 * 22 + 22 - 100,
        width: 20,
        height: 20,
    };
    let start = Instant::now();
    let (_, counts) = source.render(view).unwrap();
    eprintln!(
        "MEASURE {n} items of {side} x {side}, art {} B: {:.3} s {counts:?}",
        files.art.len(),
        start.elapsed().as_secs_f64()
    );
}
