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
//! (refused: no entity is expanded), into at most `Limits::max_records` elements of at
//! most 16 levels; TMJ by serde_json (its nesting limited to 128), made into at most
//! `Limits::max_records` elements; a plane's tiles are refused past
//! `Limits::max_decoded_bytes / 4`; objects, added ones included, are elements, within the
//! same count.

use std::collections::HashMap;

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};
use wap_core::raw::{ObjectFixed, PlaneHeader, Rect, WwdHeader};
use wap_core::{LevelData, Limits, ObjectData, PlaneData};
use zerocopy::FromZeros;

use crate::TiledError;
use crate::map::{FLIP_HORIZONTAL, FLIP_VERTICAL};

/// The deepest element nesting read (a TMX map's is 5).
const MAX_DEPTH: usize = 16;

/// An element: its name, attributes, text and children.
#[derive(Default)]
struct Element {
    name: String,
    attributes: Vec<(String, String)>,
    text: String,
    children: Vec<Element>,
}

impl Element {
    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn children<'e>(&'e self, name: &'e str) -> impl Iterator<Item = &'e Element> + 'e {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Its custom properties, by name.
    fn properties(&self, what: String) -> Props<'_> {
        let mut map = HashMap::new();
        for list in self.children("properties") {
            for p in list.children("property") {
                if let Some(name) = p.attribute("name") {
                    let value = p.attribute("value").unwrap_or(p.text.as_str());
                    map.insert(name, value);
                }
            }
        }
        Props {
            what,
            map,
            optional: false,
        }
    }
}

fn bad(what: impl Into<String>, found: impl Into<String>, expected: &'static str) -> TiledError {
    TiledError::Import {
        what: what.into(),
        found: found.into(),
        expected,
    }
}

/// A start tag as an element, its attributes normalised as XML 1.0 says.
fn element(e: &BytesStart<'_>) -> Result<Element, TiledError> {
    let name = e.name().as_ref().to_owned();
    let mut attributes = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| {
            bad(
                format!("an attribute of <{name}>"),
                err.to_string(),
                "key=\"value\"",
            )
        })?;
        let key = a.key.as_ref().to_owned();
        let value = a
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| {
                bad(
                    format!("attribute {key} of <{name}>"),
                    err.to_string(),
                    "text",
                )
            })?
            .into_owned();
        attributes.push((key, value));
    }
    Ok(Element {
        name,
        attributes,
        ..Element::default()
    })
}

/// The document's elements (children of an unnamed root).
fn parse(text: &str, limits: &Limits) -> Result<Element, TiledError> {
    let mut reader = Reader::from_str(text);
    let mut stack = vec![Element::default()];
    let mut count = 0u64;
    loop {
        let event = reader.read_event().map_err(|e| {
            bad(
                format!("the XML at byte {}", reader.error_position()),
                e.to_string(),
                "well-formed XML",
            )
        })?;
        let opened = match &event {
            Event::Start(e) | Event::Empty(e) => Some(element(e)?),
            _ => None,
        };
        if let Some(el) = &opened {
            count = count.saturating_add(1);
            if count > limits.max_records {
                return Err(TiledError::TooLarge {
                    what: "XML elements",
                    found: count,
                    limit: limits.max_records,
                });
            }
            if stack.len() > MAX_DEPTH {
                return Err(bad(
                    format!("<{}>", el.name),
                    "nested deeper",
                    "at most 16 levels",
                ));
            }
        }
        match (event, opened) {
            (Event::Start(_), Some(el)) => stack.push(el),
            (Event::Empty(_), Some(el)) => {
                if let Some(parent) = stack.last_mut() {
                    parent.children.push(el);
                }
            }
            (Event::End(_), _) => {
                let done = stack.pop().unwrap_or_default();
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => return Err(bad("the XML", "an end tag too many", "balanced tags")),
                }
            }
            (Event::Text(t), _) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&t.xml_content(XmlVersion::Implicit1_0));
                }
            }
            (Event::DocType(_), _) => {
                return Err(bad("the XML", "a document type", "none (no entities)"));
            }
            (Event::Eof, _) => break,
            _ => {}
        }
    }
    match (stack.pop(), stack.is_empty()) {
        (Some(root), true) => Ok(root),
        _ => Err(bad("the XML", "unclosed elements", "balanced tags")),
    }
}

/// Properties by name, for errors named by `what`.
struct Props<'e> {
    what: String,
    map: HashMap<&'e str, &'e str>,
    /// A missing property reads as its default (0, no text, a rectangle of zeros): the
    /// properties of an object added in Tiled.
    optional: bool,
}

impl Props<'_> {
    fn get(&self, name: &str) -> Result<&str, TiledError> {
        self.map.get(name).copied().ok_or_else(|| {
            bad(
                format!("{}: property {name}", self.what),
                "none",
                "the property",
            )
        })
    }

    /// `name`'s value, or `default` when it is missing from optional properties.
    fn get_or<'s>(&'s self, name: &str, default: &'static str) -> Result<&'s str, TiledError> {
        match self.map.get(name) {
            Some(v) => Ok(v),
            None if self.optional => Ok(default),
            None => self.get(name),
        }
    }

    fn int(&self, name: &str) -> Result<i32, TiledError> {
        let v = self.get_or(name, "0")?;
        v.trim()
            .parse()
            .map_err(|_| bad(format!("{}: property {name}", self.what), v, "a 32-bit int"))
    }

    /// A 32-bit word written as Tiled's signed int.
    fn word(&self, name: &str) -> Result<u32, TiledError> {
        Ok(u32::from_le_bytes(self.int(name)?.to_le_bytes()))
    }

    /// A text field: `name` encoded as Windows-1252, or `name_hex`'s bytes.
    fn text(&self, name: &str) -> Result<Vec<u8>, TiledError> {
        if let Some(hex) = self.map.get(format!("{name}_hex").as_str()) {
            return from_hex(hex).ok_or_else(|| {
                bad(
                    format!("{}: property {name}_hex", self.what),
                    *hex,
                    "hex digits",
                )
            });
        }
        let s = self.get_or(name, "")?;
        cp1252(format!("{}: property {name}", self.what), s)
    }

    /// Whether the text field `name` (or `name_hex`) is there.
    fn has_text(&self, name: &str) -> bool {
        self.map.contains_key(name) || self.map.contains_key(format!("{name}_hex").as_str())
    }

    /// A fixed text field of `N` bytes (the text and a NUL at least).
    fn field<const N: usize>(&self, name: &str) -> Result<[u8; N], TiledError> {
        let bytes = self.text(name)?;
        let mut out = [0u8; N];
        if bytes.len() >= N {
            return Err(bad(
                format!("{}: property {name}", self.what),
                format!("{} bytes", bytes.len()),
                "fewer bytes than the field",
            ));
        }
        for (o, b) in out.iter_mut().zip(&bytes) {
            *o = *b;
        }
        Ok(out)
    }

    /// A rectangle written `left,top,right,bottom`.
    fn rect(&self, name: &str) -> Result<Rect, TiledError> {
        let v = self.get_or(name, "0,0,0,0")?;
        let n = ints(v).filter(|n| n.len() == 4);
        match n.as_deref() {
            Some(&[l, t, r, b]) => Ok(Rect::new(l, t, r, b)),
            _ => Err(bad(
                format!("{}: property {name}", self.what),
                v,
                "left,top,right,bottom",
            )),
        }
    }
}

/// `s` encoded as Windows-1252, for the field `what`.
fn cp1252(what: String, s: &str) -> Result<Vec<u8>, TiledError> {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(s);
    if unmappable {
        return Err(bad(what, s, "Windows-1252 characters"));
    }
    Ok(bytes.into_owned())
}

/// Comma-separated 32-bit ints (white space ignored).
fn ints(text: &str) -> Option<Vec<i32>> {
    text.split(',')
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect()
}

/// Comma-separated unsigned 32-bit values (white space ignored).
fn cells(text: &str) -> Option<Vec<u32>> {
    text.split(',')
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect()
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks_exact(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect()
}

/// A tileset as the import reads it.
struct Tiles<'e> {
    name: String,
    first: u32,
    /// The tile set it holds (`None`: the fill tileset; `Some("")`: objects' images).
    set: Option<String>,
    /// Each local id's raw tile id (`wwd_tile`).
    ids: HashMap<u32, u16>,
    count: u32,
    /// Tile objects of it are placed by their top-left corner (`objectalignment`).
    top_left: bool,
    /// Each tile's element (its image and properties), by local id.
    tiles: HashMap<u32, &'e Element>,
}

fn tilesets(map: &Element) -> Result<Vec<Tiles<'_>>, TiledError> {
    let mut out = Vec::new();
    for t in map.children("tileset") {
        let name = t.attribute("name").unwrap_or_default().to_owned();
        let what = format!("tileset {name:?}");
        let number = |key: &str| -> Result<u32, TiledError> {
            let v = t.attribute(key).unwrap_or_default();
            v.parse()
                .map_err(|_| bad(format!("{what}: {key}"), v, "a count"))
        };
        let props = t.properties(what.clone());
        let set = if name == "fill" && !props.map.contains_key("wwd_image_set") {
            None
        } else {
            Some(
                props
                    .map
                    .get("wwd_image_set")
                    .copied()
                    .unwrap_or_default()
                    .to_owned(),
            )
        };
        let mut ids = HashMap::new();
        let mut tiles = HashMap::new();
        for tile in t.children("tile") {
            let id: u32 = tile
                .attribute("id")
                .unwrap_or_default()
                .parse()
                .map_err(|_| {
                    bad(
                        format!("{what}: a tile"),
                        tile.attribute("id").unwrap_or_default(),
                        "an id",
                    )
                })?;
            let p = tile.properties(format!("{what}, tile {id}"));
            if let Some(v) = p.map.get("wwd_tile") {
                let v: u16 = v
                    .parse()
                    .map_err(|_| bad(format!("{what}, tile {id}: wwd_tile"), *v, "0 to 65535"))?;
                ids.insert(id, v);
            }
            tiles.insert(id, tile);
        }
        out.push(Tiles {
            first: number("firstgid")?,
            set,
            ids,
            count: number("tilecount")?,
            top_left: t.attribute("objectalignment") == Some("topleft"),
            tiles,
            name,
        });
    }
    Ok(out)
}

/// Reads the level a TMX map holds (see the module's documentation).
///
/// Returns [`TiledError::Import`] naming what cannot be read back, [`TiledError::TooLarge`]
/// past the module's bounds, and [`TiledError::Level`] when the tile property table's
/// bytes cannot be read.
pub fn level_from_tmx(text: &str, limits: &Limits) -> Result<LevelData, TiledError> {
    level_from_document(&parse(text, limits)?, limits)
}

/// Reads the level a TMJ map (Tiled's JSON) holds, as [`level_from_tmx`] reads a TMX map:
/// the JSON is read by serde_json and taken as the TMX elements it stands for (Tiled's
/// JSON keys are its XML attributes; a tile layer's `data` array its CSV).
///
/// Returns what [`level_from_tmx`] returns, and [`TiledError::Import`] for text that is not
/// a JSON map or a tile layer whose `data` is not an array of global ids (Tiled's base64
/// encodings are not read).
pub fn level_from_tmj(text: &str, limits: &Limits) -> Result<LevelData, TiledError> {
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| bad("the JSON", e.to_string(), "a TMJ map"))?;
    let mut count = 0u64;
    let map = tmj::map(
        &json,
        &mut Counter {
            count: &mut count,
            limit: limits.max_records,
        },
    )?;
    let root = Element {
        children: vec![map],
        ..Element::default()
    };
    level_from_document(&root, limits)
}

/// Counts the elements made of a JSON document against `Limits::max_records`.
struct Counter<'c> {
    count: &'c mut u64,
    limit: u64,
}

impl Counter<'_> {
    /// An element named `name`, counted.
    fn element(&mut self, name: &str) -> Result<Element, TiledError> {
        *self.count = self.count.saturating_add(1);
        if *self.count > self.limit {
            return Err(TiledError::TooLarge {
                what: "JSON objects",
                found: *self.count,
                limit: self.limit,
            });
        }
        Ok(Element {
            name: name.to_owned(),
            ..Element::default()
        })
    }
}

/// A TMJ document as the TMX elements it stands for.
mod tmj {
    use serde_json::Value as Json;

    use super::{Counter, Element, bad};
    use crate::TiledError;

    /// A JSON scalar as attribute text: strings as they are, numbers and booleans as
    /// written (booleans as TMX's `1`, `0` for `visible`).
    fn text(v: &Json) -> Option<String> {
        match v {
            Json::String(s) => Some(s.clone()),
            Json::Number(n) => Some(n.to_string()),
            Json::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// Copies `keys` of `object` (those present and scalar) as attributes of `e`.
    fn attributes(e: &mut Element, object: &Json, keys: &[&str]) {
        for key in keys {
            if let Some(v) = object.get(*key).and_then(text) {
                e.attributes.push(((*key).to_owned(), v));
            }
        }
    }

    /// `"properties"` of `object` as a `<properties>` child of `e`.
    fn properties(e: &mut Element, object: &Json, c: &mut Counter<'_>) -> Result<(), TiledError> {
        let Some(list) = object.get("properties").and_then(Json::as_array) else {
            return Ok(());
        };
        let mut props = c.element("properties")?;
        for p in list {
            let mut property = c.element("property")?;
            attributes(&mut property, p, &["name", "type", "value"]);
            props.children.push(property);
        }
        e.children.push(props);
        Ok(())
    }

    fn list<'j>(object: &'j Json, key: &str) -> &'j [Json] {
        object
            .get(key)
            .and_then(Json::as_array)
            .map_or(&[], Vec::as_slice)
    }

    pub(super) fn map(json: &Json, c: &mut Counter<'_>) -> Result<Element, TiledError> {
        if json.get("type").and_then(Json::as_str) != Some("map") {
            return Err(bad("the JSON", "no \"type\": \"map\"", "a TMJ map"));
        }
        let mut map = c.element("map")?;
        attributes(
            &mut map,
            json,
            &["width", "height", "tilewidth", "tileheight"],
        );
        properties(&mut map, json, c)?;
        for t in list(json, "tilesets") {
            let mut tileset = c.element("tileset")?;
            attributes(
                &mut tileset,
                t,
                &["firstgid", "name", "tilecount", "objectalignment", "source"],
            );
            properties(&mut tileset, t, c)?;
            for tile in list(t, "tiles") {
                let mut e = c.element("tile")?;
                attributes(&mut e, tile, &["id"]);
                properties(&mut e, tile, c)?;
                if let Some(source) = tile.get("image").and_then(text) {
                    let mut image = c.element("image")?;
                    image.attributes.push(("source".to_owned(), source));
                    for (json_key, key) in [("imagewidth", "width"), ("imageheight", "height")] {
                        if let Some(v) = tile.get(json_key).and_then(text) {
                            image.attributes.push((key.to_owned(), v));
                        }
                    }
                    e.children.push(image);
                }
                tileset.children.push(e);
            }
            map.children.push(tileset);
        }
        for l in list(json, "layers") {
            map.children.push(layer(l, c)?);
        }
        Ok(map)
    }

    fn layer(l: &Json, c: &mut Counter<'_>) -> Result<Element, TiledError> {
        let name = l.get("name").and_then(text).unwrap_or_default();
        let kind = l.get("type").and_then(Json::as_str).unwrap_or_default();
        let mut e = match kind {
            "tilelayer" => c.element("layer")?,
            "objectgroup" => c.element("objectgroup")?,
            other => c.element(other)?,
        };
        attributes(&mut e, l, &["name"]);
        properties(&mut e, l, c)?;
        if kind == "tilelayer" {
            let mut data = c.element("data")?;
            let cells = l.get("data").and_then(Json::as_array).ok_or_else(|| {
                bad(
                    format!("layer {name:?}: data"),
                    "not an array",
                    "an array of global tile ids (no encoding)",
                )
            })?;
            let mut csv = String::with_capacity(cells.len().saturating_mul(4));
            for (n, cell) in cells.iter().enumerate() {
                let gid = cell.as_u64().filter(|g| *g <= u64::from(u32::MAX));
                let gid = gid.ok_or_else(|| {
                    bad(
                        format!("layer {name:?}: data[{n}]"),
                        cell.to_string(),
                        "a global tile id",
                    )
                })?;
                if n > 0 {
                    csv.push(',');
                }
                csv.push_str(&gid.to_string());
            }
            data.attributes
                .push(("encoding".to_owned(), "csv".to_owned()));
            data.text = csv;
            e.children.push(data);
        }
        for o in list(l, "objects") {
            let mut object = c.element("object")?;
            attributes(
                &mut object,
                o,
                &[
                    "id", "name", "type", "class", "gid", "x", "y", "width", "height", "rotation",
                ],
            );
            properties(&mut object, o, c)?;
            if o.get("point").and_then(Json::as_bool) == Some(true) {
                object.children.push(c.element("point")?);
            }
            e.children.push(object);
        }
        Ok(e)
    }
}

/// The level of a document's `<map>` (TMX's elements, or those a TMJ stands for).
fn level_from_document(root: &Element, limits: &Limits) -> Result<LevelData, TiledError> {
    let map = root
        .children("map")
        .next()
        .ok_or_else(|| bad("the document", "no <map>", "a TMX map"))?;
    let number = |key: &str| -> Result<u32, TiledError> {
        let v = map.attribute(key).unwrap_or_default();
        v.parse()
            .map_err(|_| bad(format!("the map's {key}"), v, "a count"))
    };
    let (map_w, map_h) = (number("width")?, number("height")?);
    let props = map.properties("the map".to_owned());
    let header = read_header(&props)?;
    let sets = tilesets(map)?;
    let mut planes = Vec::new();
    let mut objects: Vec<ReadObject> = Vec::new();
    for layer in &map.children {
        let name = layer.attribute("name").unwrap_or_default().to_owned();
        match layer.name.as_str() {
            "layer" => planes.push(read_plane(layer, &name, &sets, (map_w, map_h), limits)?),
            "objectgroup" => {
                let first = objects.len();
                for o in layer.children("object") {
                    objects.push(read_map_object(o, &name, &sets)?);
                }
                settle_added(objects.get_mut(first..).unwrap_or_default());
            }
            _ => {}
        }
    }
    place_objects(&mut planes, objects)?;
    // The tile property table: its bytes behind a header of no planes, read as a level.
    let table = from_hex(props.get("wwd_tile_properties")?)
        .ok_or_else(|| bad("the map's wwd_tile_properties", "not hex", "hex digits"))?;
    let mut shell = WwdHeader::new_zeroed();
    shell.size.set(1524);
    shell.planes_offset.set(1524);
    shell.tile_properties_offset.set(1524);
    let mut image = zerocopy::IntoBytes::as_bytes(&shell).to_vec();
    image.extend_from_slice(&table);
    let tile_properties = LevelData::from_level(&wap_core::Level::parse(&image)?)?.tile_properties;
    Ok(LevelData {
        header,
        planes,
        tile_properties,
    })
}

fn read_header(p: &Props<'_>) -> Result<WwdHeader, TiledError> {
    let mut h = WwdHeader::new_zeroed();
    h.size.set(p.word("wwd_size")?);
    h.reserved1.set(p.word("wwd_reserved1")?);
    h.flags.set(p.word("wwd_flags")?);
    h.reserved2.set(p.word("wwd_reserved2")?);
    h.name = p.field("wwd_name")?;
    h.author = p.field("wwd_author")?;
    h.birth = p.field("wwd_birth")?;
    h.rez_file = p.field("wwd_rez_file")?;
    h.image_dir = p.field("wwd_image_dir")?;
    h.pal_rez = p.field("wwd_pal_rez")?;
    h.start_x.set(p.int("wwd_start_x")?);
    h.start_y.set(p.int("wwd_start_y")?);
    h.reserved3.set(p.word("wwd_reserved3")?);
    h.checksum.set(p.word("wwd_checksum")?);
    h.reserved4.set(p.word("wwd_reserved4")?);
    h.launch_app = p.field("wwd_launch_app")?;
    for (n, (set, prefix)) in h
        .image_sets
        .iter_mut()
        .zip(h.prefixes.iter_mut())
        .enumerate()
    {
        let n = n.saturating_add(1);
        *set = p.field(&format!("wwd_image_set{n}"))?;
        *prefix = p.field(&format!("wwd_prefix{n}"))?;
    }
    Ok(h)
}

fn read_plane(
    layer: &Element,
    name: &str,
    sets: &[Tiles],
    (map_w, map_h): (u32, u32),
    limits: &Limits,
) -> Result<PlaneData, TiledError> {
    let what = format!("layer {name:?}");
    let p = layer.properties(what.clone());
    let mut h = PlaneHeader::new_zeroed();
    h.size.set(p.word("wwd_size")?);
    h.reserved1.set(p.word("wwd_reserved1")?);
    h.flags.set(p.word("wwd_flags")?);
    h.reserved2.set(p.word("wwd_reserved2")?);
    h.name = p.field("wwd_name")?;
    h.width_px.set(p.int("wwd_width_px")?);
    h.height_px.set(p.int("wwd_height_px")?);
    h.tile_width.set(p.int("wwd_tile_width")?);
    h.tile_height.set(p.int("wwd_tile_height")?);
    h.tiles_wide.set(p.int("wwd_tiles_wide")?);
    h.tiles_high.set(p.int("wwd_tiles_high")?);
    h.reserved3.set(p.word("wwd_reserved3")?);
    h.reserved4.set(p.word("wwd_reserved4")?);
    h.movement_x_percent.set(p.int("wwd_movement_x_percent")?);
    h.movement_y_percent.set(p.int("wwd_movement_y_percent")?);
    h.fill_color.set(p.int("wwd_fill_color")?);
    h.z.set(p.int("wwd_z")?);
    h.reserved5.set(p.word("wwd_reserved5")?);
    h.reserved6.set(p.word("wwd_reserved6")?);
    h.reserved7.set(p.word("wwd_reserved7")?);
    let set_count = p.word("wwd_image_set_count")?;
    let mut image_sets = Vec::new();
    for n in 1..=set_count {
        image_sets.push(p.text(&format!("wwd_image_set{n}"))?);
    }
    let (w, hh) = (
        u32::try_from(h.tiles_wide.get()).unwrap_or(0),
        u32::try_from(h.tiles_high.get()).unwrap_or(0),
    );
    let cells_n = u64::from(w).saturating_mul(u64::from(hh));
    let cap = limits.max_decoded_bytes / 4;
    if cells_n > cap {
        return Err(TiledError::TooLarge {
            what: "tiles of a plane",
            found: cells_n,
            limit: cap,
        });
    }
    let n = usize::try_from(cells_n).unwrap_or(usize::MAX);
    let mut tiles = match p.map.get("wwd_tiles") {
        Some(text) => cells(text).filter(|c| c.len() == n).ok_or_else(|| {
            bad(
                format!("{what}: wwd_tiles"),
                format!("not {n} values"),
                "the plane's tiles",
            )
        })?,
        None => vec![wap_core::raw::TILE_INVISIBLE; n],
    };
    let data = layer
        .children("data")
        .next()
        .ok_or_else(|| bad(what.clone(), "no <data>", "CSV cells"))?;
    if data.attribute("encoding") != Some("csv") {
        return Err(bad(
            format!("{what}: <data>"),
            data.attribute("encoding").unwrap_or("no encoding"),
            "encoding=\"csv\"",
        ));
    }
    let map_cells =
        usize::try_from(u64::from(map_w).saturating_mul(u64::from(map_h))).unwrap_or(usize::MAX);
    let gids = cells(&data.text)
        .filter(|c| c.len() == map_cells)
        .ok_or_else(|| {
            bad(
                format!("{what}: <data>"),
                "another count of cells",
                "the map's width times its height",
            )
        })?;
    let set_names: Vec<String> = image_sets
        .iter()
        .map(|s| wap_core::decode(s, wap_core::CodePage::Cp1252).into_owned())
        .collect();
    for y in 0..hh.min(map_h) {
        for x in 0..w.min(map_w) {
            let at = |row: u32, width: u32| {
                usize::try_from(
                    u64::from(row)
                        .saturating_mul(u64::from(width))
                        .saturating_add(u64::from(x)),
                )
                .unwrap_or(usize::MAX)
            };
            let Some(&gid) = gids.get(at(y, map_w)) else {
                continue;
            };
            let raw = tile_of(gid, sets, &set_names).map_err(|found| {
                bad(
                    format!("{what}, cell ({x}, {y})"),
                    found,
                    "a tile of a tile set of the plane, a fill tile or none",
                )
            })?;
            if let Some(t) = tiles.get_mut(at(y, w)) {
                *t = raw;
            }
        }
    }
    Ok(PlaneData {
        header: h,
        tiles,
        image_sets,
        objects: Vec::new(),
    })
}

/// The raw tile value of global id `gid`, or what is wrong with it.
fn tile_of(gid: u32, sets: &[Tiles], set_names: &[String]) -> Result<u32, String> {
    if gid == 0 {
        return Ok(wap_core::raw::TILE_INVISIBLE);
    }
    if gid & 0xE000_0000 != 0 {
        return Err(format!("gid {gid:#x}, flipped"));
    }
    let t = sets
        .iter()
        .filter(|t| t.first <= gid)
        .max_by_key(|t| t.first)
        .ok_or_else(|| format!("gid {gid} before every tileset"))?;
    let local = gid.saturating_sub(t.first);
    if local >= t.count {
        return Err(format!("gid {gid} past its tileset"));
    }
    match &t.set {
        None => Ok(wap_core::raw::TILE_FILLED),
        Some(name) => {
            let id = *t
                .ids
                .get(&local)
                .ok_or_else(|| format!("gid {gid}: a tile without wwd_tile"))?;
            let set = set_names
                .iter()
                .position(|s| s == name)
                .or_else(|| name.strip_prefix("set ").and_then(|n| n.parse().ok()))
                .ok_or_else(|| format!("gid {gid}: tile set {name:?}, not the plane's"))?;
            let set = u16::try_from(set).map_err(|_| format!("tile set index {set}"))?;
            Ok(u32::from(set) << 16 | u32::from(id))
        }
    }
}

/// Tiled's flag on a global tile id: flipped along the diagonal (bit 29), which WWD
/// objects cannot be.
const FLIP_DIAGONAL: u32 = 0x2000_0000;

/// An object read from an object layer, its plane and place not yet settled.
struct ReadObject {
    /// What to name it in errors.
    what: String,
    /// Its plane: `wwd_plane`; for an object added in Tiled the plane of the nearest
    /// exported object of its layer, `None` when there is none (then the main plane).
    plane: Option<u32>,
    /// Its place in its plane's list (`wwd_order`); `None` for an object added in Tiled,
    /// which goes after the plane's others.
    order: Option<u32>,
    /// Its z was given (`wwd_z`).
    z_given: bool,
    /// Its id was given (`wwd_id`).
    id_given: bool,
    object: ObjectData,
}

/// What a tile object's tile says of where its object is: the image's size, its offset
/// (`None`: a tile without `wwd_offset_x`, `wwd_offset_y`), the flips of the gid, the
/// tile's properties.
struct Anchor<'e> {
    size: (u32, u32),
    offset: Option<(i32, i32)>,
    mirror: bool,
    invert: bool,
    props: Props<'e>,
}

/// The tile global id `gid` of object `what` names, which must be an image of a tileset
/// whose tile objects are placed by their top-left corner (the export's `objects`).
fn anchor<'e>(gid: u32, sets: &'e [Tiles<'e>], what: &str) -> Result<Anchor<'e>, TiledError> {
    if gid & FLIP_DIAGONAL != 0 {
        return Err(bad(
            format!("{what}: gid"),
            format!("{gid:#x}, flipped diagonally"),
            "a tile flipped at most left to right and upside down (draw flags 0x2, 0x4)",
        ));
    }
    let bare = gid & !(FLIP_HORIZONTAL | FLIP_VERTICAL | FLIP_DIAGONAL);
    let expected = "an image of the tileset objects (a collection placed by the top-left corner)";
    let t = sets
        .iter()
        .filter(|t| bare > 0 && t.first <= bare)
        .max_by_key(|t| t.first)
        .ok_or_else(|| bad(format!("{what}: gid"), format!("{bare}"), expected))?;
    let local = bare.saturating_sub(t.first);
    let tile = t
        .tiles
        .get(&local)
        .filter(|_| t.top_left && local < t.count)
        .ok_or_else(|| {
            bad(
                format!("{what}: gid"),
                format!("{bare}, tile {local} of tileset {:?}", t.name),
                expected,
            )
        })?;
    let image = tile.children("image").next();
    let dim = |key: &str| {
        image
            .and_then(|i| i.attribute(key))
            .and_then(|v| v.trim().parse::<u32>().ok())
            .ok_or_else(|| {
                bad(
                    format!("{what}: the image of tile {local} of tileset {:?}", t.name),
                    format!("no {key}"),
                    "an image with its width and height",
                )
            })
    };
    let props = tile.properties(format!("tile {local} of tileset {:?}", t.name));
    let offset = if props.map.contains_key("wwd_offset_x") || props.map.contains_key("wwd_offset_y")
    {
        Some((props.int("wwd_offset_x")?, props.int("wwd_offset_y")?))
    } else {
        None
    };
    Ok(Anchor {
        size: (dim("width")?, dim("height")?),
        offset,
        mirror: gid & FLIP_HORIZONTAL != 0,
        invert: gid & FLIP_VERTICAL != 0,
        props,
    })
}

/// Object attribute `key` (a pixel coordinate, maybe fractional) rounded to a whole pixel.
fn coordinate(o: &Element, key: &str, what: &str) -> Result<i64, TiledError> {
    let text = o.attribute(key).unwrap_or("0");
    let v: f64 = text.trim().parse().unwrap_or(f64::NAN);
    // Past 2^31 no position fits a level's 32-bit field; the bound also makes the cast exact.
    if !v.is_finite() || v.abs() > 4_294_967_296.0 {
        return Err(bad(format!("{what}: {key}"), text, "a pixel coordinate"));
    }
    #[allow(clippy::cast_possible_truncation)]
    Ok(v.round() as i64)
}

/// Where the export places the top-left corner of an image `size` wide with offset
/// `offset` (negated when `flip`) along an axis, for an object at `position`.
fn placed(position: i32, size: u32, offset: i32, flip: bool) -> i64 {
    let half = i64::from(size).checked_div(2).unwrap_or(0);
    let offset = if flip {
        i64::from(offset).saturating_neg()
    } else {
        i64::from(offset)
    };
    i64::from(position)
        .saturating_sub(half)
        .saturating_add(offset)
}

/// One object of an object layer: from its properties, its position moved by as much as
/// Tiled moved it; an object added in Tiled (no `wwd_plane`) from its properties where
/// it has them, else from its name, class and tile, the rest 0.
fn read_map_object<'e>(
    o: &'e Element,
    layer: &str,
    sets: &'e [Tiles<'e>],
) -> Result<ReadObject, TiledError> {
    let id = o.attribute("id").unwrap_or_default();
    let what = format!("object {id} of layer {layer:?}");
    let mut p = o.properties(what.clone());
    let added = !p.map.contains_key("wwd_plane");
    p.optional = added;
    if let Some(r) = o.attribute("rotation")
        && r.trim().parse::<f64>() != Ok(0.0)
    {
        return Err(bad(
            format!("{what}: rotation"),
            r,
            "none (the engine does not rotate objects)",
        ));
    }
    let at = (coordinate(o, "x", &what)?, coordinate(o, "y", &what)?);
    let anchor = match o.attribute("gid") {
        Some(g) => {
            let gid = g
                .trim()
                .parse::<u32>()
                .map_err(|_| bad(format!("{what}: gid"), g, "a global tile id"))?;
            Some(anchor(gid, sets, &what)?)
        }
        None => None,
    };
    if anchor.is_none() && o.children("point").next().is_none() {
        return Err(bad(
            what,
            "a shape",
            "a point or a tile object of the tileset objects",
        ));
    }
    let own_logic = p.has_text("wwd_logic");
    let own_name = p.has_text("wwd_name");
    // As in Tiled, a tile object has its tile's properties unless it has its own (Tiled
    // may leave out of the file what equals the tile's).
    if let Some(a) = &anchor {
        for (&key, &value) in &a.props.map {
            let base = key.strip_suffix("_hex").unwrap_or(key);
            if !p.map.contains_key(base) && !p.map.contains_key(format!("{base}_hex").as_str()) {
                p.map.insert(key, value);
            }
        }
    }
    let mut object = read_object(&p)?;
    if added {
        let class = o.attribute("type").or_else(|| o.attribute("class"));
        if !own_logic {
            object.logic = match class.filter(|c| !c.is_empty()) {
                Some(c) => cp1252(format!("{what}: class"), c)?,
                None if p.has_text("wwd_logic") => p.text("wwd_logic")?,
                None => {
                    return Err(bad(
                        what,
                        "no logic",
                        "a class (type) or a property wwd_logic naming its logic",
                    ));
                }
            };
        }
        if !own_name {
            object.name = cp1252(format!("{what}: name"), o.attribute("name").unwrap_or(""))?;
        }
    }
    let fixed = &mut object.fixed;
    let (x, y) = (fixed.x.get(), fixed.y.get());
    let position = match &anchor {
        None => Some(at),
        Some(a) => {
            let mut flags = fixed.draw_flags.get() & !0x6;
            if a.mirror {
                flags |= 0x2;
            }
            if a.invert {
                flags |= 0x4;
            }
            fixed.draw_flags.set(flags);
            match a.offset {
                Some((dx, dy)) => Some((
                    i64::from(x)
                        .saturating_add(at.0.saturating_sub(placed(x, a.size.0, dx, a.mirror))),
                    i64::from(y)
                        .saturating_add(at.1.saturating_sub(placed(y, a.size.1, dy, a.invert))),
                )),
                None if added => {
                    return Err(bad(
                        format!("{what}: its tile"),
                        "no wwd_offset_x, wwd_offset_y",
                        "a tile of an export that says its image's offset",
                    ));
                }
                None => None,
            }
        }
    };
    if let Some((nx, ny)) = position {
        let fit = |v: i64, key: &str| {
            i32::try_from(v)
                .map_err(|_| bad(format!("{what}: {key}"), v.to_string(), "a 32-bit position"))
        };
        fixed.x.set(fit(nx, "x")?);
        fixed.y.set(fit(ny, "y")?);
    }
    let plane = if added {
        None
    } else {
        Some(
            u32::try_from(p.int("wwd_plane")?)
                .map_err(|_| bad(format!("{what}: wwd_plane"), "a negative", "a plane index"))?,
        )
    };
    let order = if added {
        None
    } else {
        Some(
            u32::try_from(p.int("wwd_order")?)
                .map_err(|_| bad(format!("{what}: wwd_order"), "a negative", "a place"))?,
        )
    };
    Ok(ReadObject {
        what,
        plane,
        order,
        z_given: p.map.contains_key("wwd_z"),
        id_given: p.map.contains_key("wwd_id"),
        object,
    })
}

/// Gives each object added in Tiled among `list` (one layer's objects) the plane and z of
/// the nearest exported object of the layer: the previous one, else the next. Two passes,
/// so that many added objects cost no more than one look each.
fn settle_added(list: &mut [ReadObject]) {
    fn settle(o: &mut ReadObject, near: Option<(Option<u32>, i32)>) {
        if let Some((plane, z)) = near {
            o.plane = plane;
            if !o.z_given {
                o.object.fixed.z.set(z);
            }
        }
    }
    // The previous exported object, for those that have one.
    let mut previous = None;
    let mut settled = vec![false; list.len()];
    for (o, done) in list.iter_mut().zip(settled.iter_mut()) {
        if o.order.is_some() {
            previous = Some((o.plane, o.object.fixed.z.get()));
        } else if previous.is_some() {
            settle(o, previous);
            *done = true;
        }
    }
    // The next one, for those before the layer's first exported object.
    let mut next = None;
    for (o, done) in list.iter_mut().zip(settled.iter()).rev() {
        if o.order.is_some() {
            next = Some((o.plane, o.object.fixed.z.get()));
        } else if !done {
            settle(o, next);
        }
    }
}

/// Puts the objects in their planes: each plane's exported objects by `wwd_order`, then
/// those added in Tiled in the map's order, each given an id above the level's largest
/// unless it has one; an added object with no plane found goes to the main plane.
fn place_objects(planes: &mut [PlaneData], objects: Vec<ReadObject>) -> Result<(), TiledError> {
    let main = planes
        .iter()
        .position(|p| p.header.flags.get() & 0x1 != 0)
        .and_then(|m| u32::try_from(m).ok());
    let mut next_id = objects
        .iter()
        .map(|o| o.object.fixed.id.get())
        .max()
        .unwrap_or(0);
    let mut list = Vec::with_capacity(objects.len());
    for mut o in objects {
        if !o.id_given {
            next_id = next_id.checked_add(1).ok_or_else(|| {
                bad(
                    o.what.clone(),
                    "no id left above the level's largest",
                    "an id below 2^31",
                )
            })?;
            o.object.fixed.id.set(next_id);
        }
        let plane = o.plane.or(main).ok_or_else(|| {
            bad(
                o.what.clone(),
                "no plane flagged main (0x1) to add it to",
                "a main plane",
            )
        })?;
        list.push((plane, o.order, o.object));
    }
    // Stable: objects added in Tiled stay in the map's order.
    list.sort_by_key(|(plane, order, _)| (*plane, order.is_none(), order.unwrap_or(0)));
    for (plane, _, object) in list {
        let count = planes.len();
        let target = usize::try_from(plane).ok().and_then(|p| planes.get_mut(p));
        match target {
            Some(p) => p.objects.push(object),
            None => {
                return Err(bad(
                    format!("an object's wwd_plane {plane}"),
                    format!("{count} planes"),
                    "one of the map's tile layers",
                ));
            }
        }
    }
    Ok(())
}

fn read_object(p: &Props<'_>) -> Result<ObjectData, TiledError> {
    let mut o = ObjectFixed::new_zeroed();
    o.id.set(p.int("wwd_id")?);
    o.x.set(p.int("wwd_x")?);
    o.y.set(p.int("wwd_y")?);
    o.z.set(p.int("wwd_z")?);
    o.i.set(p.int("wwd_i")?);
    o.add_flags.set(p.word("wwd_add_flags")?);
    o.dynamic_flags.set(p.word("wwd_dynamic_flags")?);
    o.draw_flags.set(p.word("wwd_draw_flags")?);
    o.user_flags.set(p.word("wwd_user_flags")?);
    o.score.set(p.int("wwd_score")?);
    o.points.set(p.int("wwd_points")?);
    o.powerup.set(p.int("wwd_powerup")?);
    o.damage.set(p.int("wwd_damage")?);
    o.smarts.set(p.int("wwd_smarts")?);
    o.health.set(p.int("wwd_health")?);
    o.move_rect = p.rect("wwd_move_rect")?;
    o.hit_rect = p.rect("wwd_hit_rect")?;
    o.attack_rect = p.rect("wwd_attack_rect")?;
    o.clip_rect = p.rect("wwd_clip_rect")?;
    o.user_rect1 = p.rect("wwd_user_rect1")?;
    o.user_rect2 = p.rect("wwd_user_rect2")?;
    let user = p.get_or("wwd_user", "0,0,0,0,0,0,0,0")?;
    let values = ints(user)
        .filter(|v| v.len() == 8)
        .ok_or_else(|| bad(format!("{}: property wwd_user", p.what), user, "eight ints"))?;
    for (u, v) in o.user.iter_mut().zip(values) {
        u.set(v);
    }
    for (field, name) in [
        (&mut o.min_x, "wwd_min_x"),
        (&mut o.min_y, "wwd_min_y"),
        (&mut o.max_x, "wwd_max_x"),
        (&mut o.max_y, "wwd_max_y"),
        (&mut o.speed_x, "wwd_speed_x"),
        (&mut o.speed_y, "wwd_speed_y"),
        (&mut o.tweak_x, "wwd_tweak_x"),
        (&mut o.tweak_y, "wwd_tweak_y"),
        (&mut o.counter, "wwd_counter"),
        (&mut o.speed, "wwd_speed"),
        (&mut o.width, "wwd_width"),
        (&mut o.height, "wwd_height"),
        (&mut o.direction, "wwd_direction"),
        (&mut o.face_dir, "wwd_face_dir"),
        (&mut o.time_delay, "wwd_time_delay"),
        (&mut o.frame_delay, "wwd_frame_delay"),
    ] {
        field.set(p.int(name)?);
    }
    o.object_type.set(p.word("wwd_object_type")?);
    o.hit_type_flags.set(p.word("wwd_hit_type_flags")?);
    o.move_res_x.set(p.word("wwd_move_res_x")?);
    o.move_res_y.set(p.word("wwd_move_res_y")?);
    Ok(ObjectData {
        fixed: o,
        name: p.text("wwd_name")?,
        logic: p.text("wwd_logic")?,
        image_set: p.text("wwd_image_set")?,
        animation: p.text("wwd_animation")?,
    })
}
