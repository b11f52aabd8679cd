//! A WAP32 level read back from a TMX or TMJ map that [`crate::wwd::export`] wrote, as it
//! was or edited in Tiled (`docs/formats/tiled.md`, "WWD levels in Tiled", read the other
//! way).
//!
//! - The header comes from the map's properties, each plane from a tile layer's (in the
//!   layers' order), each object from an object's (`wwd_plane`, then `wwd_order`), the
//!   tile property table from `wwd_tile_properties`.
//! - A plane's tiles start from `wwd_tiles` when the layer has it (all 0xFFFFFFFF
//!   otherwise); the layer's cells then give the tiles of the plane's first period: map
//!   cell (x, y) for x below the plane's width and the map's, y the same. A cell's tile is
//!   read through its tileset: `wwd_tile` of a tile set's tileset (the set found by name
//!   among the plane's image sets), the fill tileset's tiles are 0xEEEEEEEE, 0 is
//!   0xFFFFFFFF. A tile painted in Tiled reads the same way; a flipped one is an error
//!   naming its layer and cell (WWD tiles cannot be flipped).
//! - An object's position is its `wwd_x` and `wwd_y`, moved by as much as Tiled moved it:
//!   where the export would place it from them (a tile object's top-left corner is the
//!   position less half its image's size, moved by the image's offset, the tile's
//!   `wwd_offset_x` and `wwd_offset_y`, negated along a flipped axis; a point is the
//!   position) is compared with Tiled's `x`, `y` rounded to whole pixels, and the
//!   difference added. A tile object's flip bits set its draw flags 0x2 (mirrored) and 0x4
//!   (upside down). An unchanged object reads back as it was. As in Tiled, a tile object
//!   has its tile's properties where it has none of its own.
//! - An object without `wwd_plane` was added in Tiled: it goes to the plane of the nearest
//!   exported object of its layer (the one before it, else after it; the main plane when
//!   the layer has none), after that plane's objects, with that object's z; its id is one
//!   above the level's largest; its logic is its `wwd_logic`, else its class (`type`),
//!   else its tile's `wwd_logic`; its image set, frame (`wwd_i`) and animation its own
//!   properties', else its tile's; its name its own; its position the inverse of the
//!   export's placement of its tile (a point's is its place); every other field its
//!   property's, else 0.
//! - An object deleted in Tiled is not in the level.
//!
//! What cannot be read back is an error naming the layer or object: a missing or bad
//! property, a flipped tile, a tile of no tile set of its plane, an object rotated, flipped
//! diagonally, neither a point nor a tile of the tileset `objects`, or added without a
//! logic.
//!
//! What it costs, whatever the text: TMX is read by quick-xml, without a document type
//! (refused: no entity is expanded), at most `Limits::max_records` elements of at most 16
//! levels; TMJ is checked by serde_json (its nesting limited to 128) and read as at most
//! `Limits::max_records` elements; objects, added ones included, are elements, within the
//! same count.
//!
//! - What is kept of the text is charged to a byte budget of `Limits::max_decoded_bytes`
//!   as it is made, before it is kept: each element twice its 96 bytes (itself and its
//!   slot in its parent), its attribute slots and its owned names, attributes and text;
//!   each item of a TMJ list (properties, tilesets, tiles, layers, objects) as serde reads
//!   it, before the list keeps it, and its owned strings. A layer's or an object's
//!   elements are given back once read; the map's properties and tilesets stay. Past the
//!   budget, [`TiledError::TooLarge`] naming the bytes of the elements and JSON items kept.
//! - The level's main block, as wap-core's writer lays it out and the level reader
//!   (`wap_core::LevelFile`) decodes it, is within `Limits::max_decoded_bytes`: each plane's
//!   declared size (its header, `wwd_tiles_wide` times `wwd_tiles_high` tiles of 4 bytes,
//!   its image-set names) is counted with those of the planes and objects before it and the
//!   tile property table's header before any of its tiles is made, each object (its record
//!   and strings) as it is made, and the whole block (the tile property records too) once
//!   the level is made: a level the import makes is one the writer writes
//!   ([`wap_core::LevelData::layout`], with the same limits) and the reader reads back.
//! - The level as held in memory is within `Limits::max_decoded_bytes` and a sixteenth of
//!   it (at most 16 MiB more): the planes' bytes of main block, and each object as it is
//!   held, not as it is stored (its 380-byte record, its strings' heap buffers as malloc
//!   gives them, at least 32 bytes each, its place in the import), the objects' lists
//!   charged before they grow (twice their slots, or what is left). A point added in Tiled
//!   (34 bytes of text, 285 of main block) holds about 470 bytes: 3,000,000 of them (102
//!   MB) are refused at about 600,000, at 350 MB of resident memory (543 MB when only
//!   their stored bytes were counted), 300,000 are read in 158 MB.
//! - `wwd_tiles` is read into the plane's `tiles_wide * tiles_high` slots (no more than one
//!   a two bytes of its text), the reading stopped at the value past them.
//!
//! - The lookups cost the same whatever the number of tilesets and properties: the
//!   tilesets are sorted by first global id once, when the first layer comes, and a cell's
//!   or tile object's tileset is a binary search among them; a cell's image set one look
//!   in a map of its plane's image-set names made once a plane; a tile object's properties
//!   are its own, then its tile's, looked up in the tile's list sorted once (not copied).
//!
//! So the import holds at most the text, the budget, the level (at most
//! `Limits::max_decoded_bytes` of main block, and a sixteenth of it more as held) and its
//! tilesets' lookups.
//!
//! What it holds: the text, the level being made (its header, planes with their tiles,
//! objects), the tilesets (of each tile its `wwd_tile`, and for the tileset of tile objects
//! its image's size and its properties; their elements are dropped), and one tileset's,
//! layer's or object's element at a time, its names, attributes and text borrowed from the
//! text where they can be. The map's children are
//! read in the document's order (`from_tmx/xml.rs`; `json.rs` and `lenient.rs` for TMJ):
//! its tilesets before its layers, as Tiled writes them (a tileset after a layer is an
//! error naming it; the map's properties may be anywhere). A layer's cells are read one
//! by one straight into its plane's tiles (`plane.rs`); the objects of the object layers
//! are read one by one (`objects.rs`), then put in their planes without a second copy of
//! them (`place.rs`).
//!
//! Errors come in the order of a reading of the whole document before the map: the text's
//! (XML or JSON, the counts, a TMJ cell that is no global id), then the map's size, its
//! header, then the first error of its tilesets and layers in the document's order, then
//! those of the objects' planes and the tile property table.

/// What [`TiledError::TooLarge`] names past the bytes of the level held.
const HELD: &str = "bytes of the level's main block as held in memory (its planes, its objects' \
                    records, strings and list slots)";

/// What the level held may take past `Limits::max_decoded_bytes` (`max`): a sixteenth of
/// it, at most 16 MiB. An object is held in more bytes than the main block stores of it (a
/// record of 380 bytes with four lists for strings, its place in the import, against 284
/// bytes and the strings' lengths); this is what a level of some tens of thousands of
/// objects holds beyond the main block, so that a level whose main block fits is read.
fn held_slack(max: u64) -> u64 {
    (max / 16).min(16 << 20)
}

/// The bytes a string's heap buffer of `capacity` bytes takes, as a 64-bit glibc malloc
/// gives it: 8 bytes of header with the bytes, a multiple of 16, at least 32; none when
/// empty (nothing is allocated).
fn heap_bytes(capacity: usize) -> u64 {
    if capacity == 0 {
        return 0;
    }
    (capacity as u64)
        .saturating_add(8)
        .next_multiple_of(16)
        .max(32)
}

mod element;
mod json;
mod lenient;
mod objects;
mod place;
mod plane;
#[cfg(test)]
mod probes;
mod xml;

#[cfg(test)]
mod lookup_tests;
#[cfg(test)]
mod tests;

use wap_core::{LevelData, Limits, PlaneData};
use zerocopy::FromZeros;

use self::element::{Element, bad, from_hex};
use self::objects::Objects;
use self::plane::{PlaneCells, Tilesets, read_header, read_plane, tileset};
use crate::TiledError;

/// Reads the level a TMX map holds (see the module's documentation).
///
/// Returns [`TiledError::Import`] naming what cannot be read back, [`TiledError::TooLarge`]
/// past the module's bounds, and [`TiledError::Level`] when the tile property table's
/// bytes cannot be read.
pub fn level_from_tmx(text: &str, limits: &Limits) -> Result<LevelData, TiledError> {
    xml::level_from_tmx(text, limits)
}

/// Reads the level a TMJ map (Tiled's JSON) holds, as [`level_from_tmx`] reads a TMX map:
/// the JSON is read by serde_json and taken as the TMX elements it stands for (Tiled's
/// JSON keys are its XML attributes; a tile layer's `data` array its CSV).
///
/// Returns what [`level_from_tmx`] returns, and [`TiledError::Import`] for text that is not
/// a JSON map or a tile layer whose `data` is not an array of global ids (Tiled's base64
/// encodings are not read).
pub fn level_from_tmj(text: &str, limits: &Limits) -> Result<LevelData, TiledError> {
    json::level_from_tmj(text, limits)
}

/// A level made from a map's children as they come, in the document's order (a TMX
/// document's, or the TMX elements a TMJ one stands for).
///
/// The first error of a tileset or layer is kept, and nothing more is made after it but
/// the map's properties, so that the header's errors, which come before it, are still
/// found; [`Builder::finish`] returns the first in that order.
struct Builder<'a, 'l> {
    limits: &'l Limits,
    /// The map's width and height in tiles, or what is wrong with them.
    map: Result<(u32, u32), TiledError>,
    /// An element holding the map's `<properties>`.
    properties: Element<'a>,
    /// A layer was read: no more tilesets, and those read are sealed.
    layers: bool,
    sets: Tilesets<'a>,
    planes: Vec<PlaneData>,
    /// The bytes of the level's main block laid out so far: the tile property table's
    /// header, then each plane read (its header, tiles and image-set names) and each object
    /// (its record and strings). With the next plane's or object's, at most
    /// `Limits::max_decoded_bytes`, the main block the level reader decodes
    /// (`wap_core::LevelFile`): many planes or objects cannot multiply one plane's bound,
    /// and a level made is one the reader reads back.
    block: u64,
    /// The bytes of the level held so far: the planes' bytes in the main block (their tiles
    /// and names are held as they are stored) and the objects as held in memory (their
    /// records, strings and places, the lists' slots). At most `Limits::max_decoded_bytes`
    /// and [`held_slack`] of it, charged before a list grows and as each object is made.
    held: u64,
    objects: Objects<'a>,
    /// The object layer being read: its index in the objects' layers, its first object.
    layer: Option<(usize, usize)>,
    /// The first error of a tileset or layer.
    failed: Option<TiledError>,
}

impl<'a, 'l> Builder<'a, 'l> {
    /// The level of `<map>` `map` (its attributes; its children follow).
    fn new(map: &Element<'_>, limits: &'l Limits) -> Self {
        let number = |key: &str| -> Result<u32, TiledError> {
            let v = map.attribute(key).unwrap_or_default();
            v.parse()
                .map_err(|_| bad(format!("the map's {key}"), v, "a count"))
        };
        Builder {
            limits,
            map: number("width").and_then(|w| Ok((w, number("height")?))),
            properties: Element::new("map"),
            layers: false,
            sets: Tilesets::default(),
            planes: Vec::new(),
            block: wap_core::raw::TILE_PROPERTIES_HEADER_LEN as u64,
            held: wap_core::raw::TILE_PROPERTIES_HEADER_LEN as u64,
            objects: Objects::default(),
            layer: None,
            failed: None,
        }
    }

    /// Whether tilesets and layers are still read (no error yet).
    fn reading(&self) -> bool {
        self.map.is_ok() && self.failed.is_none()
    }

    /// Keeps `result`'s error, the first.
    fn keep(&mut self, result: Result<(), TiledError>) {
        if let Err(e) = result
            && self.failed.is_none()
        {
            self.failed = Some(e);
        }
    }

    /// A `<properties>` child of the map.
    fn properties(&mut self, e: Element<'a>) {
        self.properties.children.push(e);
    }

    /// A `<tileset>` child of the map.
    fn tileset(&mut self, e: Element<'a>) {
        if !self.reading() {
            return;
        }
        if self.layers {
            let name = e.attribute("name").unwrap_or_default();
            let e = bad(
                format!("tileset {name:?}"),
                "it after a layer",
                "the tilesets before the layers, as Tiled writes them",
            );
            return self.keep(Err(e));
        }
        let t = tileset(e).map(|t| self.sets.add(t));
        self.keep(t);
    }

    /// A layer comes: the tilesets, all read, are sealed (sorted by first global id) at the
    /// first.
    fn begin_layers(&mut self) {
        if !self.layers {
            self.layers = true;
            self.sets.seal();
        }
    }

    /// A `<layer>` child of the map, with its `<data>`.
    fn tile_layer(&mut self, e: &Element<'_>) {
        let Ok(map) = self.map else {
            return;
        };
        if !self.reading() {
            return;
        }
        self.begin_layers();
        let name = e.attribute("name").unwrap_or_default();
        let limits = self.left();
        let plane = read_plane(e, name, &self.sets, map, &limits);
        self.add_plane(plane);
    }

    /// The limits a plane is read within: the bytes of the main block the planes and
    /// objects before it left, and no more than what the level held leaves.
    fn left(&self) -> Limits {
        let max = self.limits.max_decoded_bytes;
        let left = max
            .saturating_sub(self.block)
            .min(self.held_limit().saturating_sub(self.held));
        self.limits.with_max_decoded_bytes(left)
    }

    /// The bytes the level may hold: `Limits::max_decoded_bytes` and [`held_slack`] of it.
    fn held_limit(&self) -> u64 {
        let max = self.limits.max_decoded_bytes;
        max.saturating_add(held_slack(max))
    }

    /// `bytes` more held, refused past [`Builder::held_limit`].
    fn hold(&mut self, bytes: u64) -> Result<(), TiledError> {
        self.held = self.held.saturating_add(bytes);
        if self.held > self.held_limit() {
            return Err(TiledError::TooLarge {
                what: HELD,
                found: self.held,
                limit: self.held_limit(),
            });
        }
        Ok(())
    }

    /// A tile layer whose cells are given one by one ([`PlaneCells::push`]), then
    /// [`Builder::add_plane`]; `None` once there is an error.
    fn plane_cells(&mut self, e: &Element<'_>) -> Option<PlaneCells<'_, 'a>> {
        let Ok(map) = self.map else {
            return None;
        };
        if !self.reading() {
            return None;
        }
        self.begin_layers();
        let name = e.attribute("name").unwrap_or_default();
        let limits = self.left();
        match PlaneCells::start(e, name, &self.sets, map, &limits) {
            Ok(cells) => Some(cells),
            Err(e) => {
                self.failed = Some(e);
                None
            }
        }
    }

    fn add_plane(&mut self, plane: Result<PlaneData, TiledError>) {
        let plane = plane.map(|p| {
            let bytes = plane::block_bytes(&p);
            self.block = self.block.saturating_add(bytes);
            self.held = self.held.saturating_add(bytes);
            self.planes.push(p);
        });
        self.keep(plane);
    }

    /// The start of an `<objectgroup>` named `name`; its objects follow.
    fn begin_objects(&mut self, name: &str) {
        if !self.reading() {
            return;
        }
        self.begin_layers();
        self.end_objects();
        self.layer = Some((self.objects.layers.len(), self.objects.data.len()));
        let name = name.to_owned();
        let held = (size_of::<String>() as u64).saturating_add(heap_bytes(name.capacity()));
        let held = self.hold(held);
        self.keep(held);
        self.objects.layers.push(name);
    }

    /// An `<object>` of the object layer begun.
    fn object(&mut self, o: &Element<'a>) {
        if !self.reading() {
            return;
        }
        let layer = self.layer.map_or(0, |(layer, _)| layer);
        let before = self.objects.data.len();
        // The lists' slots, charged before they grow.
        let grown = self.grow_objects();
        self.keep(grown);
        if !self.reading() {
            return;
        }
        let read = self.objects.read(o, layer, &self.sets);
        // Its bytes in the main block, counted as it is made: objects cannot pass what the
        // reader decodes before the level is made.
        let added = self
            .objects
            .data
            .get(before..)
            .unwrap_or_default()
            .iter()
            .map(|o| {
                [&o.name, &o.logic, &o.image_set, &o.animation]
                    .iter()
                    .map(|s| s.len() as u64)
                    .fold(wap_core::raw::OBJECT_FIXED_LEN as u64, u64::saturating_add)
            })
            .fold(0, u64::saturating_add);
        self.block = self.block.saturating_add(added);
        // What it holds besides its slots: its strings, its place's id when owned.
        let strings = self
            .objects
            .data
            .get(before..)
            .unwrap_or_default()
            .iter()
            .flat_map(|o| [&o.name, &o.logic, &o.image_set, &o.animation])
            .map(|s| heap_bytes(s.capacity()))
            .chain(
                self.objects
                    .places
                    .get(before..)
                    .unwrap_or_default()
                    .iter()
                    .map(|p| match &p.id {
                        std::borrow::Cow::Owned(id) => heap_bytes(id.capacity()),
                        std::borrow::Cow::Borrowed(_) => 0,
                    }),
            )
            .fold(0, u64::saturating_add);
        let limit = self.limits.max_decoded_bytes;
        let read = read.and_then(|()| {
            if self.block > limit {
                return Err(TiledError::TooLarge {
                    what: "bytes of the level's main block",
                    found: self.block,
                    limit,
                });
            }
            self.hold(strings)
        });
        self.keep(read);
    }

    /// Room in the objects' lists (records and places) for one more, charged before they
    /// grow: twice their slots, or what the limit on the level held leaves.
    fn grow_objects(&mut self) -> Result<(), TiledError> {
        let slot = (size_of::<wap_core::ObjectData>() as u64)
            .saturating_add(size_of::<objects::Place<'_>>() as u64);
        let room = self
            .held_limit()
            .saturating_sub(self.held)
            .checked_div(slot)
            .and_then(|r| usize::try_from(r).ok())
            .unwrap_or(usize::MAX);
        let Objects { data, places, .. } = &mut self.objects;
        if data.len() < data.capacity() && places.len() < places.capacity() {
            return Ok(());
        }
        let more = data.capacity().max(16).min(room);
        let before = (data.capacity(), places.capacity());
        if more == 0 {
            // One slot more than is left: refused.
            return self.hold(slot);
        }
        data.reserve_exact(more);
        places.reserve_exact(more);
        let grown = (data.capacity().saturating_sub(before.0) as u64)
            .saturating_mul(size_of::<wap_core::ObjectData>() as u64)
            .saturating_add(
                (places.capacity().saturating_sub(before.1) as u64).saturating_mul(size_of::<
                    objects::Place<'_>,
                >(
                )
                    as u64),
            );
        self.hold(grown)
    }

    /// The end of the object layer begun.
    fn end_objects(&mut self) {
        if let Some((_, first)) = self.layer.take()
            && self.reading()
        {
            self.objects.settle_added(first);
        }
    }

    /// The level, once every child of the map is read: the header from the map's
    /// properties, the objects in their planes, the tile property table.
    fn finish(mut self) -> Result<LevelData, TiledError> {
        self.end_objects();
        let limits = self.limits;
        let Builder {
            map,
            properties,
            mut planes,
            objects,
            failed,
            ..
        } = self;
        map?;
        let props = properties.properties("the map");
        let header = read_header(&props)?;
        if let Some(e) = failed {
            return Err(e);
        }
        objects.place(&mut planes)?;
        // The tile property table: its bytes behind a header of no planes, read as a level.
        let table = from_hex(props.get("wwd_tile_properties")?)
            .ok_or_else(|| bad("the map's wwd_tile_properties", "not hex", "hex digits"))?;
        let mut shell = wap_core::raw::WwdHeader::new_zeroed();
        shell.size.set(1524);
        shell.planes_offset.set(1524);
        shell.tile_properties_offset.set(1524);
        let mut image = zerocopy::IntoBytes::as_bytes(&shell).to_vec();
        image.extend_from_slice(&table);
        let tile_properties =
            LevelData::from_level(&wap_core::Level::parse(&image)?)?.tile_properties;
        let level = LevelData {
            header,
            planes,
            tile_properties,
        };
        // The whole main block (the objects and the tile property table too) within what
        // the level reader decodes: a level made is one the writer writes and the reader
        // reads back.
        let block = level.layout(false, &Limits::unlimited())?.main_block_len();
        if block > limits.max_decoded_bytes {
            return Err(TiledError::TooLarge {
                what: "bytes of the level's main block",
                found: block,
                limit: limits.max_decoded_bytes,
            });
        }
        Ok(level)
    }
}
