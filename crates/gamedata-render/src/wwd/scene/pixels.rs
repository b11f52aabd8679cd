//! Pixels of a scene: a decoded image, what a tile draws, writing a pixel, the marker of
//! a missing image.

use super::MISSING;

/// A decoded image: RGBA, its size and offset in game pixels.
pub(super) struct Image {
    pub(super) width: i64,
    pub(super) height: i64,
    pub(super) offset: (i64, i64),
    pub(super) rgba: Vec<[u8; 4]>,
}

impl Image {
    pub(super) fn pixel(&self, x: i64, y: i64) -> Option<[u8; 4]> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        self.rgba
            .get(usize::try_from(y * self.width + x).ok()?)
            .copied()
    }
}

/// What a tile draws.
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    Nothing,
    Fill,
    Image(&'a Image),
    Marker,
}

/// Writes an opaque `colour` at column `x` of `row`.
pub(super) fn put(row: &mut [u8], x: i64, colour: Option<[u8; 4]>) {
    let Some(c) = colour.filter(|c| c[3] != 0) else {
        return;
    };
    let at = usize::try_from(x).unwrap_or(usize::MAX).saturating_mul(4);
    if let Some(p) = row.get_mut(at..at.saturating_add(4)) {
        p.copy_from_slice(&c);
    }
}

/// The marker of a missing image: a magenta frame two pixels wide and both diagonals,
/// the pixels whose centre lies within half a pixel of the line from corner to corner
/// (`x == y` and `x + y == side - 1` on a square).
pub(super) fn marker(x: i64, y: i64, width: i64, height: i64) -> Option<[u8; 4]> {
    let edge = x < 2 || y < 2 || x >= width - 2 || y >= height - 2;
    let (cx, cy) = (2 * x + 1, 2 * y + 1);
    let cross = (cx * height - cy * width).abs() < width.max(height)
        || (cx * height + cy * width - 2 * width * height).abs() < width.max(height);
    (edge || cross).then_some(MISSING)
}
