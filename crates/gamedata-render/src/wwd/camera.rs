//! The part of each plane a player's screen shows, placed as the WAP32 engine places it
//! (`docs/formats/wap32.md`, "Levels: the view"; sushi-shi/gruntz-decomp
//! `src/DDrawMgr/LevelPlane.cpp`, `CDDrawWorkerHost::RecomputePlaneCoords`, applied to
//! every plane from `src/Gruntz/GameLevel.cpp`).
//!
//! The engine keeps each plane's camera centre, not its top-left: the main plane's is the
//! point the camera follows; every other plane's is the main plane's centre times the
//! plane's movement percentage (in `f32`, truncated toward zero), unless the plane has the
//! main flag. A centre is taken modulo the plane's size on an axis that wraps and clamped
//! into the plane on one that does not; the window is the screen's size around it, moved
//! back inside a plane that does not wrap.

// Positions are i32 widened to i64 and sizes at most 2^31 tiles of 1,024 pixels: no sum
// or product here overflows i64.
#![allow(clippy::arithmetic_side_effects)]

use wap_core::{Level, PlaneFlags};

use crate::{RenderError, Result};

/// A player's screen on a level: the camera's top-left in main-plane pixels and the
/// screen's size in pixels (the game's is 640 x 480).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Main-plane pixel at the screen's left edge (before the engine keeps the screen
    /// inside a plane that does not wrap).
    pub x: i32,
    /// Main-plane pixel at the screen's top edge (the same).
    pub y: i32,
    /// Screen width in pixels.
    pub width: u32,
    /// Screen height in pixels.
    pub height: u32,
}

impl View {
    /// The game's screen: 640 x 480 pixels.
    pub const SCREEN: (u32, u32) = (640, 480);

    /// A 640 x 480 screen with its top-left at main-plane pixel (`x`, `y`).
    pub fn at(x: i32, y: i32) -> Self {
        View {
            x,
            y,
            width: Self::SCREEN.0,
            height: Self::SCREEN.1,
        }
    }
}

/// One axis of a plane's window: its centre (`scaled`, in plane pixels, as the engine
/// holds it in an `f32`), whether the plane wraps on it, the plane's size and the screen's,
/// in pixels. Returns the centre as the engine truncates it, and the plane pixel at the
/// screen's first column (or row).
fn axis(scaled: f32, wrap: bool, size: i64, screen: i64) -> (i64, i64) {
    let mut centre = scaled;
    if wrap {
        if size > 0 {
            // The engine adds or subtracts the size until the centre is inside; `%` is
            // exact, and a sum that rounds up to the size is taken down once more.
            let s = size as f32;
            centre %= s;
            if centre < 0.0 {
                centre += s;
            }
            if centre >= s {
                centre -= s;
            }
        }
    } else if centre < 0.0 {
        centre = 0.0;
    } else if size as f32 <= centre {
        centre = (size - 1) as f32;
    }
    // Truncation toward zero, as the engine's `(int)` cast (`as` saturates past i32, where
    // the engine's is undefined).
    #[allow(clippy::cast_possible_truncation)]
    let snapped = i64::from(centre as i32);
    let mut first = snapped - screen / 2;
    if first < 0 {
        first = if wrap { size + first } else { 0 };
    }
    let last = first + screen - 1;
    if !wrap && last >= size {
        first -= last - size + 1;
    }
    (snapped, first)
}

/// For each plane of `level`, the plane pixel at the screen's top-left (x, y) when the
/// camera shows `view`; a plane may start left of or above the screen (a negative
/// position) when it is smaller than the screen.
///
/// Returns [`RenderError::NoPlane`] when the level has no main plane, and
/// [`RenderError::Level`] when a plane cannot be read.
pub(crate) fn windows(level: &Level<'_>, view: &View) -> Result<Vec<(i64, i64)>> {
    let main = level.main_plane()?.ok_or(RenderError::NoPlane {
        plane: None,
        planes: level.planes().len(),
    })?;
    let screen = (i64::from(view.width), i64::from(view.height));
    let size = |p: &wap_core::Plane<'_>| {
        let (tw, th) = p.tile_size();
        (
            i64::from(tw) * i64::from(p.tiles_wide()),
            i64::from(th) * i64::from(p.tiles_high()),
        )
    };
    let flags = main.flags();
    let (mw, mh) = size(&main);
    // The main plane's centre is where the camera looks (the main flag: not scaled).
    let centre = (
        (i64::from(view.x) + screen.0 / 2) as f32,
        (i64::from(view.y) + screen.1 / 2) as f32,
    );
    let (cx, _) = axis(centre.0, flags.contains(PlaneFlags::WRAP_X), mw, screen.0);
    let (cy, _) = axis(centre.1, flags.contains(PlaneFlags::WRAP_Y), mh, screen.1);
    let mut out = Vec::with_capacity(level.planes().len());
    for plane in level.planes() {
        let plane = plane?;
        let flags = plane.flags();
        let (percent_x, percent_y) = plane.movement_percent();
        let scaled = |c: i64, percent: i32| {
            if flags.contains(PlaneFlags::MAIN) {
                c as f32
            } else {
                // The engine keeps percent * 0.01 as an f32, then multiplies.
                c as f32 * (percent as f32 * 0.01_f32)
            }
        };
        let (w, h) = size(&plane);
        let (_, left) = axis(
            scaled(cx, percent_x),
            flags.contains(PlaneFlags::WRAP_X),
            w,
            screen.0,
        );
        let (_, top) = axis(
            scaled(cy, percent_y),
            flags.contains(PlaneFlags::WRAP_Y),
            h,
            screen.1,
        );
        out.push((left, top));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::axis;

    #[test]
    fn a_centre_is_clamped_into_a_plane_that_does_not_wrap() {
        // A 1,000-pixel plane and a 640-pixel screen: centre 100 puts the window at 0.
        assert_eq!(axis(100.0, false, 1000, 640), (100, 0));
        assert_eq!(axis(500.0, false, 1000, 640), (500, 180));
        // Past the end: the window ends at the plane's last pixel.
        assert_eq!(axis(900.0, false, 1000, 640), (900, 360));
        assert_eq!(axis(5000.0, false, 1000, 640), (999, 360));
        assert_eq!(axis(-5.0, false, 1000, 640), (0, 0));
        // Truncated toward zero.
        assert_eq!(axis(500.9, false, 1000, 640), (500, 180));
    }

    #[test]
    fn a_centre_wraps_in_a_plane_that_wraps() {
        assert_eq!(axis(1100.0, true, 1000, 640), (100, 780));
        assert_eq!(axis(-100.0, true, 1000, 640), (900, 580));
        assert_eq!(axis(350.5, true, 1000, 640), (350, 30));
        // Near zero from below: the sum rounds to the size and is taken down to 0.
        assert_eq!(axis(-1e-9, true, 1000, 640), (0, 680));
    }

    #[test]
    fn a_plane_narrower_than_the_screen_starts_left_of_it() {
        assert_eq!(axis(100.0, false, 320, 640), (100, -320));
    }
}
