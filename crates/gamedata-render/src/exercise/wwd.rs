//! The WWD renderers' exercises: `wwd_collision` and `wwd_level_picture`.

#![allow(clippy::arithmetic_side_effects, clippy::panic)]

use super::SMALL;
use gamedata_io::Limits;
use wap_core::{Attribute, LevelFile, LevelOptions, Plane, Tile, TilePropertyIndex};

use crate::{Region, wwd};

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
