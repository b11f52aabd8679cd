//! Pixels of a scene: a decoded image, what a tile draws, writing a pixel, the marker of
//! a missing image.

/// Colour of markers for images that cannot be found (magenta).
pub const MISSING: [u8; 4] = [255, 0, 255, 255];

/// A decoded image: RGBA, its size and offset in game pixels.
pub(super) struct Image {
    pub(super) width: i64,
    pub(super) height: i64,
    pub(super) offset: (i64, i64),
    pub(super) rgba: Vec<[u8; 4]>,
    /// For each row, whether every pixel of it is drawn (alpha not 0): such a row is
    /// copied whole.
    opaque: Vec<bool>,
}

impl Image {
    /// An image of `rgba` (`width * height` pixels, row by row).
    pub(super) fn new(width: i64, height: i64, offset: (i64, i64), rgba: Vec<[u8; 4]>) -> Self {
        let w = usize::try_from(width).unwrap_or(0).max(1);
        let opaque = rgba
            .chunks(w)
            .map(|row| row.iter().all(|p| p[3] != 0))
            .collect();
        Image {
            width,
            height,
            offset,
            rgba,
            opaque,
        }
    }

    /// Row `y`'s pixels and whether all of them are drawn; `None` outside the image.
    pub(super) fn row(&self, y: i64) -> Option<(&[[u8; 4]], bool)> {
        if y < 0 || y >= self.height {
            return None;
        }
        let w = usize::try_from(self.width).ok()?;
        let y = usize::try_from(y).ok()?;
        let start = y.checked_mul(w)?;
        let row = self.rgba.get(start..start.checked_add(w)?)?;
        Some((row, *self.opaque.get(y)?))
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
