//! A synthetic Claw-style level: a seeded, deterministic generator for tests, benchmarks,
//! fuzz seeds and the demo. Three planes (a wrapping background, the main plane, a front
//! plane), every kind of tile property record (single, double, mask) and a few hundred
//! objects. The same seed and size give the same bytes.

// Generators: their arithmetic is on the caller's sizes (checked by the size types) and on
// small constants and random numbers below them, never on values read from a file.
#![allow(clippy::arithmetic_side_effects)]

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use zerocopy::FromZeros;

use crate::raw::{
    DoubleAttributes, HEADER_LEN, ObjectFixed, PLANE_HEADER_LEN, PlaneHeader, Rect, TILE_FILLED,
    TILE_INVISIBLE, TilePropertiesHeader, WwdHeader,
};
use crate::write::{
    AttributesData, LevelData, ObjectData, PlaneData, TilePropertiesData, TilePropertyData,
};

/// Tile ids of the synthetic tile set, and the record each has in the tile property table.
pub mod tiles {
    /// Empty: single, clear.
    pub const CLEAR: u16 = 0;
    /// Rock: single, solid.
    pub const ROCK: u16 = 1;
    /// Grass top: double, ground in the top 8 pixel rows, clear below.
    pub const GRASS: u16 = 2;
    /// Ladder: single, climb.
    pub const LADDER: u16 = 3;
    /// Spikes: double, death in the bottom half.
    pub const SPIKES: u16 = 4;
    /// Slope rising to the right: mask, solid under the diagonal.
    pub const SLOPE: u16 = 5;
    /// Wall on the left half: double, solid inside.
    pub const HALF_WALL: u16 = 6;
    /// Number of records in the table.
    pub const COUNT: usize = 8;
}

/// Tile size of the synthetic level in pixels.
pub const TILE_PX: i32 = 64;

fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    rng.next_u32() % n.max(1)
}

fn text<const N: usize>(s: &str) -> [u8; N] {
    let mut field = [0u8; N];
    for (slot, b) in field.iter_mut().zip(s.bytes().take(N.saturating_sub(1))) {
        *slot = b;
    }
    field
}

fn plane_header(
    name: &str,
    flags: u32,
    wide: u32,
    high: u32,
    z: i32,
    movement: i32,
) -> PlaneHeader {
    let mut h = PlaneHeader::new_zeroed();
    let (wide, high) = (
        i32::try_from(wide).unwrap_or(i32::MAX),
        i32::try_from(high).unwrap_or(i32::MAX),
    );
    h.size.set(u32::try_from(PLANE_HEADER_LEN).unwrap_or(160));
    h.flags.set(flags);
    h.name = text(name);
    h.width_px.set(wide.saturating_mul(TILE_PX));
    h.height_px.set(high.saturating_mul(TILE_PX));
    h.tile_width.set(TILE_PX);
    h.tile_height.set(TILE_PX);
    h.tiles_wide.set(wide);
    h.tiles_high.set(high);
    h.movement_x_percent.set(movement);
    h.movement_y_percent.set(movement);
    h.fill_color.set(50);
    h.z.set(z);
    h
}

fn tile(id: u16) -> u32 {
    u32::from(id)
}

fn object(id: i32, logic: &str, image_set: &str, x: i32, y: i32) -> ObjectData {
    let mut fixed = ObjectFixed::new_zeroed();
    fixed.id.set(id);
    fixed.x.set(x);
    fixed.y.set(y);
    fixed.z.set(1000);
    fixed.object_type.set(0x1);
    ObjectData {
        fixed,
        name: Vec::new(),
        logic: logic.as_bytes().to_vec(),
        image_set: image_set.as_bytes().to_vec(),
        animation: Vec::new(),
    }
}

fn tile_properties() -> TilePropertiesData {
    let px = TILE_PX.unsigned_abs();
    let record = |attributes| TilePropertyData {
        reserved: 0,
        width: px,
        height: px,
        attributes,
    };
    let double = |outside: i32, inside: i32, rect: Rect| {
        AttributesData::Double(DoubleAttributes {
            outside: outside.into(),
            inside: inside.into(),
            rect,
        })
    };
    let last = TILE_PX - 1;
    let slope: Vec<u8> = (0..TILE_PX)
        .flat_map(|y| (0..TILE_PX).map(move |x| u8::from(x + y >= last)))
        .collect();
    let mut records = vec![
        record(AttributesData::Single(0)),
        record(AttributesData::Single(1)),
        record(double(0, 2, Rect::new(0, 0, last, 7))),
        record(AttributesData::Single(3)),
        record(double(0, 4, Rect::new(0, 32, last, last))),
        record(AttributesData::Mask(slope)),
        record(double(0, 1, Rect::new(0, 0, 31, last))),
    ];
    records.resize(tiles::COUNT, record(AttributesData::Single(0)));
    let mut header = TilePropertiesHeader::new_zeroed();
    header.size.set(32);
    TilePropertiesData { header, records }
}

/// Generates a level whose main plane is `wide x high` tiles (each at least 16), from
/// `seed`: ground that rises and falls with slopes, pits with spikes, ladders, walls, and
/// treasure, enemies and checkpoints on the ground.
pub fn level(seed: u64, wide: u32, high: u32) -> LevelData {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (wide, high) = (wide.max(16), high.max(16));
    let mut main = vec![TILE_INVISIBLE; wide as usize * high as usize];
    let mut objects = Vec::new();
    let mut ground = high * 2 / 3;
    let mut next_id = 1;
    let put = |tiles: &mut [u32], x: u32, y: u32, id: u16| {
        if let Some(t) = tiles.get_mut(y as usize * wide as usize + x as usize) {
            *t = tile(id);
        }
    };
    for x in 0..wide {
        let step = below(&mut rng, 10);
        let mut surface = tiles::GRASS;
        if step == 0 && ground > high / 3 {
            ground -= 1;
            surface = tiles::SLOPE;
        } else if step == 1 && ground < high - 3 {
            ground += 1;
        }
        let pit = x > 4 && x + 4 < wide && below(&mut rng, 24) == 0;
        for y in ground..high {
            let id = if pit {
                if y + 1 == high {
                    tiles::SPIKES
                } else {
                    tiles::CLEAR
                }
            } else if y == ground {
                surface
            } else {
                tiles::ROCK
            };
            put(&mut main, x, y, id);
        }
        if !pit && below(&mut rng, 16) == 0 && ground > 6 {
            let top = ground - 1 - below(&mut rng, 4);
            for y in top..ground {
                put(&mut main, x, y, tiles::HALF_WALL);
            }
        }
        if !pit && below(&mut rng, 20) == 0 && ground > 8 {
            for y in ground.saturating_sub(5)..ground {
                put(&mut main, x, y, tiles::LADDER);
            }
        }
        let px = i32::try_from(x).unwrap_or(i32::MAX).saturating_mul(TILE_PX) + TILE_PX / 2;
        let py = i32::try_from(ground)
            .unwrap_or(i32::MAX)
            .saturating_mul(TILE_PX)
            - TILE_PX / 2;
        if !pit && x > 1 {
            let (logic, set) = match below(&mut rng, 12) {
                0..=3 => ("Treasure", "GAME_TREASURE_COINS"),
                4 => ("Officer", "LEVEL_OFFICER"),
                5 => ("Soldier", "LEVEL_SOLDIER"),
                6 if x % 32 == 0 => ("Checkpoint", "GAME_CHECKPOINTFLAG"),
                _ => ("", ""),
            };
            if !logic.is_empty() {
                objects.push(object(next_id, logic, set, px, py));
                next_id += 1;
            }
        }
    }
    let end_x = i32::try_from(wide - 2)
        .unwrap_or(i32::MAX)
        .saturating_mul(TILE_PX);
    objects.push(object(
        next_id,
        "EndOfLevelPowerup",
        "GAME_MAPPIECE",
        end_x,
        TILE_PX,
    ));

    let back_size = 8;
    let back = (0..back_size * back_size)
        .map(|i| {
            if i % 5 == 0 {
                TILE_FILLED
            } else {
                tile(tiles::ROCK)
            }
        })
        .collect();
    let front_high = high / 2;
    let front = (0..wide * front_high)
        .map(|i| {
            if i % 7 == 0 {
                tile(tiles::GRASS)
            } else {
                TILE_INVISIBLE
            }
        })
        .collect();
    let planes = vec![
        PlaneData {
            header: plane_header("Background", 0xC, back_size, back_size, -999, 50),
            tiles: back,
            image_sets: vec![b"BACK".to_vec()],
            objects: Vec::new(),
        },
        PlaneData {
            header: plane_header("Action", 0x1, wide, high, 0, 100),
            tiles: main,
            image_sets: vec![b"ACTION".to_vec()],
            objects,
        },
        PlaneData {
            header: plane_header("Front", 0x4, wide, front_high, 9000, 150),
            tiles: front,
            image_sets: vec![b"FRONT".to_vec()],
            objects: Vec::new(),
        },
    ];

    let mut header = WwdHeader::new_zeroed();
    header.size.set(u32::try_from(HEADER_LEN).unwrap_or(1524));
    header.flags.set(0x2);
    header.name = text(&format!("Synthetic level {seed}"));
    header.author = text("gamedata synth");
    header.birth = text("2026-11-22");
    header.rez_file = text("..\\CLAW.REZ");
    header.image_dir = text("\\LEVEL1\\TILES");
    header.pal_rez = text("\\LEVEL1\\PALETTES\\MAIN.PAL");
    header.launch_app = text("..\\CLAW.EXE");
    header.image_sets[0] = text("LEVEL1\\IMAGES");
    header.image_sets[1] = text("GAME\\IMAGES");
    header.prefixes[0] = text("LEVEL");
    header.prefixes[1] = text("GAME");
    header.start_x.set(TILE_PX * 2);
    header.start_y.set(TILE_PX);
    LevelData {
        header,
        planes,
        tile_properties: tile_properties(),
    }
}

/// An image of a synthetic archive: its path without `.PID` (`LEVEL1/TILES/ACTION/012`),
/// its size and its offset, in pixels.
pub type SynthImage<'a> = (&'a str, (u32, u32), (i32, i32));

/// The colour index a synthetic image is filled with: 16 to 255, from its path (FNV-1a),
/// so that pictures show which image was drawn where.
pub fn image_index(path: &str) -> u8 {
    let hash = path.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    u8::try_from(hash % 240).map_or(16, |v| v.saturating_add(16))
}

/// The palette of a synthetic archive: colour i is (i, 255 - i, i * 7 mod 256).
pub fn palette() -> [u8; 768] {
    std::array::from_fn(|k| {
        let (i, channel) = (k / 3, k % 3);
        let v = match channel {
            0 => i,
            1 => 255usize.saturating_sub(i),
            _ => i.wrapping_mul(7) % 256,
        };
        u8::try_from(v).unwrap_or(0)
    })
}

/// A REZ archive holding `images` as RLE PIDs of their size and offset, each filled with
/// [`image_index`] of its path but for its top-left pixel (transparent), and
/// [`palette`] at each of `palettes` (`LEVEL1/PALETTES/MAIN.PAL`): an archive shaped like
/// the game's, with synthetic pixels.
///
/// Returns `Err` as [`crate::write_rez()`].
pub fn image_archive(
    images: &[SynthImage<'_>],
    palettes: &[&str],
) -> Result<Vec<u8>, crate::DataError> {
    image_archive_with(images, palettes, &[])
}

/// [`image_archive`] with the files `extra` (path, bytes) stored too (animations, say).
///
/// Returns `Err` as [`crate::write_rez()`].
pub fn image_archive_with(
    images: &[SynthImage<'_>],
    palettes: &[&str],
    extra: &[(&str, &[u8])],
) -> Result<Vec<u8>, crate::DataError> {
    use crate::pid::{PidFlags, PidPixels, write_pid};
    let pids: Vec<(String, Vec<u8>)> = images
        .iter()
        .map(|&(path, (w, h), offset)| {
            let n = usize::try_from(u64::from(w).saturating_mul(u64::from(h))).unwrap_or(0);
            let pixels = PidPixels {
                width: w,
                height: h,
                indices: vec![image_index(path); n],
                opaque: (0..n).map(|i| i != 0).collect(),
            };
            let pid = write_pid(&pixels, offset, PidFlags::empty(), None, true);
            (format!("{path}.PID"), pid)
        })
        .collect();
    let palette = palette();
    let mut files: Vec<(&str, &[u8])> = pids
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    files.extend(palettes.iter().map(|p| (*p, &palette[..])));
    files.extend_from_slice(extra);
    crate::write_rez(&files)
}

/// A REZ archive holding every image `level` draws (each tile of its planes' tile sets, 64
/// x 64 pixels; each object's frame, 32 x 48 pixels moved up 8), found through the level's
/// own names ([`crate::ImageNames`]: `LEVEL1/TILES/ACTION/012`,
/// `LEVEL1/IMAGES/OFFICER/FRAME000`), and its palette: what `gamedata demo` draws the
/// synthetic level with. The object sets' names hold no folder with `_` of its own.
///
/// Returns `Err` when the level cannot be read, or as [`crate::write_rez()`].
pub fn level_archive(level: &LevelData) -> Result<Vec<u8>, crate::DataError> {
    use std::collections::BTreeMap;
    let image = level.image()?;
    let view = crate::Level::parse(&image)?;
    let names = crate::ImageNames::of(&view.header());
    // Path, then whether a tile (64 x 64) or an object's frame (32 x 48, moved up 8).
    let mut paths: BTreeMap<String, bool> = BTreeMap::new();
    for plane in view.planes() {
        let plane = plane?;
        let sets: Vec<String> = plane
            .image_sets()
            .map(|s| s.map(|s| names.tile_folder(s)))
            .collect::<Result<_, _>>()?;
        for tile in plane.tiles() {
            if let crate::Tile::Image { set, id } = crate::Tile::from_raw(tile.get())
                && let Some(folder) = sets.get(usize::from(set))
            {
                paths.insert(format!("{folder}/{id:03}"), true);
            }
        }
        for object in plane.objects() {
            let object = object?;
            let folder = names.object_set(object.image_set()).replace('_', "/");
            let frame = object.raw().i.get().max(0);
            paths.insert(format!("{folder}/FRAME{frame:03}"), false);
        }
    }
    let images: Vec<SynthImage<'_>> = paths
        .iter()
        .map(|(p, &tile)| {
            if tile {
                (p.as_str(), (64, 64), (0, 0))
            } else {
                (p.as_str(), (32, 48), (0, -8))
            }
        })
        .collect();
    image_archive(&images, &[names.palette.as_str()])
}

/// A level of `count` planes of `wide` x `high` tiles made from a three-plane level (a
/// background, an action plane, a front, as Claw's retail levels are): the first plane the
/// background's tiles, the last the front's, the main plane in the middle the action
/// plane's with its objects, the planes between copies of the action plane's tiles, each
/// shifted (`37 * i` tiles across, a third of that down) so that no two draw alike; every
/// plane's tiles repeated from the original's, so that each names an image of the
/// original's tile sets. What the renderer's compositing benchmark draws: many full-size
/// planes, most of them partly transparent.
///
/// Returns `None` when `level` does not have three planes, `count` is below 3, or the
/// planes would pass `i32` pixels.
pub fn stacked_planes(level: &LevelData, count: u32, wide: u32, high: u32) -> Option<LevelData> {
    let [back, action, front] = level.planes.as_slice() else {
        return None;
    };
    if count < 3 || wide == 0 || high == 0 {
        return None;
    }
    let main = count / 2;
    let mut planes = Vec::new();
    for i in 0..count {
        let z = i32::try_from(i).ok()?.checked_mul(100)?.checked_sub(1000)?;
        let (from, name, shift) = match i {
            0 => (back, "Background".to_owned(), 0),
            _ if i + 1 == count => (front, "Front".to_owned(), 0),
            _ if i == main => (action, "Action".to_owned(), 0),
            _ => (action, format!("Action {i}"), i * 37),
        };
        let mut plane = from.clone();
        plane.tiles = repeated(from, wide, high, shift);
        let h = &mut plane.header;
        let (w, hh) = (i32::try_from(wide).ok()?, i32::try_from(high).ok()?);
        h.tiles_wide = w.into();
        h.tiles_high = hh.into();
        h.width_px = w.checked_mul(h.tile_width.get())?.into();
        h.height_px = hh.checked_mul(h.tile_height.get())?.into();
        h.name = text(&name);
        if i == main {
            h.z = 0.into();
        } else {
            h.z = z.into();
            // One main plane, holding the objects.
            plane.objects.clear();
            h.flags = (h.flags.get() & !crate::PlaneFlags::MAIN.bits()).into();
        }
        planes.push(plane);
    }
    let mut made = level.clone();
    made.planes = planes;
    Some(made)
}

/// `from`'s tiles repeated over a `wide` x `high` grid, shifted by `shift` tiles across and
/// a third of it down.
fn repeated(from: &PlaneData, wide: u32, high: u32, shift: u32) -> Vec<u32> {
    let w = from.header.tiles_wide.get().unsigned_abs().max(1);
    let h = from.header.tiles_high.get().unsigned_abs().max(1);
    let mut tiles = Vec::with_capacity(wide as usize * high as usize);
    for y in 0..high {
        for x in 0..wide {
            let (sx, sy) = ((x + shift) % w, (y + shift / 3) % h);
            let at = sy as usize * w as usize + sx as usize;
            tiles.push(from.tiles.get(at).copied().unwrap_or(TILE_INVISIBLE));
        }
    }
    tiles
}
