//! Each renderer over arbitrary bytes, with its properties: what the fuzz targets
//! `uo_radar`, `wwd_collision`, `cosmo_draw` and `cosmo_level` (`fuzz/fuzz_targets/`) run and the tests
//! replay. Each function returns a number derived from what it drew; errors are results.
//! Inputs holding several files are in [`gamedata_io::exercise::split_parts`] form with
//! 4-byte lengths.
//!
//! # Panics
//!
//! Only when a property below does not hold: that is a bug, and a fuzz run reports it.

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose), and their
// coordinates come from sizes the renderers checked. Their assertions are the properties
// the fuzzer checks: a failed one is a finding.
#![allow(clippy::arithmetic_side_effects, clippy::panic)]

use std::sync::atomic::{AtomicU64, Ordering};

use gamedata_io::Limits;
use gamedata_io::exercise::split_parts;
use mni_core::{
    ActorDraw, ActorKind, ActorSprite, ActorSprites, Backdrop, Map, MaskedTiles, SolidTiles,
    TileAttrTable, TileImages,
};
use mul_core::{Facet, FacetBytes, Hues, MapSize, RadarColours, TileData, rgb555_to_rgb8};
use wap_core::{Attribute, LevelFile, LevelOptions, Plane, Tile, TilePropertyIndex};

use crate::uo::client::{client_draws, client_rgb, relief};
use crate::uo::{RadarOptions, RadarStyle, radar, radar_with_progress, write_radar_png};
use crate::{Region, RenderError, RgbaImage, cosmo, wwd};

/// A small facet and its radar map: seven files (a control file, map, staidx, statics,
/// radarcol, a window of tiledata's item records and hues). The control bytes give the
/// facet's size in blocks (1 to 16 a side), the scale (1 to 8), a region (x, y, width and
/// height, each 1 byte), hillshading (the eighth byte odd), the style (the ninth byte: flat,
/// client, altitude, or client without hues, which must be refused) and where the window
/// lies (the tenth and eleventh bytes, little-endian: the group of 32 items it starts at)
/// in an otherwise zeroed High Seas tiledata; hues.mul is cut to whole groups. Checked: a
/// region not wholly inside is refused and its clipped part drawn instead; at scale 1
/// every pixel is the colour of its tile, found tile by tile through `Facet::statics_at`
/// (in the flat style the highest static at or above the land's z less 1, the later of
/// equals, else the land, shaded against its north-west neighbour's height when asked; in
/// the client style the client's rule with its relief against the south-west neighbour; in
/// the altitude style the client's height as grey; black where the map block is
/// unreadable); at the scale, every pixel is the scale-1 picture averaged over the tiles
/// it covers; the progress calls add up to the width; the PNG written in stripes decodes
/// to the same pixels; the picture's web map pyramid holds them.
pub fn uo_radar(data: &[u8]) -> u64 {
    let [control, map, staidx, statics, radarcol, items, hues] = split_parts::<7, 4>(data);
    let c = |i: usize| u32::from(control.get(i).copied().unwrap_or(0));
    let Ok(size) = MapSize::from_blocks(c(0) % 16 + 1, c(1) % 16 + 1) else {
        panic!("sizes of 1 to 16 blocks a side are valid");
    };
    let mut facet = match Facet::parse(
        FacetBytes {
            map,
            staidx,
            statics,
        },
        size,
        None,
    ) {
        Ok(facet) => facet,
        Err(e) => return e.to_string().len() as u64,
    };
    let colours = match RadarColours::parse(radarcol) {
        Ok(colours) => colours,
        Err(e) => return e.to_string().len() as u64,
    };
    let style = match c(8) % 4 {
        0 => RadarStyle::Flat,
        2 => RadarStyle::Altitude,
        _ => RadarStyle::Client,
    };
    let hues = hues.get(..hues.len() / 708 * 708).unwrap_or_default();
    facet.hues = (c(8) % 4 != 3).then(|| Hues::parse(hues).ok()).flatten();
    let asked = Region::new(c(3), c(4), c(5) + 1, c(6) + 1);
    let group = (c(9) | c(10) << 8) as usize % 2048;
    with_tiledata(items, group, |tiledata| {
        let facet = Facet {
            tiledata: Some(tiledata),
            ..facet
        };
        if c(8) % 4 == 3 {
            let options = RadarOptions {
                style,
                ..RadarOptions::default()
            };
            match radar(&facet, &colours, &options) {
                Err(RenderError::MissingTable { file, style }) => {
                    assert_eq!((file, style), ("hues.mul", "client"));
                    return 1;
                }
                other => panic!("the client style without hues gave {other:?}"),
            }
        }
        check_radar(
            &facet,
            &colours,
            asked,
            c(2) % 8 + 1,
            (c(7) % 2 == 1, style),
        )
    })
}

/// Runs `f` with a High Seas tiledata.mul (zeroed, 3,188,736 bytes, kept a thread) whose
/// item records from group `group` on are `items`' bytes (cut at the file's end).
fn with_tiledata<R>(items: &[u8], group: usize, f: impl FnOnce(TileData<'_>) -> R) -> R {
    use std::cell::RefCell;
    // The High Seas layout: 512 land groups of 4 + 32 x 30 bytes, then 2,048 item groups
    // of 4 + 32 x 41 bytes.
    const ITEMS_AT: usize = 512 * (4 + 32 * 30);
    const LEN: usize = ITEMS_AT + 2048 * (4 + 32 * 41);
    thread_local! {
        static TILEDATA: RefCell<Vec<u8>> = RefCell::new(vec![0; LEN]);
    }
    TILEDATA.with(|cell| {
        let mut buf = cell.borrow_mut();
        let start = ITEMS_AT + group * (4 + 32 * 41);
        let window = buf.get_mut(start..).unwrap_or_default();
        let n = items.len().min(window.len());
        for (b, i) in window.iter_mut().zip(items) {
            *b = *i;
        }
        let result = match TileData::parse(&buf) {
            Ok(tiledata) => f(tiledata),
            Err(e) => panic!("a zeroed High Seas tiledata does not parse: {e}"),
        };
        buf.iter_mut().skip(start).take(n).for_each(|b| *b = 0);
        result
    })
}

/// The radar map of `asked` at `scale` (1 to 256), hillshaded or not, in a style, with its
/// properties, as [`uo_radar`] checks them: a region not wholly inside is refused and its
/// clipped part drawn instead; at scale 1 every pixel is its tile's colour, found tile by
/// tile; at `scale` every pixel is the scale-1 picture averaged; the progress calls add up
/// to the width; the PNG in stripes decodes to the same pixels; the pyramid holds them.
/// Returns a sum of what was drawn (more than the scaled picture's bytes).
///
/// # Panics
///
/// When a property does not hold, or the style needs a table `facet` lacks.
pub fn check_radar(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    asked: Region,
    scale: u32,
    (hillshade, style): (bool, RadarStyle),
) -> u64 {
    let (w, h) = (facet.size().width(), facet.size().height());
    let options = |region, scale| RadarOptions {
        scale,
        region: Some(region),
        hillshade,
        style,
    };
    let mut acc = 0u64;
    if !asked.is_inside(w, h) {
        match radar(facet, colours, &options(asked, 1)) {
            Err(RenderError::RegionOutside { region, .. }) => assert_eq!(region, asked),
            other => panic!("{asked} outside {w} x {h} gave {other:?}"),
        }
        acc += 1;
    }
    let Some(region) = asked.clip(w, h) else {
        return acc;
    };
    let full = match radar(facet, colours, &options(region, 1)) {
        Ok(full) => full,
        Err(e) => panic!("a {region} region of a {w} x {h} facet gave {e}"),
    };
    assert_eq!((full.width(), full.height()), (region.width, region.height));
    for y in 0..region.height {
        for x in 0..region.width {
            let (tx, ty) = (region.x + x, region.y + y);
            let [r, g, b] = match style {
                RadarStyle::Flat => flat_pixel(facet, colours, tx, ty, hillshade),
                _ => client_pixel(facet, colours, tx, ty, style),
            };
            assert_eq!(
                full.get(x, y),
                Some([r, g, b, 255]),
                "tile {x},{y} of {region}"
            );
        }
    }
    let done = AtomicU64::new(0);
    let progress = |n: u32| {
        done.fetch_add(u64::from(n), Ordering::Relaxed);
    };
    let scaled = match radar_with_progress(facet, colours, &options(region, scale), &progress) {
        Ok(scaled) => scaled,
        Err(e) => panic!("a {region} region at scale {scale} gave {e}"),
    };
    assert_eq!(done.load(Ordering::Relaxed), u64::from(scaled.width()));
    assert_eq!(
        (scaled.width(), scaled.height()),
        (region.width.div_ceil(scale), region.height.div_ceil(scale))
    );
    for oy in 0..scaled.height() {
        for ox in 0..scaled.width() {
            let [r, g, b] = averaged(&full, ox * scale, oy * scale, scale);
            assert_eq!(scaled.get(ox, oy), Some([r, g, b, 255]), "pixel {ox},{oy}");
        }
    }
    // Written as a PNG in stripes, it decodes to the same pixels.
    let mut png = Vec::new();
    match write_radar_png(facet, colours, &options(region, scale), &mut png, &|_| {}) {
        Ok(size) => assert_eq!(size, (scaled.width(), scaled.height())),
        Err(e) => panic!("the PNG of a {region} region at scale {scale}: {e}"),
    }
    assert_eq!(decode_png(&png).as_ref(), Some(&scaled));
    acc = acc.wrapping_add(png.len() as u64);
    acc = acc.wrapping_add(check_pyramid(&scaled));
    acc.wrapping_add(scaled.pixels().iter().map(|&p| u64::from(p)).sum::<u64>())
}

/// An 8-bit RGBA PNG decoded, `None` when it is not one.
fn decode_png(bytes: &[u8]) -> Option<RgbaImage> {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .ok()?;
    let mut buf = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buf).ok()?;
    buf.truncate(info.buffer_size());
    RgbaImage::from_pixels(info.width, info.height, buf)
}

/// The web map pyramid of `picture`, one level magnified, with its properties: every tile
/// the levels count is made once, each 256 x 256; the native tiles hold the picture's
/// pixels, transparent past its edge; the magnified level doubles them. Returns the tiles.
fn check_pyramid(picture: &RgbaImage) -> u64 {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use crate::tiles::{Levels, TILE, build_pyramid};
    let (w, h) = (picture.width(), picture.height());
    let levels = match Levels::new(w, h, None) {
        Ok(l) => Levels {
            max: l.native + 1,
            ..l
        },
        Err(e) => panic!("a {w} x {h} picture has no pyramid: {e}"),
    };
    let tiles = Mutex::new(BTreeMap::new());
    let built = build_pyramid(picture, levels, &|z,
                                                 x,
                                                 y,
                                                 tile|
     -> Result<(), RenderError> {
        assert_eq!((tile.width(), tile.height()), (TILE, TILE));
        // A poisoned lock means another write panicked: that panic is the finding.
        let mut tiles = tiles
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        assert!(
            tiles.insert((z, x, y), tile.clone()).is_none(),
            "{z}/{x}/{y} twice"
        );
        Ok(())
    });
    let tiles = tiles.into_inner().unwrap_or_default();
    let Ok(count) = built else {
        panic!("the pyramid of a {w} x {h} picture failed");
    };
    assert_eq!(count, levels.tile_count());
    assert_eq!(tiles.len() as u64, count);
    let native = |x: u32, y: u32| {
        let tile = tiles.get(&(levels.native, u64::from(x / TILE), u64::from(y / TILE)))?;
        tile.get(x % TILE, y % TILE)
    };
    for (x, y) in [(0, 0), (w - 1, h - 1), (w / 2, h / 3)] {
        assert_eq!(native(x, y), picture.get(x, y), "native pixel {x},{y}");
    }
    if w % TILE != 0 {
        assert_eq!(native(w, 0).map(|p| p[3]), Some(0), "past the right edge");
    }
    let magnified = tiles.get(&(levels.native + 1, 0, 0));
    assert_eq!(magnified.and_then(|t| t.get(1, 1)), picture.get(0, 0));
    count
}

/// Tile (`x`, `y`)'s pixel in the `Flat` style, shaded against its north-west
/// neighbour when `hillshade`, found for that tile alone.
fn flat_pixel(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    x: u32,
    y: u32,
    hillshade: bool,
) -> [u8; 3] {
    let colour = tile_colour(facet, colours, x, y);
    let north_west = x.checked_sub(1).zip(y.checked_sub(1));
    let nw = north_west.and_then(|(nx, ny)| tile_height(facet, nx, ny));
    match (tile_height(facet, x, y), nw) {
        (Some(h), Some(n)) if hillshade => crate::uo::shade(colour, h - n),
        _ => colour,
    }
}

/// Tile (`x`, `y`)'s pixel in the `Client` or `Altitude` style, found for that tile
/// alone: its client colour and height, with the relief against its south-west
/// neighbour's height off the map's border.
fn client_pixel(
    facet: &Facet<'_>,
    colours: &RadarColours<'_>,
    x: u32,
    y: u32,
    style: RadarStyle,
) -> [u8; 3] {
    let Some((colour, z0)) = client_tile(facet, colours, x, y) else {
        return [0; 3];
    };
    if style == RadarStyle::Altitude {
        return [z0.cast_unsigned() ^ 0x80; 3];
    }
    let rgb = client_rgb(colour);
    let (w, h) = (facet.size().width(), facet.size().height());
    if x == 0 || y == 0 || x + 1 >= w || y + 1 >= h {
        return rgb;
    }
    match client_tile(facet, colours, x - 1, y + 1) {
        Some((_, z1)) => relief(rgb, z0, z1),
        None => rgb,
    }
}

/// Tile (`x`, `y`)'s RGB555 colour and height under the client's rule, found for that tile
/// alone through `Facet::statics_at`; `None` when its map block cannot be read.
fn client_tile(facet: &Facet<'_>, colours: &RadarColours<'_>, x: u32, y: u32) -> Option<(u16, i8)> {
    let cell = facet.map.cell(x, y)?;
    let Some(tiledata) = facet.tiledata else {
        panic!("the client styles need tiledata");
    };
    let mut colour = colours.land(cell.id.get() & 0x3FFF).unwrap_or(0);
    let mut z = cell.z;
    for s in facet.statics_at(x, y).ok().into_iter().flatten() {
        let id = s.id.get();
        if id == 0 || id == 0xFFFF || !client_draws(&tiledata, id) || s.z < z {
            continue;
        }
        z = s.z;
        colour = match (s.hue.get(), facet.hues) {
            (0, _) | (_, None) => colours.item(id).unwrap_or(0),
            (hue, Some(hues)) => {
                // Entry 16 of hue `hue - 1` (groups of 8) when there is one, else 0x4000.
                let n = usize::from(hue);
                let group = hues.groups().get((n - 1) / 8).filter(|_| n < hues.len());
                let entry = group.and_then(|g| g.entries.get((n - 1) % 8));
                entry.map_or(0x4000, |e| e.colours[16].get())
            }
        };
    }
    Some((colour, z))
}

/// The radar colour of tile (`x`, `y`), found for that tile alone.
fn tile_colour(facet: &Facet<'_>, colours: &RadarColours<'_>, x: u32, y: u32) -> [u8; 3] {
    let Some(cell) = facet.map.cell(x, y) else {
        return [0; 3];
    };
    let land_z = i16::from(cell.z) - 1;
    let top = facet.statics_at(x, y).ok().and_then(|statics| {
        statics
            .filter(|s| i16::from(s.z) >= land_z)
            .max_by_key(|s| s.z)
    });
    let colour = match top {
        Some(s) => colours.item(s.id.get()),
        None => colours.land(cell.id.get()),
    };
    rgb555_to_rgb8(colour.unwrap_or(0))
}

/// The height of tile (`x`, `y`) for hillshading, found for that tile alone: the z of the
/// static that shows (the highest at or above the land's z less 1), else the land's.
fn tile_height(facet: &Facet<'_>, x: u32, y: u32) -> Option<i16> {
    let cell = facet.map.cell(x, y)?;
    let land_z = i16::from(cell.z);
    let shown = facet
        .statics_at(x, y)
        .ok()
        .into_iter()
        .flatten()
        .filter(|s| i16::from(s.z) >= land_z - 1)
        .map(|s| i16::from(s.z))
        .max();
    Some(shown.unwrap_or(land_z))
}

/// The average of the up to `scale` x `scale` pixels of `full` from (`x0`, `y0`), rounded
/// down a channel at a time.
fn averaged(full: &RgbaImage, x0: u32, y0: u32, scale: u32) -> [u8; 3] {
    let (mut sum, mut n) = ([0u32; 3], 0u32);
    for y in y0..(y0 + scale).min(full.height()) {
        for x in x0..(x0 + scale).min(full.width()) {
            if let Some([r, g, b, _]) = full.get(x, y) {
                for (s, v) in sum.iter_mut().zip([r, g, b]) {
                    *s += u32::from(v);
                }
                n += 1;
            }
        }
    }
    sum.map(|s| u8::try_from(s / n.max(1)).unwrap_or(u8::MAX))
}

/// Most pixels a fuzzed collision map may have, so that runs stay fast.
const SMALL: u64 = 1 << 20;

/// A level and the collision map of each of its planes: `data` opened as a level file
/// (16 MiB decoding limit). Each plane is drawn whole and in stripes of 7 rows, at 1 or 3
/// pixels a tile (as the input's length is even or odd) and, when its tiles are at most 64
/// pixels a side, at the tile width, where every pixel is exact. Checked: the picture is
/// the plane's tiles times the pixels a tile; the pixel counts cover it; the stripes hold
/// the same rows and counts; every pixel has an attribute colour or the object colour; no
/// more objects are marked than the plane has; at the tile size the counts equal an
/// independent count of each tile pixel's attribute.
pub fn wwd_collision(data: &[u8]) -> u64 {
    let limits = Limits {
        max_decoded_bytes: 16 << 20,
        ..Limits::default()
    };
    let file = match LevelFile::from_data(data.to_vec(), &LevelOptions { limits }) {
        Ok(file) => file,
        Err(e) => return e.to_string().len() as u64,
    };
    let level = match file.level() {
        Ok(level) => level,
        Err(e) => return e.to_string().len() as u64,
    };
    let index = match level.tile_properties().and_then(|t| t.collect()) {
        Ok(index) => index,
        Err(e) => return e.to_string().len() as u64,
    };
    let mut acc = 0u64;
    let small = if data.len().is_multiple_of(2) { 1 } else { 3 };
    for plane in level.planes().flatten() {
        let (tw, th) = plane.tile_size();
        let exact = u32::try_from(tw)
            .ok()
            .filter(|&t| tw == th && (1..=64).contains(&t));
        let tiles = u64::from(plane.tiles_wide()) * u64::from(plane.tiles_high());
        for (tile_px, exact) in [(small, false)].into_iter().chain(exact.map(|t| (t, true))) {
            if tiles * u64::from(tile_px).pow(2) <= SMALL {
                acc = acc.wrapping_add(check_collision(&plane, &index, tile_px, exact));
            }
        }
    }
    acc
}

/// The collision map of `plane` at `tile_px` with its properties, as [`wwd_collision`]
/// checks them (`exact`: also the counts against every tile pixel's attribute, for
/// `tile_px` equal to the plane's square tile size). Returns the pixels and objects
/// counted, or the length of the renderer's error.
///
/// # Panics
///
/// When a property does not hold.
pub fn check_collision(
    plane: &Plane<'_>,
    index: &TilePropertyIndex<'_>,
    tile_px: u32,
    exact: bool,
) -> u64 {
    let (tiles_w, tiles_h) = (u64::from(plane.tiles_wide()), u64::from(plane.tiles_high()));
    let px = u64::from(tile_px);
    let drawn = match wwd::collision(plane, index, tile_px) {
        Ok(drawn) => drawn,
        Err(e) => return e.to_string().len() as u64,
    };
    let image = &drawn.image;
    assert_eq!(
        (u64::from(image.width()), u64::from(image.height())),
        (tiles_w * px, tiles_h * px)
    );
    assert_eq!(
        drawn.pixels.total(),
        u64::from(image.width()) * u64::from(image.height())
    );
    let palette = [
        wwd::CLEAR,
        wwd::SOLID,
        wwd::GROUND,
        wwd::CLIMB,
        wwd::DEATH,
        wwd::OTHER,
        wwd::OBJECT,
    ];
    for pixel in image.pixels().chunks_exact(4) {
        assert!(
            palette.iter().any(|&[r, g, b]| pixel == [r, g, b, 255]),
            "pixel {pixel:?} is no collision colour"
        );
    }
    assert!(drawn.objects <= plane.objects().count());
    // Drawn in stripes of 7 rows, the same pixels and counts.
    if let Ok(map) = wwd::CollisionMap::new(plane, index, tile_px) {
        let (mut y, mut total) = (0u32, wwd::PixelCounts::default());
        while y < map.height() {
            let (stripe, counts) = match map.stripe(y, 7) {
                Ok(stripe) => stripe,
                Err(e) => panic!("stripe at row {y} of {}: {e}", map.height()),
            };
            for row in 0..stripe.height() {
                assert_eq!(stripe.row(row), image.row(y + row), "row {}", y + row);
            }
            total = total + counts;
            y += stripe.height();
        }
        assert_eq!(total, drawn.pixels);
        assert_eq!(map.objects_marked().ok(), Some(drawn.objects));
        // A rectangle from the middle is the same part of the whole picture.
        let (w, h) = (map.width(), map.height());
        let part = Region::new(w / 3, h / 4, (w / 2).max(1), (h / 2).max(1));
        match map.rect(part) {
            Ok((rect, _)) => {
                for y in 0..part.height {
                    for x in 0..part.width {
                        let whole = image.get(part.x + x, part.y + y);
                        assert_eq!(rect.get(x, y), whole, "{x},{y} of {part}");
                    }
                }
            }
            Err(e) => panic!("{part} of {w} x {h}: {e}"),
        }
    }
    if exact {
        assert_eq!(drawn.pixels, counted(plane, index, tile_px));
    }
    drawn.pixels.total().wrapping_add(drawn.objects as u64)
}

/// The attribute classes of every pixel of every tile of `plane` (tiles `tile` pixels
/// square), counted one by one.
fn counted(plane: &Plane<'_>, index: &TilePropertyIndex<'_>, tile: u32) -> wwd::PixelCounts {
    let mut counts = wwd::PixelCounts::default();
    let side = i32::try_from(tile).unwrap_or(0);
    for ty in 0..plane.tiles_high() {
        for tx in 0..plane.tiles_wide() {
            let id = match plane.tile(tx, ty) {
                Some(Tile::Image { id, .. }) => Some(usize::from(id)),
                _ => None,
            };
            for y in 0..side {
                for x in 0..side {
                    let value = id.and_then(|id| index.attribute_at(id, x, y)).unwrap_or(0);
                    let n = match Attribute::from_raw(value) {
                        Attribute::Clear => &mut counts.clear,
                        Attribute::Solid => &mut counts.solid,
                        Attribute::Ground => &mut counts.ground,
                        Attribute::Climb => &mut counts.climb,
                        Attribute::Death => &mut counts.death,
                        Attribute::Other(_) => &mut counts.other,
                    };
                    *n += 1;
                }
            }
        }
    }
    counts
}

/// A Cosmo map drawn with its tiles: four files (the map, TILES.MNI, MASKTILE.MNI,
/// TILEATTR.MNI). Checked: the picture is the map's cells times 8 pixels; drawn and
/// missing cells are the map's drawn cells; the first 64 cells drawn show their tile's
/// pixels over the background; with TILEATTR.MNI overlaid, the first 64 cells with no
/// attribute are unchanged and the picture keeps its size.
pub fn cosmo_draw(data: &[u8]) -> u64 {
    let [map, solid, masked, attrs] = split_parts::<4, 4>(data);
    match map_and_images(map, solid, masked) {
        Ok((map, images)) => check_draw(&map, &images, TileAttrTable::parse(attrs).ok().as_ref()),
        Err(result) => result,
    }
}

/// A map and its tile images parsed, or the number a target returns when one does not
/// parse.
fn map_and_images<'a>(
    map: &'a [u8],
    solid: &'a [u8],
    masked: &'a [u8],
) -> Result<(Map<'a>, TileImages<'a>), u64> {
    let map = Map::parse(map).map_err(|e| e.to_string().len() as u64)?;
    let (Ok(solid), Ok(masked)) = (SolidTiles::parse(solid), MaskedTiles::parse(masked)) else {
        return Err(1);
    };
    Ok((map, TileImages { solid, masked }))
}

/// A Cosmo map drawn with `images`, and with `attrs` overlaid when given, with the
/// properties [`cosmo_draw`] checks. Returns the cells drawn and missing plus, with the
/// overlay, the cells checked unchanged.
///
/// # Panics
///
/// When a property does not hold.
pub fn check_draw(
    map: &Map<'_>,
    images: &TileImages<'_>,
    attrs: Option<&TileAttrTable<'_>>,
) -> u64 {
    let background = [1, 2, 3, 255];
    let mut picture = match cosmo::draw_map(map, images, background) {
        Ok(picture) => picture,
        Err(e) => panic!("a map of {} x {} cells gave {e}", map.width(), map.height()),
    };
    let (w, h) = (u32::from(map.width()), u32::from(map.height()));
    assert_eq!(
        (picture.image.width(), picture.image.height()),
        (w * 8, h * 8)
    );
    assert_eq!(picture.drawn + picture.missing, map.drawn_cells().count());
    for (cx, cy, tile) in map.drawn_cells().take(64) {
        let pixels = images.pixels(tile);
        for (dy, row) in (0u32..8).zip(pixels.iter().flatten()) {
            for (dx, p) in (0u32..8).zip(row) {
                let want = p.map_or(background, mni_core::tiles::ega_rgba);
                let got = picture
                    .image
                    .get(u32::from(cx) * 8 + dx, u32::from(cy) * 8 + dy);
                assert_eq!(got, Some(want), "cell {cx},{cy} pixel {dx},{dy}");
            }
        }
    }
    let mut acc = (picture.drawn as u64).wrapping_add(picture.missing as u64);
    if let Some(attrs) = attrs {
        // The first 64 cells with no attribute, and their pixels before the overlay.
        let plain: Vec<(u16, u16)> = (0..map.height())
            .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| map.attributes(x, y, attrs).is_some_and(|a| a.bits() == 0))
            .take(64)
            .collect();
        let cell_pixels = |image: &RgbaImage, (x, y): (u16, u16)| {
            (0..64u32)
                .map(|d| image.get(u32::from(x) * 8 + d % 8, u32::from(y) * 8 + d / 8))
                .collect::<Vec<_>>()
        };
        let before: Vec<_> = plain
            .iter()
            .map(|&cell| cell_pixels(&picture.image, cell))
            .collect();
        let size = (picture.image.width(), picture.image.height());
        cosmo::overlay_attributes(&mut picture.image, map, attrs);
        assert_eq!((picture.image.width(), picture.image.height()), size);
        for (&cell, was) in plain.iter().zip(&before) {
            assert_eq!(&cell_pixels(&picture.image, cell), was, "cell {cell:?}");
        }
        acc = acc.wrapping_add(plain.len() as u64);
    }
    acc
}

/// A Cosmo level drawn in layers: seven files (TILES.MNI, MASKTILE.MNI, TILEATTR.MNI,
/// ACTRINFO.MNI, ACTORS.MNI, a backdrop, then the map last, so that most cuts of an input
/// leave no whole map and cost nothing). Checked: backdrop and tiles alone, the tiles
/// without a backdrop are `draw_map`'s picture; with a backdrop, the first 64 cells no tile
/// is drawn on show the backdrop repeated from the top-left; the actors are each drawn,
/// hidden, special or listed as not drawn; outside the rectangles of the actors drawn,
/// drawing them changes no pixel.
pub fn cosmo_level(data: &[u8]) -> u64 {
    let [solid, masked, attrs, info, tiles, backdrop, map] = split_parts::<7, 4>(data);
    let (map, images) = match map_and_images(map, solid, masked) {
        Ok(parsed) => parsed,
        Err(result) => return result,
    };
    let background = [1, 2, 3, 255];
    let plain = match cosmo::draw_map(&map, &images, background) {
        Ok(p) => p,
        Err(e) => panic!("a map of {} x {} cells gave {e}", map.width(), map.height()),
    };
    let Ok(mut image) = cosmo::map_image(&map, background) else {
        panic!("draw_map made a picture of this size");
    };
    let backdrop = Backdrop::parse(backdrop).ok();
    if let Some(b) = &backdrop {
        cosmo::draw_backdrop(&mut image, b);
    }
    let (drawn, missing) = cosmo::draw_tiles(&mut image, &map, &images);
    assert_eq!((drawn, missing), (plain.drawn, plain.missing));
    match &backdrop {
        None => assert!(image.pixels() == plain.image.pixels()),
        Some(b) => {
            let drawn_cells: std::collections::HashSet<(u16, u16)> =
                map.drawn_cells().map(|(x, y, _)| (x, y)).collect();
            let bare = (0..map.height())
                .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
                .filter(|c| !drawn_cells.contains(c))
                .take(64);
            for (cx, cy) in bare {
                for d in 0..64u32 {
                    let (x, y) = (u32::from(cx) * 8 + d % 8, u32::from(cy) * 8 + d / 8);
                    let (bx, by) = (x % 320, y % 144);
                    let (tx, ty) = (u16::try_from(bx / 8), u16::try_from(by / 8));
                    let colour = tx
                        .ok()
                        .zip(ty.ok())
                        .and_then(|(tx, ty)| b.tile(tx, ty))
                        .and_then(|t| {
                            t.pixels()
                                .get((by % 8) as usize)?
                                .get((bx % 8) as usize)
                                .copied()
                        });
                    let Some(colour) = colour else {
                        panic!("({bx}, {by}) is inside 320 x 144");
                    };
                    let want = mni_core::tiles::ega_rgba(colour);
                    assert_eq!(image.get(x, y), Some(want), "backdrop at {x},{y}");
                }
            }
        }
    }
    let mut acc = (drawn as u64).wrapping_add(missing as u64);
    let (Ok(attrs), Ok(sprites)) = (
        TileAttrTable::parse(attrs),
        ActorSprites::parse(info, tiles),
    ) else {
        return acc;
    };
    let before = image.clone();
    let r = cosmo::draw_actors(&mut image, &map, &sprites, &images, &attrs);
    assert_eq!(
        r.drawn + r.hidden + r.special + usize::try_from(r.not_drawn.total()).unwrap_or(usize::MAX),
        map.actors().len()
    );
    // The rectangles (in pixels) of the actors drawn.
    let rects: Vec<(i64, i64, i64, i64)> = map
        .actors()
        .filter_map(|a| match a.kind {
            ActorKind::Normal(t) => Some((a, ActorSprite::of(t)?)),
            ActorKind::Special(_) => None,
        })
        .filter(|(_, look)| look.draw != ActorDraw::Hidden)
        .filter_map(|(a, look)| {
            let f = sprites.frame(look.sprite, 0).ok()?;
            let (l, t) = look.top_left(a.x, a.y, f.height);
            Some((
                i64::from(l) * 8,
                i64::from(t) * 8,
                i64::from(f.width) * 8,
                i64::from(f.height) * 8,
            ))
        })
        .collect();
    assert_eq!(rects.len(), r.drawn);
    // With at most 256 actors drawn: every pixel outside their rectangles is unchanged.
    if rects.len() <= 256 {
        let (w, h) = (i64::from(image.width()), i64::from(image.height()));
        let mut inside = vec![false; image.pixels().len() / 4];
        for &(l, t, rw, rh) in &rects {
            for y in t.max(0)..(t + rh).min(h) {
                for x in l.max(0)..(l + rw).min(w) {
                    if let Some(p) = usize::try_from(y * w + x)
                        .ok()
                        .and_then(|i| inside.get_mut(i))
                    {
                        *p = true;
                    }
                }
            }
        }
        for (i, (now, was)) in image
            .pixels()
            .chunks_exact(4)
            .zip(before.pixels().chunks_exact(4))
            .enumerate()
        {
            let covered = inside.get(i).copied().unwrap_or(false);
            assert!(covered || now == was, "outside the actors at pixel {i}");
        }
    }
    acc = acc.wrapping_add(r.drawn as u64 + r.in_front as u64);
    acc.wrapping_add(
        r.not_drawn
            .kept()
            .iter()
            .map(|p| p.to_string().len() as u64)
            .sum(),
    )
}
