//! A synthetic world: a seeded, deterministic generator of a whole facet (map, staidx,
//! statics, tiledata, radarcol, hues), for tests, benchmarks, fuzz seeds and the demo.
//!
//! The terrain is layered value noise shaped into continents: deep and shallow water,
//! sandy coasts, grassland, forests, rocky mountains with snow on top; towns of walled,
//! floored and roofed houses joined by dirt roads. A full facet 0 (7168 x 4096 tiles) holds
//! about 3 million statics and is generated in seconds (release build). Every byte is this
//! project's own; the tile ids and names echo the real game's (`docs/formats/uo.md`,
//! "Synthetic world").

// Generators: their arithmetic is on the caller's sizes (checked by the size types) and on
// small constants and random numbers below them, never on values read from a file.
#![allow(clippy::arithmetic_side_effects)]
// Float-to-integer casts saturate in Rust, and the generator's values are bounded by
// construction (noise in 0..1, positions inside the map): truncation is what is meant.
#![allow(clippy::cast_possible_truncation)]

use std::collections::HashMap;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use zerocopy::IntoBytes;
use zerocopy::little_endian::{U16, U32};

use crate::facet::map::MapSize;
use crate::raw::{EMPTY, IndexRecord, MapBlock, MapCell, StaticRecord};

mod diffs;
pub mod drawable;
mod pictures;
pub mod showcase;
mod tables;

pub use diffs::Diffs;
pub use showcase::Showcase;
pub use tables::{hues, radarcol, tiledata};

/// Land tile ids the generator uses.
pub mod land {
    /// Deep and shallow water.
    pub const WATER: u16 = 0x00A8;
    /// Beach sand.
    pub const SAND: u16 = 0x0016;
    /// Grass (the real game's land 3 is "grass" too).
    pub const GRASS: u16 = 0x0003;
    /// Forest floor.
    pub const FOREST: u16 = 0x00C4;
    /// Dirt roads.
    pub const DIRT: u16 = 0x0071;
    /// Mountain rock.
    pub const ROCK: u16 = 0x022C;
    /// Snow on the peaks.
    pub const SNOW: u16 = 0x011A;
    /// Lava: in blocks a synthetic diff patch replaces, and in the drawable world's
    /// showcase.
    pub const LAVA: u16 = 0x01F4;
    /// Shallows: wet land with a texture map, only in the drawable world's showcase.
    pub const SHALLOWS: u16 = 0x00A9;
}

/// Item tile ids the generator uses.
pub mod item {
    /// Trees (four kinds).
    pub const TREES: [u16; 4] = [0x0CCA, 0x0CCD, 0x0CD0, 0x0CD3];
    /// A bush.
    pub const BUSH: u16 = 0x0CB8;
    /// A boulder.
    pub const BOULDER: u16 = 0x1363;
    /// A stone wall.
    pub const WALL: u16 = 0x0006;
    /// A wooden floor.
    pub const FLOOR: u16 = 0x0519;
    /// A roof tile.
    pub const ROOF: u16 = 0x05B0;
    /// A lamp post on a road.
    pub const LAMP: u16 = 0x0B20;
    /// A gold coin: one stands at cell (3, 3) of every block a synthetic diff patch
    /// replaces.
    pub const GOLD: u16 = 0x0EED;
    /// A crate (the drawable world's showcase, as are the items below).
    pub const CRATE: u16 = 0x0E3D;
    /// A barrel, with the crate's flags and height.
    pub const BARREL: u16 = 0x0E77;
    /// A rug: a background item.
    pub const RUG: u16 = 0x0AC6;
    /// A table: a surface.
    pub const TABLE: u16 = 0x0B34;
    /// A vase, all grey pixels: hued in the showcase.
    pub const VASE: u16 = 0x0B45;
    /// A banner with the partial-hue flag: grey cloth on a brown pole.
    pub const BANNER: u16 = 0x15AE;
    /// A crystal with the translucent flag.
    pub const CRYSTAL: u16 = 0x1F19;
    /// A puddle with the wet flag.
    pub const PUDDLE: u16 = 0x1797;
    /// A tower whose picture is 220 pixels high.
    pub const TOWER: u16 = 0x1F20;
    /// An id the client never draws (`docs/formats/uo.md`, "The client's radar map").
    pub const UNDRAWN_LOW: u16 = 0x0001;
    /// The other id the showcase places that the client never draws.
    pub const UNDRAWN_HIGH: u16 = 0x21BC;
}

/// A generated world's files, in memory.
#[derive(Clone)]
pub struct World {
    /// Map size.
    pub size: MapSize,
    /// map{N}.mul.
    pub map: Vec<u8>,
    /// staidx{N}.mul.
    pub staidx: Vec<u8>,
    /// statics{N}.mul (7-byte records).
    pub statics: Vec<u8>,
    /// tiledata.mul, High Seas layout, group headers first.
    pub tiledata: Vec<u8>,
    /// radarcol.mul: 0x4000 land colours and 0x10000 item colours.
    pub radarcol: Vec<u8>,
    /// hues.mul: 8 groups of 8 hues.
    pub hues: Vec<u8>,
    /// Statics written.
    pub static_count: u64,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("size", &self.size)
            .field("static_count", &self.static_count)
            .finish_non_exhaustive()
    }
}

/// Lattice value noise: a few octaves of smoothly interpolated random grids.
struct Noise {
    octaves: Vec<Octave>,
}

struct Octave {
    cell: f32,
    width: usize,
    amplitude: f32,
    values: Vec<f32>,
}

impl Noise {
    fn new(rng: &mut ChaCha8Rng, width: u32, height: u32, cells: &[(u32, f32)]) -> Self {
        let octaves = cells
            .iter()
            .map(|&(cell, amplitude)| {
                let gw = (width / cell + 2) as usize;
                let gh = (height / cell + 2) as usize;
                let values = (0..gw * gh).map(|_| unit(rng)).collect();
                Octave {
                    cell: cell as f32,
                    width: gw,
                    amplitude,
                    values,
                }
            })
            .collect();
        Noise { octaves }
    }

    /// The noise at tile (x, y), about 0..1.
    fn at(&self, x: u32, y: u32) -> f32 {
        let mut sum = 0.0;
        let mut total = 0.0;
        for o in &self.octaves {
            let fx = x as f32 / o.cell;
            let fy = y as f32 / o.cell;
            let (ix, iy) = (fx as usize, fy as usize);
            let (tx, ty) = (smooth(fx.fract()), smooth(fy.fract()));
            let v = |dx: usize, dy: usize| {
                o.values
                    .get((iy + dy) * o.width + ix + dx)
                    .copied()
                    .unwrap_or(0.5)
            };
            let top = v(0, 0) + (v(1, 0) - v(0, 0)) * tx;
            let bottom = v(0, 1) + (v(1, 1) - v(0, 1)) * tx;
            sum += o.amplitude * (top + (bottom - top) * ty);
            total += o.amplitude;
        }
        sum / total
    }
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// A uniform value in 0..1.
fn unit(rng: &mut ChaCha8Rng) -> f32 {
    (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32
}

/// A value in 0..n.
fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    rng.next_u32() % n.max(1)
}

/// The random numbers of a synthetic picture set (art, gumps, texture maps, animations):
/// ChaCha8 seeded with `seed`, on the set's own `stream`, so each set's numbers differ from
/// the others' under one seed. Picture sets take their values from this and nowhere else.
pub(crate) fn picture_numbers(seed: u64, stream: PictureSet) -> impl FnMut() -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream as u64);
    move || rng.next_u64()
}

/// The synthetic picture sets, each on its own ChaCha8 stream ([`picture_numbers`]).
#[derive(Clone, Copy)]
pub(crate) enum PictureSet {
    Art = 1,
    Gumps = 2,
    Texmaps = 3,
    Animations = 4,
    UopAnimations = 5,
}

/// What a tile of terrain is.
#[derive(Clone, Copy)]
struct Ground {
    id: u16,
    z: i8,
    /// Forest density 0..1 on land.
    forest: f32,
}

/// A house: a rectangle of tiles.
#[derive(Clone, Copy)]
struct House {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
    z: i8,
}

impl World {
    /// The map (MUL form), statics index and statics data, for [`crate::Facet::parse`].
    pub fn facet_bytes(&self) -> crate::FacetBytes<'_> {
        crate::FacetBytes {
            map: &self.map,
            staidx: &self.staidx,
            statics: &self.statics,
        }
    }
}

impl World {
    /// Generates a world of `size` from `seed`. The same size and seed give the same bytes.
    pub fn generate(size: MapSize, seed: u64) -> World {
        Self::generate_with(size, seed, false)
    }

    /// [`World::generate`]'s world made to be drawn with the pictures of [`drawable`]: the
    /// [`Showcase`] stamped on it (what part of it the map holds), the tiledata of
    /// [`drawable::tiledata`] (land texture ids, the showcase's items) and the radar
    /// colours of [`drawable::radarcol`]. The same size and seed give the same bytes.
    pub fn generate_drawable(size: MapSize, seed: u64) -> World {
        Self::generate_with(size, seed, true)
    }

    /// The world, with the showcase when `drawable`.
    fn generate_with(size: MapSize, seed: u64, drawable: bool) -> World {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (w, h) = (size.width(), size.height());
        let scale = (w.max(h) as f32 / 4096.0).max(0.05);
        let octave = |c: f32| ((c * scale) as u32).max(4);
        let height_noise = Noise::new(
            &mut rng,
            w,
            h,
            &[
                (octave(1024.0), 1.0),
                (octave(384.0), 0.55),
                (octave(128.0), 0.25),
                (octave(32.0), 0.1),
                (octave(8.0), 0.04),
            ],
        );
        let moisture = Noise::new(&mut rng, w, h, &[(octave(256.0), 1.0), (octave(48.0), 0.4)]);
        let ground = |x: u32, y: u32| -> Ground {
            // Continents: noise pulled down towards the edges of the map.
            let (cx, cy) = (x as f32 / w as f32 - 0.5, y as f32 / h as f32 - 0.5);
            let edge = (cx * cx + cy * cy).sqrt() * 1.2;
            let e = height_noise.at(x, y) - edge * 0.45 + 0.12;
            let m = moisture.at(x, y);
            if e < 0.36 {
                let z = if e < 0.30 { -15 } else { -5 };
                return Ground {
                    id: land::WATER,
                    z,
                    forest: 0.0,
                };
            }
            if e < 0.39 {
                return Ground {
                    id: land::SAND,
                    z: 0,
                    forest: 0.0,
                };
            }
            let z = ((e - 0.39) * 260.0).min(120.0) as i8;
            if e > 0.70 {
                return Ground {
                    id: land::SNOW,
                    z,
                    forest: 0.0,
                };
            }
            if e > 0.58 {
                return Ground {
                    id: land::ROCK,
                    z,
                    forest: 0.05,
                };
            }
            let forest = ((m - 0.42) * 3.0).clamp(0.0, 1.0);
            let id = if forest > 0.3 {
                land::FOREST
            } else {
                land::GRASS
            };
            Ground { id, z, forest }
        };

        // Towns on flat grassland, then roads between neighbouring towns.
        let town_count = ((w as u64 * h as u64) / (700 * 700)).clamp(2, 40) as usize;
        let mut towns = Vec::new();
        let mut tries = 0;
        while towns.len() < town_count && tries < town_count * 200 {
            tries += 1;
            let (x, y) = (
                below(&mut rng, w.saturating_sub(80)) + 40,
                below(&mut rng, h.saturating_sub(80)) + 40,
            );
            let g = ground(x, y);
            if g.id == land::GRASS && g.z < 40 {
                towns.push((x, y, g.z));
            }
        }
        let mut houses = Vec::new();
        for &(tx, ty, z) in &towns {
            for _ in 0..6 + below(&mut rng, 8) {
                let hw = 5 + below(&mut rng, 6);
                let hh = 5 + below(&mut rng, 6);
                let x = (tx + below(&mut rng, 40)).saturating_sub(20);
                let y = (ty + below(&mut rng, 40)).saturating_sub(20);
                if x + hw < w && y + hh < h {
                    houses.push(House {
                        x,
                        y,
                        w: hw,
                        h: hh,
                        z,
                    });
                }
            }
        }
        let mut road = HashMap::new();
        for pair in towns.windows(2) {
            let [(x0, y0, _), (x1, y1, _)] =
                [pair.first(), pair.get(1)].map(|t| t.copied().unwrap_or_default());
            let mut mark = |x: u32, y: u32| {
                for d in 0..2 {
                    road.insert((x, y + d), ());
                }
            };
            for x in x0.min(x1)..=x0.max(x1) {
                mark(x, y0);
            }
            for y in y0.min(y1)..=y0.max(y1) {
                mark(x1, y);
            }
        }
        // House statics, keyed by block, in house order.
        let mut town_statics: HashMap<usize, Vec<StaticRecord>> = HashMap::new();
        for house in &houses {
            for y in house.y..house.y + house.h {
                for x in house.x..house.x + house.w {
                    let wall = x == house.x
                        || y == house.y
                        || x + 1 == house.x + house.w
                        || y + 1 == house.y + house.h;
                    let door = y + 1 == house.y + house.h && x == house.x + house.w / 2;
                    let mut put = |id: u16, dz: i8| {
                        if drawable && Showcase::contains(x, y) {
                            return;
                        }
                        if let Some(b) = size.block_index(x / 8, y / 8) {
                            town_statics.entry(b).or_default().push(record(
                                id,
                                x,
                                y,
                                house.z.saturating_add(dz),
                                0,
                            ));
                        }
                    };
                    put(item::FLOOR, 0);
                    if wall && !door {
                        put(item::WALL, 0);
                    }
                    put(item::ROOF, 20);
                }
            }
        }

        if drawable {
            for s in showcase::statics() {
                if let Some(b) = size.block_index(s.x / 8, s.y / 8) {
                    town_statics
                        .entry(b)
                        .or_default()
                        .push(record(s.id, s.x, s.y, s.z, s.hue));
                }
            }
        }

        // The map, column by column, and the statics of each block in the same order.
        let blocks = size.blocks();
        let mut map = Vec::with_capacity(blocks * size_of::<MapBlock>());
        let mut staidx = Vec::with_capacity(blocks * size_of::<IndexRecord>());
        let mut statics: Vec<u8> = Vec::new();
        let mut static_count = 0u64;
        let mut block_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x005E_ED0F_5747);
        let mut list = Vec::new();
        for bx in 0..size.width_blocks() {
            for by in 0..size.height_blocks() {
                let mut block = MapBlock {
                    header: U32::new(0),
                    cells: [MapCell {
                        id: U16::new(0),
                        z: 0,
                    }; 64],
                };
                list.clear();
                for cy in 0..8u32 {
                    for cx in 0..8u32 {
                        let (x, y) = (bx * 8 + cx, by * 8 + cy);
                        if drawable && let Some((id, z)) = showcase::land(x, y) {
                            if let Some(cell) = block.cells.get_mut((cy * 8 + cx) as usize) {
                                *cell = MapCell {
                                    id: U16::new(id),
                                    z,
                                };
                            }
                            continue;
                        }
                        let mut g = ground(x, y);
                        let on_road = road.contains_key(&(x, y)) && g.id != land::WATER;
                        if on_road {
                            g.id = land::DIRT;
                        }
                        if let Some(cell) = block.cells.get_mut((cy * 8 + cx) as usize) {
                            *cell = MapCell {
                                id: U16::new(g.id),
                                z: g.z,
                            };
                        }
                        if on_road {
                            if (x + y) % 23 == 0 {
                                list.push(record(item::LAMP, x, y, g.z, 0));
                            }
                            continue;
                        }
                        let r = unit(&mut block_rng);
                        if g.forest > 0.0 && r < g.forest * 0.75 {
                            let tree = item::TREES
                                .get(below(&mut block_rng, 4) as usize)
                                .copied()
                                .unwrap_or(item::TREES[0]);
                            list.push(record(tree, x, y, g.z, 0));
                        } else if g.id == land::ROCK && r > 0.9 {
                            list.push(record(item::BOULDER, x, y, g.z, 0));
                        } else if g.id == land::GRASS && r > 0.93 {
                            list.push(record(item::BUSH, x, y, g.z, 0));
                        }
                    }
                }
                let index = size.block_index(bx, by).unwrap_or(0);
                if let Some(town) = town_statics.get(&index) {
                    // Houses replace the trees that grew where they stand.
                    list.retain(|s| !town.iter().any(|t| t.x == s.x && t.y == s.y));
                    list.extend_from_slice(town);
                }
                map.extend_from_slice(block.as_bytes());
                let entry = if list.is_empty() {
                    IndexRecord {
                        offset: U32::new(EMPTY),
                        length: U32::new(EMPTY),
                        extra: U32::new(0),
                    }
                } else {
                    let offset = u32::try_from(statics.len()).unwrap_or(EMPTY);
                    statics.extend_from_slice(list.as_bytes());
                    static_count += list.len() as u64;
                    IndexRecord {
                        offset: U32::new(offset),
                        length: U32::new(u32::try_from(list.len() * 7).unwrap_or(0)),
                        extra: U32::new(0),
                    }
                };
                staidx.extend_from_slice(entry.as_bytes());
            }
        }
        World {
            size,
            map,
            staidx,
            statics,
            tiledata: if drawable {
                drawable::tiledata()
            } else {
                tiledata()
            },
            radarcol: if drawable {
                drawable::radarcol()
            } else {
                radarcol()
            },
            hues: hues(),
            static_count,
        }
    }
}

/// A 7-byte static at tile (x, y) (stored relative to its block).
fn record(id: u16, x: u32, y: u32, z: i8, hue: u16) -> StaticRecord {
    StaticRecord {
        id: U16::new(id),
        x: (x % 8) as u8,
        y: (y % 8) as u8,
        z,
        hue: U16::new(hue),
    }
}
