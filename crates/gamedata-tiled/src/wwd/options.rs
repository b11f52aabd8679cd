//! What a level's export takes and makes ([`export`](super::export)): its options, the
//! images to write beside the map, the result, and an object on its way to a layer.

use gamedata_render::RgbaImage;

use crate::map::{Map, MapObject, Property};

/// Columns of tiles in a tile set's atlas image.
pub const ATLAS_COLUMNS: u32 = 16;

/// What [`export`](super::export) makes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportOptions {
    /// The folder of the images, relative to the map file, as the map names them
    /// (`level_images`); the images' paths start with it.
    pub images_dir: String,
}

impl ExportOptions {
    /// Options with the images in `dir` (relative to the map).
    pub fn with_images_dir(mut self, dir: impl Into<String>) -> Self {
        self.images_dir = dir.into();
        self
    }
}

/// An image to write beside the map.
#[derive(Clone, Debug)]
pub struct ExportImage {
    /// Its path relative to the map (`/`-separated), as the map names it.
    pub path: String,
    /// Its pixels.
    pub image: RgbaImage,
}

/// A level exported: the map, the images it names, what was found.
#[derive(Debug)]
pub struct Export {
    /// The map.
    pub map: Map,
    /// The tileset images and object images, each to be written at its path.
    pub images: Vec<ExportImage>,
    /// Tiles and objects drawn and missing (as [`gamedata_render::wwd::SceneReport`]).
    pub report: gamedata_render::wwd::SceneReport,
}

/// An object on its way to a layer.
pub(super) struct Placed {
    pub(super) z: i32,
    pub(super) object: MapObject,
    /// The decoded image it draws, for its gid.
    pub(super) image: Option<usize>,
    /// What a new object drawing the same image needs (its tile's properties in the
    /// tileset `objects`): the image's offset, the object's logic, image set, frame and
    /// animation.
    pub(super) tile_properties: Vec<Property>,
}
