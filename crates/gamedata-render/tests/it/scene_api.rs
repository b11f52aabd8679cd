//! `wwd::Scene`'s edges without real files: its size limits, the overdraw cap at its
//! bound, stripes and rectangles as crops of the whole picture, the marker of a missing
//! tile, `tile_px`, `Debug`, and the scene as a source of web map tiles.

use gamedata_render::tiles::TileSource;
use gamedata_render::wwd::scene::MISSING;
use gamedata_render::wwd::{Scene, SceneOptions, View};
use gamedata_render::{MAX_PIXELS, Region, RenderError};
use wap_core::{Level, Limits};

use crate::scene_rules::{rule_archive_with, rule_level};

fn scene<'l>(
    level: &Level<'l>,
    archive: &crate::engine::RefArchive,
    options: &SceneOptions,
) -> Result<Scene<'l>, RenderError> {
    Scene::new(level, &archive.source, options, &Limits::default())
}

#[test]
fn a_view_is_refused_when_empty_or_past_the_pixel_cap_and_kept_at_it() {
    let data = rule_level(7, false);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive_with(&level, Vec::new());
    let view = |width, height| SceneOptions {
        view: Some(View {
            x: 0,
            y: 0,
            width,
            height,
        }),
        no_objects: true,
        ..SceneOptions::default()
    };
    // 16,384 x 16,384 is the cap exactly: kept (nothing is drawn until asked).
    assert_eq!(u64::from(16_384u32 * 16_384), MAX_PIXELS);
    let at_cap = scene(&level, &archive, &view(16_384, 16_384)).unwrap();
    assert_eq!((at_cap.width(), at_cap.height()), (16_384, 16_384));
    for (w, h) in [(16_384, 16_385), (0, 10), (10, 0)] {
        let err = scene(&level, &archive, &view(w, h)).err();
        assert!(
            matches!(err, Some(RenderError::TooLarge { .. })),
            "{w} x {h}: {err:?}"
        );
    }
}

#[test]
fn the_overdraw_cap_is_kept_at_its_bound() {
    let data = rule_level(7, false);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive_with(&level, Vec::new());
    // The main plane alone, no objects: it covers the picture once.
    let options = SceneOptions {
        tile_px: Some(4),
        plane: Some(1),
        no_objects: true,
        max_overdraw: 1,
        ..SceneOptions::default()
    };
    let s = Scene::new(&level, &archive.source, &options, &Limits::default()).unwrap();
    let pixels = u64::from(s.width()) * u64::from(s.height());
    assert_eq!(s.report().pixels_drawn, pixels);
    // The whole level (three planes and objects) passes once.
    let whole = SceneOptions {
        tile_px: Some(4),
        max_overdraw: 1,
        ..SceneOptions::default()
    };
    let err = Scene::new(&level, &archive.source, &whole, &Limits::default()).err();
    assert!(
        matches!(err, Some(RenderError::Overdraw { max: 1, .. })),
        "{err:?}"
    );
}

/// Stripes and rectangles anywhere, and every column alone, are crops of the whole
/// picture (sprites and planes that start left of a rectangle included), and the scene as
/// a web tile source draws the same.
#[test]
fn stripes_and_rectangles_are_crops_of_the_whole() {
    let data = rule_level(11, true);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive_with(&level, Vec::new());
    let options = SceneOptions {
        tile_px: Some(16),
        ..SceneOptions::default()
    };
    let s = scene(&level, &archive, &options).unwrap();
    assert_eq!(s.tile_px(), 16);
    assert_eq!(s.size(), (s.width(), s.height()));
    let (w, h) = (s.width(), s.height());
    let whole = s.rect(Region::new(0, 0, w, h)).unwrap();
    let crop = |r: Region| -> Vec<u8> {
        (r.y..r.y + r.height)
            .flat_map(|y| {
                let row = whole.row(y).unwrap();
                row[r.x as usize * 4..(r.x + r.width) as usize * 4].to_vec()
            })
            .collect()
    };
    for r in [
        Region::new(37, 11, 200, 90),
        Region::new(w - 101, h - 77, 101, 77),
        Region::new(300, 0, 1, h),
        Region::new(1, 150, w - 1, 3),
    ] {
        assert_eq!(s.rect(r).unwrap().pixels(), crop(r).as_slice(), "{r}");
        assert_eq!(s.draw(r).unwrap().pixels(), crop(r).as_slice(), "{r}");
    }
    // Every column alone: sprites and planes cut at both sides of a one-pixel rectangle.
    for x in 0..w {
        let r = Region::new(x, 0, 1, h);
        assert_eq!(s.rect(r).unwrap().pixels(), crop(r).as_slice(), "{r}");
    }
    let stripe = s.stripe(h - 3, 7).unwrap();
    assert_eq!((stripe.width(), stripe.height()), (w, 3));
    assert_eq!(
        stripe.pixels(),
        crop(Region::new(0, h - 3, w, 3)).as_slice()
    );
    assert!(matches!(s.stripe(0, 0), Err(RenderError::Stripe { .. })));
    assert!(matches!(s.stripe(h, 5), Err(RenderError::Stripe { .. })));
    // A view's scale is a game pixel a pixel; its tile_px the main plane's tile width.
    let v = SceneOptions {
        view: Some(View::at(100, 100)),
        ..SceneOptions::default()
    };
    assert_eq!(scene(&level, &archive, &v).unwrap().tile_px(), 64);
    let debug = format!("{s:?}");
    assert!(
        debug.starts_with("Scene {") && debug.contains(&format!("width: {w}")),
        "{debug}"
    );
}

/// A tile whose image is missing draws nothing, or with markers the magenta marker: a
/// frame two pixels wide and both diagonals, nothing else.
#[test]
fn a_missing_tile_draws_the_marker_only_when_asked() {
    let mut data = rule_level(7, false);
    let image = data.image().unwrap();
    let archive = rule_archive_with(&Level::parse(&image).unwrap(), Vec::new());
    // Tile (3, 2) of the main plane names an image the archive does not hold.
    data.planes[1].tiles[2 * 40 + 3] = 999;
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let draw = |markers| {
        let options = SceneOptions {
            tile_px: Some(64),
            plane: Some(1),
            no_objects: true,
            markers,
            ..SceneOptions::default()
        };
        let s = scene(&level, &archive, &options).unwrap();
        s.rect(Region::new(3 * 64, 2 * 64, 64, 64)).unwrap()
    };
    let plain = draw(false);
    assert!(plain.pixels().chunks(4).all(|p| p == [0, 0, 0, 255]));
    let marked = draw(true);
    for y in 0..64usize {
        for x in 0..64usize {
            let p = &marked.pixels()[(y * 64 + x) * 4..(y * 64 + x) * 4 + 4];
            let edge = x < 2 || y < 2 || x > 61 || y > 61;
            let diagonal = x == y || x + y == 63;
            let off = x.abs_diff(y) > 2 && (x + y).abs_diff(63) > 2;
            if edge || diagonal {
                assert_eq!(p, MISSING, "({x}, {y})");
            } else if off {
                assert_eq!(p, [0, 0, 0, 255], "({x}, {y})");
            }
        }
    }
}

/// An archive's bytes read by range, each range kept.
struct Ranges {
    data: std::sync::Arc<Vec<u8>>,
    asked: std::sync::Arc<std::sync::Mutex<Vec<(u64, u32)>>>,
}

impl wap_core::ReadRange for Ranges {
    fn read_range(&self, offset: u64, length: u32) -> Result<Vec<u8>, gamedata_io::FileError> {
        self.asked.lock().unwrap().push((offset, length));
        let at = offset as usize;
        Ok(self.data[at..at + length as usize].to_vec())
    }
}

#[test]
fn a_level_drawn_from_an_archive_s_tables_is_the_level_drawn_from_the_whole_archive() {
    let data = wap_core::synth::level(5, 24, 20);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let bytes = wap_core::synth::level_archive(&data).unwrap();
    let whole = wap_core::ImageSource::Archive(
        wap_core::RezFile::from_data(bytes.clone(), &Default::default()).unwrap(),
    );
    // The tables by ranges, as a web page reads them.
    let mut fetch = wap_core::RezFetch::new(bytes.len() as u64, &Default::default());
    let mut tables_read = Vec::new();
    while let Some((offset, length)) = fetch.wanted() {
        tables_read.push((offset, length));
        fetch.give(bytes[offset as usize..offset as usize + length as usize].to_vec());
    }
    let tables = fetch.finish().unwrap().unwrap();
    let asked = std::sync::Arc::default();
    let ranged = wap_core::ImageSource::Tables(wap_core::RangedArchive::new(
        std::sync::Arc::new(tables),
        Box::new(Ranges {
            data: std::sync::Arc::new(bytes.clone()),
            asked: std::sync::Arc::clone(&asked),
        }),
    ));
    for options in [
        SceneOptions {
            tile_px: Some(8),
            ..SceneOptions::default()
        },
        SceneOptions {
            tile_px: Some(8),
            markers: true,
            time: Some(1_250),
            ..SceneOptions::default()
        },
    ] {
        let a = Scene::new(&level, &whole, &options, &Limits::default()).unwrap();
        let b = Scene::new(&level, &ranged, &options, &Limits::default()).unwrap();
        assert_eq!(format!("{:?}", a.report()), format!("{:?}", b.report()));
        assert!(a.report().tiles_drawn > 0 && a.report().objects_drawn > 0);
        let all = Region::new(0, 0, a.width(), a.height());
        assert_eq!(a.rect(all).unwrap(), b.rect(all).unwrap());
    }
    // Files alone were read by range: no table again, and none the whole archive.
    {
        let asked = asked.lock().unwrap();
        assert!(!asked.is_empty());
        assert!(asked.iter().all(|r| !tables_read.contains(r)));
        let largest = asked.iter().map(|&(_, l)| l).max().unwrap();
        assert!(
            (largest as usize) < bytes.len() / 4,
            "{largest} of {}",
            bytes.len()
        );
    }
    // The source's paths and lengths as the whole archive's.
    let view = wap_core::Rez::parse(&bytes).unwrap();
    for item in view.walk(&view.root()).take(40) {
        let (path, file) = item.unwrap();
        assert_eq!(ranged.file(&path).unwrap().unwrap(), file.bytes);
        assert_eq!(
            ranged.file_len(&path).unwrap(),
            whole.file_len(&path).unwrap()
        );
    }
    assert!(ranged.file("NO/SUCH.PID").unwrap().is_none());
}
