//! What a scene draws, in order: planes and objects ([`Layer`]).

use wap_core::FolderId;
use zerocopy::little_endian::U32;

/// A plane to draw, its tiles borrowed from the level.
pub(super) struct PlaneLayer<'l> {
    /// Plane size in game pixels and tiles.
    pub(super) tile: (i64, i64),
    pub(super) tiles: (i64, i64),
    pub(super) wrap: (bool, bool),
    /// The plane pixel at the picture's game pixel (0, 0): (0, 0) for a whole level, the
    /// camera's window for a view.
    pub(super) origin: (i64, i64),
    /// Raw tile values, row by row, in the level's bytes.
    pub(super) cells: &'l [U32],
    pub(super) fill: [u8; 4],
    /// The folder of each of the plane's tile sets (`None`: not found).
    pub(super) sets: Vec<Option<FolderId>>,
}

/// An object to draw.
pub(super) struct Sprite {
    /// Top-left corner and size in the picture's game pixels.
    pub(super) left: i64,
    pub(super) top: i64,
    pub(super) width: i64,
    pub(super) height: i64,
    pub(super) image: Option<usize>,
    pub(super) mirror: bool,
    pub(super) invert: bool,
}

/// What is drawn, in order.
pub(super) enum Layer<'l> {
    Plane(PlaneLayer<'l>),
    Sprite(Sprite),
}
