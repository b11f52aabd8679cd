//! What a section of a level image holds: named by errors, by the layout report and by the
//! views, so it depends on nothing else in the crate. Source: `docs/formats/wwd.md`.

use std::fmt;

/// What a section of the image holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SectionKind {
    /// The plane header table.
    PlaneHeaders,
    /// The tiles of plane n.
    Tiles(usize),
    /// The image-set names of plane n.
    ImageSets(usize),
    /// The objects of plane n.
    Objects(usize),
    /// The tile property table.
    TileProperties,
}

impl fmt::Display for SectionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SectionKind::PlaneHeaders => write!(f, "plane headers"),
            SectionKind::Tiles(p) => write!(f, "plane {p} tiles"),
            SectionKind::ImageSets(p) => write!(f, "plane {p} image sets"),
            SectionKind::Objects(p) => write!(f, "plane {p} objects"),
            SectionKind::TileProperties => write!(f, "tile property table"),
        }
    }
}
