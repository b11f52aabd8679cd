//! The WWD renderers' exercises: `wwd_collision` and `wwd_level_picture`.

#![allow(clippy::arithmetic_side_effects, clippy::panic)]

use super::SMALL;
use crate::io::split_parts;
use gamedata_io::Limits;
use wap_core::{Attribute, LevelFile, LevelOptions, Plane, Tile, TilePropertyIndex};

use gamedata_render::{Region, wwd};

/// A level and the collision map of each of its planes: `data` opened as a level file
/// (16 MiB decoding limit). Each plane is drawn whole and in stripes of 7 rows, at 1 or 3
/// pixels a tile (as the input's length is even or odd) and, when its tiles are at most 64
/// pixels a side, at the tile width, where every pixel is exact. Checked: the picture is
/// the plane's tiles times the pixels a tile; the pixel counts cover it; the stripes hold
/// the same rows and counts; every pixel has an attribute colour or the object colour; no
/// more objects are marked than the plane has; at the tile size the counts equal an
/// independent count of each tile pixel's attribute.
pub fn wwd_collision(data: &[u8]) -> u64 {
    let limits = Limits::default().with_max_decoded_bytes(16 << 20);
    let file = match LevelFile::from_data(data.to_vec(), &LevelOptions::new().with_limits(limits)) {
        Ok(file) => file,
        Err(e) => return e.to_string().len() as u64,
    };
    let level = match file.view() {
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
                Some(Tile::Image { id, .. }) => Some(id),
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

/// A level drawn with its graphics: three files (a control file, the level, a REZ archive).
/// The control's bytes give the output pixels a tile (1 to 8), whether one plane is drawn
/// alone and which, whether objects are left out, a view, markers and a time; the level is opened within 16 MiB
/// and its images decoded within 16 MiB. Checked: a scene that prepares has the size of
/// its plane's tiles times the pixels a tile; drawn in stripes of 7 rows it gives the same
/// pixels as drawn whole (when at most 2^20 pixels); its report lists at most 100 missing
/// images, each once, and counts at least as many; it draws no more objects than the
/// level has, and with objects left out none; it counts an object animated or unplayed
/// only at a time, each once; its planes and objects draw at most
/// `SceneOptions::max_overdraw` times its pixels.
pub fn wwd_level_picture(data: &[u8]) -> u64 {
    use wap_core::{ImageSource, RezFile};

    use gamedata_render::wwd::{Scene, SceneOptions, View};
    let [control, level, archive] = split_parts::<3, 4>(data);
    let c = |i: usize| u32::from(control.get(i).copied().unwrap_or(0));
    let limits = Limits::default().with_max_decoded_bytes(16 << 20);
    let file = match LevelFile::from_data(level.to_vec(), &LevelOptions::new().with_limits(limits))
    {
        Ok(file) => file,
        Err(e) => return e.to_string().len() as u64,
    };
    let level = match file.view() {
        Ok(level) => level,
        Err(e) => return e.to_string().len() as u64,
    };
    let source = match RezFile::from_data(archive.to_vec(), &Default::default()) {
        Ok(archive) => ImageSource::Archive(archive),
        Err(e) => return e.to_string().len() as u64,
    };
    let planes = level.planes().len();
    // One time in three a view: the camera anywhere within 4,096 pixels of the level's
    // corner (or outside it), a screen of 4 to 256 pixels a side.
    let offset = |i: usize| (c(i) as i32 - 128) * 32;
    let view = (c(4) % 3 == 2).then(|| View {
        x: offset(5),
        y: offset(6),
        width: (c(7) % 64 + 1) * 4,
        height: (c(8) % 64 + 1) * 4,
    });
    let options = SceneOptions {
        tile_px: view.is_none().then_some(c(0) % 8 + 1),
        plane: (c(1) % 2 == 1 && planes > 0).then(|| c(2) as usize % planes),
        no_objects: c(3) % 2 == 1,
        markers: c(9) % 2 == 1,
        view,
        // One time in two a time: 0 to 2^24 milliseconds, or the last millisecond.
        time: match c(10) % 4 {
            0 | 1 => None,
            2 => Some(u64::from(c(11)) << 16 | u64::from(c(12)) << 8),
            _ => Some(u64::MAX),
        },
        ..SceneOptions::default()
    };
    let scene = match Scene::new(&level, &source, &options, &limits) {
        Ok(scene) => scene,
        Err(e) => return e.to_string().len() as u64,
    };
    let plane = match options.plane {
        Some(i) => level.plane(i),
        None => level.main_plane(),
    };
    let Ok(Some(plane)) = plane else {
        panic!("a scene prepared without its plane");
    };
    let tile_px = c(0) % 8 + 1;
    let size = match view {
        Some(v) => (u64::from(v.width), u64::from(v.height)),
        None => (
            u64::from(plane.tiles_wide()) * u64::from(tile_px),
            u64::from(plane.tiles_high()) * u64::from(tile_px),
        ),
    };
    assert_eq!((u64::from(scene.width()), u64::from(scene.height())), size);
    let report = scene.report();
    let pixels = u64::from(scene.width()) * u64::from(scene.height());
    assert!(
        report.pixels_drawn <= pixels.saturating_mul(options.max_overdraw),
        "{} pixels drawn in a picture of {pixels}",
        report.pixels_drawn
    );
    assert!(report.missing.len() <= gamedata_render::wwd::scene::MAX_LISTED);
    assert!(report.missing_images >= report.missing.len() as u64);
    let mut listed = report.missing.clone();
    listed.sort();
    listed.dedup();
    assert_eq!(
        listed.len(),
        report.missing.len(),
        "each missing image listed once"
    );
    let objects: u64 = level
        .planes()
        .flatten()
        .map(|p| u64::from(p.object_count()))
        .sum();
    assert!(report.objects_drawn <= objects);
    // Each object counted animated or unplayed once at most, and only at a time.
    assert!(report.animated.saturating_add(report.unplayed) <= objects);
    if options.no_objects || options.time.is_none() {
        assert_eq!(report.animated + report.unplayed, 0);
    }
    if options.no_objects {
        assert_eq!(report.objects_drawn, 0);
    }
    let mut acc = report.tiles_drawn.wrapping_add(report.missing_images);
    if pixels <= SMALL {
        let whole = match scene.rect(Region::new(0, 0, scene.width(), scene.height())) {
            Ok(whole) => whole,
            Err(e) => panic!(
                "the whole {} x {} scene: {e}",
                scene.width(),
                scene.height()
            ),
        };
        let mut y = 0;
        while y < scene.height() {
            let stripe = match scene.stripe(y, 7) {
                Ok(stripe) => stripe,
                Err(e) => panic!("the stripe at row {y}: {e}"),
            };
            for dy in 0..stripe.height() {
                assert_eq!(stripe.row(dy), whole.row(y + dy), "row {}", y + dy);
            }
            y += stripe.height();
        }
        acc = acc.wrapping_add(whole.pixels().iter().map(|&p| u64::from(p)).sum::<u64>());
    }
    acc
}
