//! A Tiled map as this crate writes it: an orthogonal, fixed-size map of tile layers and
//! object layers, tilesets whose images are files beside the map, custom properties
//! (`docs/formats/tiled.md`; <https://doc.mapeditor.org/en/stable/reference/tmx-map-format/>).
//! [`crate::tmx`] and [`crate::tmj`] write it as XML and JSON.

/// Tiled's flag on a global tile id: drawn mirrored left to right (bit 31).
pub const FLIP_HORIZONTAL: u32 = 0x8000_0000;
/// Tiled's flag on a global tile id: drawn upside down (bit 30).
pub const FLIP_VERTICAL: u32 = 0x4000_0000;

/// The value of a custom property.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Tiled's `string`.
    String(String),
    /// Tiled's `int` (32 bits in Tiled; this crate writes only values that fit `i32`).
    Int(i64),
    /// Tiled's `float`.
    Float(f64),
    /// Tiled's `bool`.
    Bool(bool),
}

/// A custom property: a name and a value.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    /// Its name (this crate's start `wwd_`, so that none is `id`, `name`, `x` or `y`,
    /// which pytmx refuses).
    pub name: String,
    /// Its value.
    pub value: Value,
}

impl Property {
    /// A string property.
    pub fn string(name: impl Into<String>, value: impl Into<String>) -> Self {
        Property {
            name: name.into(),
            value: Value::String(value.into()),
        }
    }

    /// An int property.
    pub fn int(name: impl Into<String>, value: impl Into<i64>) -> Self {
        Property {
            name: name.into(),
            value: Value::Int(value.into()),
        }
    }
}

/// A tile of a tileset with its own properties.
#[derive(Clone, Debug, PartialEq)]
pub struct TileInfo {
    /// Its local id in the tileset.
    pub id: u32,
    /// Its image, for a collection of images: the file's path relative to the map, its
    /// width and height in pixels.
    pub image: Option<(String, u32, u32)>,
    /// Its properties.
    pub properties: Vec<Property>,
}

/// A tileset, written inside the map.
#[derive(Clone, Debug, PartialEq)]
pub struct Tileset {
    /// The global id of its first tile (1 for the first tileset).
    pub first_gid: u32,
    /// Its name.
    pub name: String,
    /// The (largest) tile width and height in pixels.
    pub tile_width: u32,
    /// See `tile_width`.
    pub tile_height: u32,
    /// Tiles in it.
    pub tile_count: u32,
    /// Columns of tiles in its image (for a collection, as Tiled shows it).
    pub columns: u32,
    /// One image of `columns` tiles a row, for an atlas: the file's path relative to the
    /// map, its width and height in pixels; `None` for a collection of images (each tile's
    /// in [`TileInfo::image`]).
    pub image: Option<(String, u32, u32)>,
    /// Tile objects placed by their top-left corner (`objectalignment="topleft"`) rather
    /// than Tiled's default bottom-left.
    pub align_top_left: bool,
    /// Tiles with properties or images of their own, by local id.
    pub tiles: Vec<TileInfo>,
    /// Its properties.
    pub properties: Vec<Property>,
}

/// An object of an object layer.
#[derive(Clone, Debug, PartialEq)]
pub struct MapObject {
    /// Its id, unique in the map, from 1.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Its class (Tiled 1.8's `type`).
    pub class: String,
    /// Its tile's global id with the flip bits, for a tile object; `None` for a point.
    pub gid: Option<u32>,
    /// Its place in pixels: the tile's top-left corner for a tile object of a tileset
    /// aligned top-left, the point for a point.
    pub x: i64,
    /// See `x`.
    pub y: i64,
    /// Its size in pixels (a tile object's image's; 0 for a point).
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// Shown (Tiled draws hidden objects in no picture).
    pub visible: bool,
    /// Its properties.
    pub properties: Vec<Property>,
}

/// What a layer holds.
#[derive(Clone, Debug, PartialEq)]
pub enum LayerData {
    /// A tile layer: the map's cells row by row, each a global tile id (0 for none).
    Tiles(Vec<u32>),
    /// An object layer, drawn in its objects' order (`draworder="index"`).
    Objects(Vec<MapObject>),
    /// An image layer: one image with its top-left corner at the map's, repeated along the
    /// axes asked (`docs/formats/tiled.md`: Tiled 1.8.2 reads `repeatx`/`repeaty` from TMX
    /// only; its JSON reader drops them).
    Image(LayerImage),
}

/// The image of an image layer.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerImage {
    /// The file's path relative to the map, its width and height in pixels.
    pub image: (String, u32, u32),
    /// Repeated across the map (`repeatx`).
    pub repeat_x: bool,
    /// Repeated down the map (`repeaty`).
    pub repeat_y: bool,
}

/// A layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Its id, unique in the map, from 1.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Shown.
    pub visible: bool,
    /// Its parallax factors (1 scrolls with the camera).
    pub parallax: (f64, f64),
    /// Its tiles or objects.
    pub data: LayerData,
    /// Its properties.
    pub properties: Vec<Property>,
}

/// An orthogonal, fixed-size Tiled map.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// Width and height in tiles.
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// The grid's tile width and height in pixels.
    pub tile_width: u32,
    /// See `tile_width`.
    pub tile_height: u32,
    /// Its tilesets, in the order of their first global ids.
    pub tilesets: Vec<Tileset>,
    /// Its layers, drawn first to last.
    pub layers: Vec<Layer>,
    /// Its properties.
    pub properties: Vec<Property>,
}

impl Map {
    /// The next layer id: one past the largest.
    pub fn next_layer_id(&self) -> u32 {
        self.layers
            .iter()
            .map(|l| l.id)
            .max()
            .unwrap_or(0)
            .saturating_add(1)
    }

    /// The next object id: one past the largest.
    pub fn next_object_id(&self) -> u32 {
        self.objects()
            .map(|o| o.id)
            .max()
            .unwrap_or(0)
            .saturating_add(1)
    }

    /// Every object of every object layer, in order.
    pub fn objects(&self) -> impl Iterator<Item = &MapObject> {
        self.layers.iter().flat_map(|l| match &l.data {
            LayerData::Objects(o) => o.as_slice(),
            LayerData::Tiles(_) | LayerData::Image(_) => &[],
        })
    }
}
