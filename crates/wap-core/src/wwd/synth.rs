//! A synthetic Claw-style level: a seeded, deterministic generator for tests, benchmarks,
//! fuzz seeds and the demo, and an archive of pictures for it. Three planes: a wrapping
//! background (a sky shading from deep blue to pale, clouds, distant hills), the main plane
//! (grass-topped ground that rises by slopes, pits with spikes, stone ledges with ladders up
//! to them, stone posts) and a front plane (leaves and vines hanging from the top); every kind of tile
//! property record (single, double, mask); treasure, enemies and checkpoints standing on the
//! ground, a few hundred in a large level. The same seed and size give the same bytes.

// Generators: their arithmetic is on the caller's sizes (checked by the size types) and on
// small constants and random numbers below them, never on values read from a file.
#![allow(clippy::arithmetic_side_effects)]

mod art;
mod tile_ids;

pub use art::{colour, level_palette};
pub use tile_ids::{back_tiles, front_tiles, tiles};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use zerocopy::FromZeros;

use crate::raw::{
    DoubleAttributes, HEADER_LEN, ObjectFixed, PLANE_HEADER_LEN, PlaneHeader, Rect, TILE_FILLED,
    TILE_INVISIBLE, TilePropertiesHeader, WwdHeader,
};
use crate::wwd::write::{
    AttributesData, LevelData, ObjectData, PlaneData, TilePropertiesData, TilePropertyData,
};

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
        record(double(0, 2, Rect::new(0, 0, last, 7))),
    ];
    records.resize(tiles::COUNT, record(AttributesData::Single(0)));
    let mut header = TilePropertiesHeader::new_zeroed();
    header.size.set(32);
    TilePropertiesData { header, records }
}

/// Generates a level whose main plane is `wide x high` tiles (each at least 16), from
/// `seed`: grass-topped ground that rises by slopes and falls by steps after flat runs of
/// at least 3 columns, pits 2 or 3 columns wide with spikes at the bottom, stone ledges 3 to
/// 5 tiles long 3 or 4 rows above the ground with a ladder up to their left end, stone posts,
/// and, standing on the ground, treasure (on each ledge too), officers, soldiers, a
/// checkpoint every 32 columns and the map piece that ends the level near the right edge.
/// The start is on the ground in column 2. The background plane (16 tiles wide, as high as
/// the main plane, wrapping) is a sky of filled tiles (colour [`colour::SKY`]) with clouds,
/// shading to pale over 6 rows ([`back_tiles`]) down to a row of distant hills 3/5 of the
/// way down; the front plane (half as high) holds leaves along its top, vines hanging from them.
pub fn level(seed: u64, wide: u32, high: u32) -> LevelData {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (wide, high) = (wide.max(16), high.max(16));
    let w = wide as usize;
    // The ground: its top row in each column.
    let mut ground = vec![high * 2 / 3; w];
    let mut slope = vec![false; w];
    let mut pit = vec![false; w];
    let mut g = high * 2 / 3;
    let mut run = 0u32;
    let mut x = 0u32;
    while x < wide {
        if run >= 3 && x > 4 && x + 7 < wide && below(&mut rng, 20) == 0 {
            let n = 2 + below(&mut rng, 2);
            for k in x..x + n {
                if let (Some(p), Some(t)) = (pit.get_mut(k as usize), ground.get_mut(k as usize)) {
                    (*p, *t) = (true, g);
                }
            }
            x += n;
            run = 0;
            continue;
        }
        if run >= 3 && x + 3 < wide {
            match below(&mut rng, 8) {
                0 if g > high / 3 + 1 => {
                    g -= 1;
                    if let Some(s) = slope.get_mut(x as usize) {
                        *s = true;
                    }
                    run = 0;
                }
                1 if g + 4 < high => {
                    g += 1;
                    run = 0;
                }
                _ => {}
            }
        }
        if let Some(t) = ground.get_mut(x as usize) {
            *t = g;
        }
        run += 1;
        x += 1;
    }
    let at = |v: &[u32], x: u32| v.get(x as usize).copied().unwrap_or(high);
    let is = |v: &[bool], x: u32| v.get(x as usize).copied().unwrap_or(false);

    let mut main = vec![TILE_INVISIBLE; w * high as usize];
    let index = |x: u32, y: u32| y as usize * w + x as usize;
    let put = |tiles: &mut [u32], x: u32, y: u32, id: u16| {
        if let Some(t) = tiles.get_mut(index(x, y))
            && *t == TILE_INVISIBLE
        {
            *t = tile(id);
        }
    };
    for x in 0..wide {
        let g = at(&ground, x);
        for y in g..high {
            let id = if is(&pit, x) {
                if y + 1 == high {
                    tiles::SPIKES
                } else {
                    tiles::CLEAR
                }
            } else if y == g {
                if is(&slope, x) {
                    tiles::SLOPE
                } else {
                    tiles::GRASS
                }
            } else {
                tiles::ROCK
            };
            put(&mut main, x, y, id);
        }
    }
    // Ledges, each with a ladder from the ground up to its left end (none over a pit).
    let mut ledge: Vec<Option<u32>> = vec![None; w];
    let mut x = 6;
    while x + 8 < wide {
        if below(&mut rng, 8) == 0 {
            let len = 3 + below(&mut rng, 3);
            let top = (x..x + len).map(|k| at(&ground, k)).min().unwrap_or(0);
            let row = top.saturating_sub(3 + below(&mut rng, 2));
            if row >= 3 {
                // The ladder's column first (its top level with the ledge), unless over a
                // pit, then the ledge.
                let first = if is(&pit, x) {
                    x
                } else {
                    for y in row..at(&ground, x) {
                        put(&mut main, x, y, tiles::LADDER);
                    }
                    x + 1
                };
                for k in first..x + len {
                    put(&mut main, k, row, tiles::LEDGE);
                    if let Some(l) = ledge.get_mut(k as usize) {
                        *l = Some(row);
                    }
                }
                x += len + 4;
                continue;
            }
        }
        x += 1;
    }
    // Stone posts on flat ground, away from the ledges.
    for x in 4..wide - 4 {
        let g = at(&ground, x);
        let free = ledge.get(x as usize).is_some_and(Option::is_none);
        if free && !is(&pit, x) && !is(&slope, x) && g > 6 && below(&mut rng, 18) == 0 {
            for y in g - 1 - below(&mut rng, 2)..g {
                put(&mut main, x, y, tiles::HALF_WALL);
            }
        }
    }

    let mut objects = Vec::new();
    let mut next_id = 1;
    let centre =
        |x: u32| i32::try_from(x).unwrap_or(i32::MAX).saturating_mul(TILE_PX) + TILE_PX / 2;
    // Objects stand 32 pixels above the row they stand on (`level_archive`'s frames
    // reach down to it).
    let above = |row: u32| {
        i32::try_from(row)
            .unwrap_or(i32::MAX)
            .saturating_mul(TILE_PX)
            - TILE_PX / 2
    };
    let mut add = |logic: &str, set: &str, x: u32, row: u32| {
        objects.push(object(next_id, logic, set, centre(x), above(row)));
        next_id += 1;
    };
    for x in 4..wide - 2 {
        let g = at(&ground, x);
        // Nothing on the ground in front of a ladder or a post.
        let clear = main.get(index(x, g.saturating_sub(1))) == Some(&TILE_INVISIBLE);
        if clear && !is(&pit, x) && !is(&slope, x) {
            if x % 32 == 0 {
                add("Checkpoint", "GAME_CHECKPOINTFLAG", x, g);
            } else {
                match below(&mut rng, 12) {
                    0..=3 => add("Treasure", "GAME_TREASURE_COINS", x, g),
                    4 => add("Officer", "LEVEL_OFFICER", x, g),
                    5 => add("Soldier", "LEVEL_SOLDIER", x, g),
                    _ => {}
                }
            }
        }
        if let Some(Some(row)) = ledge.get(x as usize) {
            add("Treasure", "GAME_TREASURE_COINS", x, *row);
        }
    }
    let end = wide - 2;
    add("EndOfLevelPowerup", "GAME_MAPPIECE", end, at(&ground, end));

    let back_wide = 16;
    let back = back_plane(&mut rng, back_wide, high);
    let front_high = high / 2;
    let mut front = vec![TILE_INVISIBLE; w * front_high as usize];
    // Runs of leaves 3 to 7 tiles long along the top, 4 to 15 tiles apart, a vine hanging
    // from some of their tiles.
    let mut x = below(&mut rng, 6);
    while x < wide {
        let len = 3 + below(&mut rng, 5);
        for k in x..(x + len).min(wide) {
            if let Some(t) = front.get_mut(index(k, 0)) {
                *t = tile(front_tiles::LEAVES);
            }
            if below(&mut rng, 3) == 0
                && let Some(t) = front.get_mut(index(k, 1))
            {
                *t = tile(front_tiles::VINE);
            }
        }
        x += len + 4 + below(&mut rng, 12);
    }
    let mut back_header = plane_header("Background", 0xC, back_wide, high, -999, 50);
    back_header.fill_color.set(i32::from(colour::SKY));
    let planes = vec![
        PlaneData {
            header: back_header,
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
    header.start_x.set(centre(2));
    header.start_y.set(above(at(&ground, 2)));
    LevelData {
        header,
        planes,
        tile_properties: tile_properties(),
    }
}

/// The background plane's tiles, `wide` x `high`: filled sky with three clouds, the
/// gradient's 6 rows ending 3/5 of the way down, a row of hills, hills below.
fn back_plane(rng: &mut ChaCha8Rng, wide: u32, high: u32) -> Vec<u32> {
    let gradient = u32::from(art::GRADIENT_TILES);
    let hills = (high * 3 / 5).max(gradient + 3);
    let sky = hills - gradient;
    let mut back: Vec<u32> = (0..high)
        .flat_map(|y| {
            (0..wide).map(move |x| {
                if y < sky {
                    TILE_FILLED
                } else if y < hills {
                    tile(back_tiles::GRADIENT + u16::try_from(y - sky).unwrap_or(0))
                } else if y == hills {
                    tile(if x % 2 == 0 {
                        back_tiles::HILLS_LEFT
                    } else {
                        back_tiles::HILLS_RIGHT
                    })
                } else {
                    tile(back_tiles::HILL)
                }
            })
        })
        .collect();
    for k in 0..3 {
        let x = 1 + 5 * k + below(rng, 2);
        let y = 1 + below(rng, sky - 2);
        for (dx, id) in [(0, back_tiles::CLOUD_LEFT), (1, back_tiles::CLOUD_RIGHT)] {
            if let Some(t) = back.get_mut((y * wide + x + dx) as usize) {
                *t = tile(id);
            }
        }
    }
    back
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
    use crate::rez::pid::{PidFlags, write_pid};
    let pids: Vec<(String, Vec<u8>)> = images
        .iter()
        .map(|&(path, size, offset)| {
            let pid = write_pid(&plain(path, size), offset, PidFlags::empty(), None, true);
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

/// A REZ archive holding every image `level` draws, found through the level's own names
/// ([`crate::ImageNames`]: `LEVEL1/TILES/ACTION/012`, `LEVEL1/IMAGES/OFFICER/FRAME000`), as
/// RLE PIDs, and [`level_palette`] at the level's palette: what `gamedata demo` draws the
/// synthetic level with. The tiles of [`level`]'s tile sets (`ACTION`: [`tiles`], `BACK`:
/// [`back_tiles`], `FRONT`: [`front_tiles`]) are its pictures, 64 x 64: earth, grass-topped
/// earth, a ladder, spikes before a pit's dark wall, a grassy slope, stone blocks, a stone
/// ledge, the sky's shades, clouds, hills, leaves and a vine; where a tile is clear its picture is
/// transparent. Its objects' frames are sprites whose bottom row is 32 pixels below the
/// object's position: coins (`TREASURE/COINS`), an officer in red and a soldier in blue
/// (`OFFICER`, `SOLDIER`), a flag (`CHECKPOINTFLAG`), a map (`MAPPIECE`). Any other tile is
/// 64 x 64 and any other frame 32 x 48 moved up 8, filled with [`image_index`] of its path
/// but for the top-left pixel (transparent). The object sets' names hold no folder with `_`
/// of their own.
///
/// Returns `Err` when the level cannot be read, or as [`crate::write_rez()`].
pub fn level_archive(level: &LevelData) -> Result<Vec<u8>, crate::DataError> {
    use crate::rez::pid::{PidFlags, write_pid};
    use std::collections::BTreeMap;
    let image = level.image()?;
    let view = crate::Level::parse(&image)?;
    let names = crate::ImageNames::of(&view.header());
    // Path without `.PID`, then the picture and its offset.
    let mut images: BTreeMap<String, (crate::rez::pid::PidPixels, (i32, i32))> = BTreeMap::new();
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
                let path = format!("{folder}/{id:03}");
                if images.contains_key(&path) {
                    continue;
                }
                let drawn = match folder.rsplit('/').next() {
                    Some("ACTION") => art::action_tile(id),
                    Some("BACK") => art::back_tile(id),
                    Some("FRONT") => art::front_tile(id),
                    _ => None,
                };
                let pixels = drawn.map_or_else(|| plain(&path, (64, 64)), art::Canvas::pixels);
                images.insert(path, (pixels, (0, 0)));
            }
        }
        for object in plane.objects() {
            let object = object?;
            let folder = names.object_set(object.image_set()).replace('_', "/");
            let frame = object.raw().i.get().max(0);
            let path = format!("{folder}/FRAME{frame:03}");
            if images.contains_key(&path) {
                continue;
            }
            let drawn = art::sprite(&folder)
                .map(|(canvas, offset)| (canvas.pixels(), offset))
                .unwrap_or_else(|| (plain(&path, (32, 48)), (0, -8)));
            images.insert(path, drawn);
        }
    }
    let pids: Vec<(String, Vec<u8>)> = images
        .iter()
        .map(|(path, (pixels, offset))| {
            let pid = write_pid(pixels, *offset, PidFlags::empty(), None, true);
            (format!("{path}.PID"), pid)
        })
        .collect();
    let palette = level_palette();
    let mut files: Vec<(&str, &[u8])> = pids
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    files.push((names.palette.as_str(), &palette[..]));
    crate::write_rez(&files)
}

/// A `w` x `h` picture filled with [`image_index`] of `path` but for its top-left pixel
/// (transparent), as [`image_archive`] draws.
fn plain(path: &str, (w, h): (u32, u32)) -> crate::rez::pid::PidPixels {
    let n = usize::try_from(u64::from(w).saturating_mul(u64::from(h))).unwrap_or(0);
    crate::rez::pid::PidPixels {
        width: w,
        height: h,
        indices: vec![image_index(path); n],
        opaque: (0..n).map(|i| i != 0).collect(),
    }
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
