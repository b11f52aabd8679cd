//! Each renderer over arbitrary bytes, with its properties: what the fuzz targets
//! `uo_radar`, `wwd_collision`, `wwd_level_picture`, `cosmo_draw` and `cosmo_level`
//! (`fuzz/fuzz_targets/`) run and the tests
//! replay. Each function returns a number derived from what it drew; errors are results.
//! Inputs holding several files are in [`crate::io::split_parts`] form with
//! 4-byte lengths.
//!
//! # Panics
//!
//! Only when a property below does not hold: that is a bug, and a fuzz run reports it.

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose), and their
// coordinates come from sizes the renderers checked. Their assertions are the properties
// the fuzzer checks: a failed one is a finding.
#![allow(clippy::arithmetic_side_effects, clippy::panic)]

mod cosmo;
mod uo;
mod wwd;

pub use cosmo::{check_draw, cosmo_draw, cosmo_level};
pub use uo::{check_radar, uo_radar};
pub use wwd::{check_collision, wwd_collision, wwd_level_picture};

use gamedata_render::RenderError;
use gamedata_render::RgbaImage;

/// An 8-bit RGBA or RGB PNG decoded ([`RgbaImage::from_png`]), `None` when it is not one.
pub(crate) fn decode_png(bytes: &[u8]) -> Option<RgbaImage> {
    RgbaImage::from_png(bytes).ok()
}

/// The web map pyramid of `picture`, one level magnified, with its properties: every tile
/// the levels count is made once, each 256 x 256; the native tiles hold the picture's
/// pixels, transparent past its edge; the magnified level doubles them. Returns the tiles.
pub(crate) fn check_pyramid(picture: &RgbaImage) -> u64 {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    use gamedata_render::tiles::{Levels, TILE, build_pyramid};
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

/// Most pixels a fuzzed collision map may have, so that runs stay fast.
pub(crate) const SMALL: u64 = 1 << 20;
