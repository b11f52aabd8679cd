//! A synthetic episode built with this crate's writers: the fixture for unit tests, benches,
//! fuzz seeds and `gamedata demo`, so that none of them needs the real game files.
//!
//! It holds a small tile set drawn from code (ground, grass, bricks, platforms, ice, slopes,
//! foliage, flowers), a TILEATTR.MNI giving each of those tiles its natural behaviour, maps
//! generated from a seed, a sprite of one frame for each of the 267 sprite types and a
//! backdrop. All of it is this project's own data.

// Generators: their arithmetic is on the caller's sizes (checked by the size types) and on
// small constants and random numbers below them, never on values read from a file.
#![allow(clippy::arithmetic_side_effects)]

use std::fmt;

use crate::error::{DataError, Result};
use crate::map::{Actor, ActorKind, MapFlags};
use crate::raw::{
    MAP_TILE_COUNT, MASKED_ATTR_STRIDE, MASKED_VALUE_BASE, MaskedTileRaw, SOLID_TILE_COUNT,
    SolidTileRaw, TILEATTR_LEN,
};
use crate::tileattr::TileAttributes as A;
use crate::tiles::TilePixels;
use crate::write::{write_group, write_map};
use gamedata_io::{PreviewBytes, PreviewTable};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use zerocopy::IntoBytes;

/// Solid tile indices of the synthetic tile set (map value = index * 8).
pub mod solid {
    /// Brown earth, blocks everything, clingable.
    pub const DIRT: u16 = 10;
    /// Grass over earth, blocks everything.
    pub const GRASS: u16 = 11;
    /// Red bricks, blocks everything, clingable.
    pub const BRICK: u16 = 12;
    /// A thin platform: blocks only southward movement.
    pub const PLATFORM: u16 = 13;
    /// Ice: blocks everything, slippery.
    pub const ICE: u16 = 14;
    /// An incline: sloped (auto-ascend), blocks nothing.
    pub const SLOPE: u16 = 15;
    /// Dark stone seen behind a cave: blocks nothing.
    pub const CAVE_WALL: u16 = 16;
    /// Foliage drawn in front of sprites: blocks nothing.
    pub const LEAVES: u16 = 17;
    /// A one-way wall: blocks only eastward movement.
    pub const ONE_WAY: u16 = 18;
    /// Tiles in the synthetic TILES.MNI.
    pub const COUNT: u16 = 19;
}

/// Masked tile indices of the synthetic tile set (map value = 16000 + index * 40).
pub mod masked {
    /// A flower: blocks nothing.
    pub const FLOWER: u16 = 0;
    /// A girder with holes: blocks southward movement, drawn in front.
    pub const GIRDER: u16 = 1;
    /// A crystal: blocks nothing.
    pub const CRYSTAL: u16 = 2;
    /// Tiles in the synthetic MASKTILE.MNI.
    pub const COUNT: u16 = 3;
}

/// Map value of solid tile `index`.
pub const fn solid_value(index: u16) -> u16 {
    index * 8
}

/// Map value of masked tile `index`.
pub const fn masked_value(index: u16) -> u16 {
    MASKED_VALUE_BASE + index * 40
}

/// The attribute byte of each synthetic solid tile, by index.
fn solid_attr(index: u16) -> u8 {
    let all = A::MOVEMENT;
    match index {
        solid::DIRT | solid::BRICK => all | A::CLINGABLE,
        solid::GRASS => all,
        solid::PLATFORM => A::BLOCK_SOUTH,
        solid::ICE => all | A::SLIPPERY,
        solid::SLOPE => A::SLOPED,
        solid::LEAVES => A::IN_FRONT,
        solid::ONE_WAY => A::BLOCK_EAST,
        _ => 0,
    }
}

/// The attribute byte of each synthetic masked tile, by index.
fn masked_attr(index: u16) -> u8 {
    match index {
        masked::GIRDER => A::BLOCK_SOUTH | A::IN_FRONT,
        _ => 0,
    }
}

/// The synthetic TILEATTR.MNI: 7,000 bytes.
pub fn tile_attributes() -> Vec<u8> {
    let mut bytes = vec![0u8; TILEATTR_LEN];
    for i in 0..solid::COUNT {
        if let Some(b) = bytes.get_mut(usize::from(i)) {
            *b = solid_attr(i);
        }
    }
    for i in 0..masked::COUNT {
        if let Some(b) = bytes.get_mut(SOLID_TILE_COUNT + MASKED_ATTR_STRIDE * usize::from(i)) {
            *b = masked_attr(i);
        }
    }
    bytes
}

/// Colour index of pixel (`x`, `y`) of synthetic solid tile `index`.
fn solid_pixel(index: u16, x: usize, y: usize) -> u8 {
    let speckle = (x * 7 + y * 13 + usize::from(index)).is_multiple_of(11);
    match index {
        solid::DIRT => {
            if speckle {
                8
            } else {
                6
            }
        }
        solid::GRASS => match y {
            0 | 1 => 10,
            2 if !x.is_multiple_of(3) => 2,
            _ if speckle => 8,
            _ => 6,
        },
        solid::BRICK => {
            let mortar = y % 4 == 3 || (x + if y < 4 { 0 } else { 4 }) % 8 == 7;
            if mortar { 7 } else { 4 }
        }
        solid::PLATFORM => match y {
            0 => 15,
            1 | 2 => 3,
            _ => 0,
        },
        solid::ICE => {
            if (x + y).is_multiple_of(5) {
                15
            } else {
                11
            }
        }
        solid::SLOPE if x >= 7 - y => {
            if x + y == 7 {
                10
            } else {
                6
            }
        }
        solid::CAVE_WALL => {
            if speckle {
                1
            } else {
                8
            }
        }
        solid::LEAVES => {
            if (x * 3 + y * 5).is_multiple_of(4) {
                10
            } else {
                2
            }
        }
        solid::ONE_WAY => {
            if x == 7 || (y + x).is_multiple_of(4) {
                14
            } else {
                5
            }
        }
        _ => 0,
    }
}

/// Colour of pixel (`x`, `y`) of synthetic masked tile `index`, `None` = transparent.
fn masked_pixel(index: u16, x: usize, y: usize) -> Option<u8> {
    match index {
        masked::FLOWER => match (x, y) {
            (2..=5, 0..=2) => Some(if (x, y) == (3, 1) || (x, y) == (4, 1) {
                14
            } else {
                12
            }),
            (3 | 4, 3..=7) => Some(2),
            (5, 5) | (2, 6) => Some(10),
            _ => None,
        },
        masked::GIRDER => ((y <= 1 || y >= 6) || (x + y).is_multiple_of(4)).then_some(13),
        masked::CRYSTAL => {
            let d = x.abs_diff(3) + y.abs_diff(3);
            (d <= 3).then_some(if d <= 1 { 15 } else { 9 })
        }
        _ => None,
    }
}

/// The synthetic TILES.MNI: [`solid::COUNT`] tiles of 32 bytes.
pub fn solid_tiles() -> Vec<u8> {
    (0..solid::COUNT)
        .flat_map(|i| {
            let pixels = std::array::from_fn(|y| std::array::from_fn(|x| solid_pixel(i, x, y)));
            SolidTileRaw::from_pixels(&pixels).as_bytes().to_vec()
        })
        .collect()
}

/// The synthetic MASKTILE.MNI: [`masked::COUNT`] tiles of 40 bytes.
pub fn masked_tiles() -> Vec<u8> {
    (0..masked::COUNT)
        .flat_map(|i| {
            let pixels: TilePixels =
                std::array::from_fn(|y| std::array::from_fn(|x| masked_pixel(i, x, y)));
            MaskedTileRaw::from_pixels(&pixels).as_bytes().to_vec()
        })
        .collect()
}

/// Sprite types in the synthetic ACTRINFO.MNI: as many as the game's.
pub const SPRITE_TYPES: u16 = 267;

/// The size in tiles (width, height) of sprite type `sprite`'s one frame: 1 to 3 each way.
pub const fn sprite_size(sprite: u16) -> (u16, u16) {
    (1 + sprite % 3, 1 + (sprite / 3) % 3)
}

/// Pixel (`x`, `y`) of sprite type `sprite`, within its frame of [`sprite_size`]: an
/// ellipse in one colour (1 to 15 by type) with a white top-left highlight, transparent
/// outside.
fn sprite_pixel(sprite: u16, x: usize, y: usize) -> Option<u8> {
    let (w, h) = sprite_size(sprite);
    let (w, h) = (usize::from(w) * 8, usize::from(h) * 8);
    // Inside the ellipse when ((2x + 1 - w) / w)^2 + ((2y + 1 - h) / h)^2 <= 1, in integers.
    let dx = (2 * x + 1).abs_diff(w) * h;
    let dy = (2 * y + 1).abs_diff(h) * w;
    let inside = dx * dx + dy * dy <= w * w * h * h;
    let colour = 1 + (sprite % 15) as u8;
    inside.then_some(if x * 4 < w && y * 4 < h { 15 } else { colour })
}

/// The synthetic ACTRINFO.MNI and ACTORS.MNI: [`SPRITE_TYPES`] sprite types of one frame
/// each ([`sprite_size`]), their tiles one after another in segment 0 (about 42 KB).
pub fn sprites() -> (Vec<u8>, Vec<u8>) {
    let mut info = Vec::new();
    let mut tiles = Vec::new();
    for sprite in 0..SPRITE_TYPES {
        // Word offset of the type's frame record: after the table, 4 words a frame.
        info.extend((SPRITE_TYPES + 4 * sprite).to_le_bytes());
    }
    for sprite in 0..SPRITE_TYPES {
        let (w, h) = sprite_size(sprite);
        let offset = u16::try_from(tiles.len()).unwrap_or(u16::MAX);
        for v in [h, w, offset, 0] {
            info.extend(v.to_le_bytes());
        }
        for row in 0..usize::from(h) {
            for col in 0..usize::from(w) {
                let pixels: TilePixels = std::array::from_fn(|y| {
                    std::array::from_fn(|x| sprite_pixel(sprite, col * 8 + x, row * 8 + y))
                });
                tiles.extend(MaskedTileRaw::from_pixels(&pixels).as_bytes());
            }
        }
    }
    (info, tiles)
}

/// The synthetic backdrop, BDROCKTK.MNI (backdrop 3, the synthetic maps' one): 40 x 18
/// solid tiles of sky in bands of blue and a star every few tiles.
pub fn backdrop() -> Vec<u8> {
    let mut out = Vec::new();
    for ty in 0..18usize {
        for tx in 0..40usize {
            let sky = match ty {
                0..6 => 1,
                6..12 => 9,
                _ => 3,
            };
            let star = (tx * 7 + ty * 3) % 11 == 0;
            let pixels = std::array::from_fn(|y| {
                std::array::from_fn(|x| if star && x == 3 && y == 3 { 15 } else { sky })
            });
            out.extend(SolidTileRaw::from_pixels(&pixels).as_bytes());
        }
    }
    out
}

/// A value in `0..n` (`n` > 0) from the seeded generator; the modulo bias is irrelevant
/// for level shapes.
fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    rng.next_u32() % n.max(1)
}

/// A generated level: tile values (row-major, 32,764 of them) and actors.
#[derive(Clone)]
pub struct Level {
    /// Width in tiles.
    pub width: u16,
    /// Height in tiles (32,768 / width).
    pub height: u16,
    /// Header flags.
    pub flags: MapFlags,
    /// Actors.
    pub actors: Vec<Actor>,
    /// Stored tile values, row-major, 32,764 of them.
    pub tiles: Vec<u16>,
}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Level")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("flags", &self.flags)
            .field("actors", &PreviewTable(&self.actors))
            .field("tiles", &PreviewTable(&self.tiles))
            .finish()
    }
}

/// Generates a level of `width` tiles (a power of two from 32 to 2048) from `seed`: rolling
/// ground with grass and slopes, a cave, floating platforms, brick towers, ice, foliage,
/// flowers and a few actors.
pub fn level(width: u16, seed: u32) -> Level {
    let w = usize::from(width.clamp(32, 2048));
    let h = 32_768 / w;
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(seed));
    let mut grid = vec![0u16; w * h];
    let put = |grid: &mut Vec<u16>, x: usize, y: usize, v: u16| {
        if x < w
            && y < h
            && let Some(cell) = grid.get_mut(y * w + x)
        {
            *cell = v;
        }
    };
    // Ground height per column: a random walk in the lower part of the map.
    let base = h * 3 / 4;
    let mut ground = Vec::with_capacity(w);
    let mut g = base;
    for _ in 0..w {
        if below(&mut rng, 4) == 0 {
            g = if below(&mut rng, 2) == 0 {
                g + 1
            } else {
                g.saturating_sub(1)
            };
            g = g.clamp(h / 2, h.saturating_sub(3));
        }
        ground.push(g);
    }
    let mut actors = vec![Actor {
        kind: ActorKind::Special(0),
        x: 2,
        y: u16::try_from(ground.first().copied().unwrap_or(base).saturating_sub(1)).unwrap_or(0),
    }];
    for (x, &top) in ground.iter().enumerate() {
        let icy = (x / 24) % 5 == 3;
        let surface = if icy { solid::ICE } else { solid::GRASS };
        put(&mut grid, x, top, solid_value(surface));
        for y in top + 1..h {
            put(&mut grid, x, y, solid_value(solid::DIRT));
        }
        // Where the ground rises to the east, the cell before the step is a slope.
        if let Some(&next) = ground.get(x + 1)
            && next < top
        {
            put(&mut grid, x, top - 1, solid_value(solid::SLOPE));
        } else if below(&mut rng, 6) == 0 && top > 0 {
            put(&mut grid, x, top - 1, masked_value(masked::FLOWER));
        }
    }
    // A cave under the ground: dark wall behind, crystals on its floor.
    let cave_x = w / 3;
    let cave_y = base + (h - base) / 2;
    for x in cave_x..(cave_x + w / 6).min(w) {
        for y in cave_y.saturating_sub(2)..(cave_y + 2).min(h - 1) {
            put(&mut grid, x, y, solid_value(solid::CAVE_WALL));
        }
        if x % 5 == 0 {
            put(&mut grid, x, cave_y + 1, masked_value(masked::CRYSTAL));
        }
    }
    // Floating platforms and girders, with an actor on some.
    let mut x = 6;
    while x + 8 < w {
        let len = 3 + below(&mut rng, 5) as usize;
        let lift = 4 + below(&mut rng, 6) as usize;
        let y = ground.get(x).copied().unwrap_or(base).saturating_sub(lift);
        let tile = if below(&mut rng, 3) == 0 {
            masked_value(masked::GIRDER)
        } else {
            solid_value(solid::PLATFORM)
        };
        for dx in 0..len {
            put(&mut grid, x + dx, y, tile);
        }
        if below(&mut rng, 2) == 0 && y > 0 {
            actors.push(Actor {
                kind: ActorKind::Normal(u16::try_from(below(&mut rng, 20)).unwrap_or(0)),
                x: u16::try_from(x + len / 2).unwrap_or(0),
                y: u16::try_from(y - 1).unwrap_or(0),
            });
        }
        x += len + 6 + below(&mut rng, 10) as usize;
    }
    // Brick towers with a one-way wall at their west foot, and trees of leaves.
    let mut x = 20;
    while x + 4 < w {
        let top = ground.get(x).copied().unwrap_or(base);
        let tall = 3 + below(&mut rng, 6) as usize;
        for y in top.saturating_sub(tall)..top {
            for dx in 0..2 {
                put(&mut grid, x + dx, y, solid_value(solid::BRICK));
            }
        }
        put(&mut grid, x - 1, top - 1, solid_value(solid::ONE_WAY));
        let tree = x + 9;
        let tree_top = ground.get(tree).copied().unwrap_or(base).saturating_sub(4);
        for y in tree_top.saturating_sub(2)..tree_top + 1 {
            for dx in 0..3 {
                put(&mut grid, tree + dx, y, solid_value(solid::LEAVES));
            }
        }
        x += 30 + below(&mut rng, 20) as usize;
    }
    grid.truncate(MAP_TILE_COUNT);
    Level {
        width: u16::try_from(w).unwrap_or(32),
        height: u16::try_from(h).unwrap_or(1024),
        flags: MapFlags {
            backdrop: 3,
            rain: seed.is_multiple_of(2),
            backdrop_h_scroll: true,
            backdrop_v_scroll: false,
            palette_animation: 0,
            music: 5,
        },
        actors,
        tiles: grid,
    }
}

/// A synthetic episode's two group files.
#[derive(Clone)]
pub struct SynthEpisode {
    /// COSMO1.STN: TILEATTR.MNI, TILES.MNI, MASKTILE.MNI, ACTRINFO.MNI, ACTORS.MNI.
    pub stn: Vec<u8>,
    /// COSMO1.VOL: A1.MNI (256 x 128 tiles), A2.MNI (64 x 512), A3.MNI (2048 x 16) and
    /// their backdrop, BDROCKTK.MNI.
    pub vol: Vec<u8>,
}

impl fmt::Debug for SynthEpisode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SynthEpisode")
            .field("stn", &PreviewBytes(&self.stn))
            .field("vol", &PreviewBytes(&self.vol))
            .finish()
    }
}

/// The maps of the synthetic VOL: (entry name, width in tiles, seed).
pub const MAPS: [(&str, u16, u32); 3] =
    [("A1.MNI", 256, 1), ("A2.MNI", 64, 2), ("A3.MNI", 2048, 3)];

/// Builds the synthetic episode.
///
/// Returns `Err` only if a writer refuses its input, which the fixed inputs here never cause.
pub fn episode() -> Result<SynthEpisode, DataError> {
    let (attrs, solid, masked) = (tile_attributes(), solid_tiles(), masked_tiles());
    let (info, actor_tiles) = sprites();
    let stn = write_group([
        ("TILEATTR.MNI", attrs.as_slice()),
        ("TILES.MNI", solid.as_slice()),
        ("MASKTILE.MNI", masked.as_slice()),
        ("ACTRINFO.MNI", info.as_slice()),
        ("ACTORS.MNI", actor_tiles.as_slice()),
    ])?;
    let maps = MAPS
        .iter()
        .map(|&(name, width, seed)| {
            let l = level(width, seed);
            write_map(l.flags, l.width, &l.actors, &l.tiles).map(|bytes| (name, bytes))
        })
        .collect::<Result<Vec<_>, DataError>>()?;
    let backdrop = backdrop();
    let vol = write_group(
        maps.iter()
            .map(|(n, b)| (*n, b.as_slice()))
            .chain([("BDROCKTK.MNI", backdrop.as_slice())]),
    )?;
    Ok(SynthEpisode { stn, vol })
}
