//! A [`Map`] as TMJ, Tiled's JSON form (<https://doc.mapeditor.org/en/stable/reference/json-map-format/>,
//! `docs/formats/tiled.md`), with Tiled's keys, written by serde_json.
//!
//! The document is serialized straight to the writer, key by key in the order below: no
//! JSON tree of the map is built, so writing holds the map and a buffer, not a second
//! copy of it many times its size.

use std::io::Write;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as Json;

use crate::map::{Layer, LayerData, Map, MapObject, Property, TileInfo, Tileset, Value};

/// Writes `map` as a TMJ document into `out`.
///
/// Returns the I/O error of `out` (or serde_json's, as an I/O error).
pub fn write_tmj(map: &Map, mut out: impl Write) -> std::io::Result<()> {
    serde_json::to_writer(&mut out, &MapJson(map))?;
    out.write_all(b"\n")
}

/// `map` as the JSON value of a TMJ document (the same keys, in the same order, as
/// [`write_tmj`] writes).
pub fn to_json(map: &Map) -> Json {
    // Serializing these types cannot fail: every key is text and every value a number,
    // a string, a bool or a list of them.
    serde_json::to_value(MapJson(map)).unwrap_or(Json::Null)
}

struct MapJson<'a>(&'a Map);

impl Serialize for MapJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("type", "map")?;
        m.serialize_entry("version", crate::tmx::TMX_VERSION)?;
        m.serialize_entry("orientation", "orthogonal")?;
        m.serialize_entry("renderorder", "right-down")?;
        m.serialize_entry("width", &map.width)?;
        m.serialize_entry("height", &map.height)?;
        m.serialize_entry("tilewidth", &map.tile_width)?;
        m.serialize_entry("tileheight", &map.tile_height)?;
        m.serialize_entry("infinite", &false)?;
        m.serialize_entry("compressionlevel", &-1)?;
        m.serialize_entry("nextlayerid", &map.next_layer_id())?;
        m.serialize_entry("nextobjectid", &map.next_object_id())?;
        properties(&mut m, &map.properties)?;
        m.serialize_entry("tilesets", &List(&map.tilesets, TilesetJson))?;
        let layers: Vec<LayerJson<'_>> = map.layers.iter().map(|l| LayerJson(l, map)).collect();
        m.serialize_entry("layers", &layers)?;
        m.end()
    }
}

/// The items of a slice, each serialized as `W` wraps it.
struct List<'a, T, W>(&'a [T], fn(&'a T) -> W);

impl<'a, T, W: Serialize> Serialize for List<'a, T, W> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(self.1))
    }
}

/// `"properties"`: `[{"name", "type", "value"}]`, left out when there are none.
fn properties<M: SerializeMap>(m: &mut M, properties: &[Property]) -> Result<(), M::Error> {
    if properties.is_empty() {
        return Ok(());
    }
    m.serialize_entry("properties", &List(properties, PropertyJson))
}

struct PropertyJson<'a>(&'a Property);

impl Serialize for PropertyJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("name", &p.name)?;
        match &p.value {
            Value::String(v) => {
                m.serialize_entry("type", "string")?;
                m.serialize_entry("value", v)?;
            }
            Value::Int(v) => {
                m.serialize_entry("type", "int")?;
                m.serialize_entry("value", v)?;
            }
            Value::Float(v) => {
                m.serialize_entry("type", "float")?;
                m.serialize_entry("value", v)?;
            }
            Value::Bool(v) => {
                m.serialize_entry("type", "bool")?;
                m.serialize_entry("value", v)?;
            }
        }
        m.end()
    }
}

/// `"image"`, `"imagewidth"`, `"imageheight"`.
fn image<M: SerializeMap>(m: &mut M, (source, w, h): &(String, u32, u32)) -> Result<(), M::Error> {
    m.serialize_entry("image", source)?;
    m.serialize_entry("imagewidth", w)?;
    m.serialize_entry("imageheight", h)
}

struct TilesetJson<'a>(&'a Tileset);

impl Serialize for TilesetJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("firstgid", &t.first_gid)?;
        m.serialize_entry("name", &t.name)?;
        m.serialize_entry("tilewidth", &t.tile_width)?;
        m.serialize_entry("tileheight", &t.tile_height)?;
        m.serialize_entry("tilecount", &t.tile_count)?;
        m.serialize_entry("columns", &t.columns)?;
        m.serialize_entry("margin", &0)?;
        m.serialize_entry("spacing", &0)?;
        if let Some(i) = &t.image {
            image(&mut m, i)?;
        }
        if t.align_top_left {
            m.serialize_entry("objectalignment", "topleft")?;
        }
        properties(&mut m, &t.properties)?;
        if !t.tiles.is_empty() {
            m.serialize_entry("tiles", &List(&t.tiles, TileJson))?;
        }
        m.end()
    }
}

struct TileJson<'a>(&'a TileInfo);

impl Serialize for TileJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let tile = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &tile.id)?;
        if let Some(i) = &tile.image {
            image(&mut m, i)?;
        }
        properties(&mut m, &tile.properties)?;
        m.end()
    }
}

struct LayerJson<'a>(&'a Layer, &'a Map);

impl Serialize for LayerJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (l, map) = (self.0, self.1);
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &l.id)?;
        m.serialize_entry("name", &l.name)?;
        m.serialize_entry("visible", &l.visible)?;
        m.serialize_entry("opacity", &1)?;
        m.serialize_entry("x", &0)?;
        m.serialize_entry("y", &0)?;
        if l.parallax.0 != 1.0 {
            m.serialize_entry("parallaxx", &l.parallax.0)?;
        }
        if l.parallax.1 != 1.0 {
            m.serialize_entry("parallaxy", &l.parallax.1)?;
        }
        match &l.data {
            LayerData::Tiles(cells) => {
                m.serialize_entry("type", "tilelayer")?;
                m.serialize_entry("width", &map.width)?;
                m.serialize_entry("height", &map.height)?;
                m.serialize_entry("data", cells)?;
            }
            LayerData::Objects(objects) => {
                m.serialize_entry("type", "objectgroup")?;
                m.serialize_entry("draworder", "index")?;
                m.serialize_entry("objects", &List(objects, ObjectJson))?;
            }
            LayerData::Image(i) => {
                // Tiled 1.8.2 drops repeatx and repeaty from JSON (later versions read them).
                m.serialize_entry("type", "imagelayer")?;
                image(&mut m, &i.image)?;
                m.serialize_entry("repeatx", &i.repeat_x)?;
                m.serialize_entry("repeaty", &i.repeat_y)?;
            }
        }
        properties(&mut m, &l.properties)?;
        m.end()
    }
}

struct ObjectJson<'a>(&'a MapObject);

impl Serialize for ObjectJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("id", &o.id)?;
        m.serialize_entry("name", &o.name)?;
        m.serialize_entry("type", &o.class)?;
        if let Some(gid) = o.gid {
            m.serialize_entry("gid", &gid)?;
        } else {
            m.serialize_entry("point", &true)?;
        }
        m.serialize_entry("x", &o.x)?;
        m.serialize_entry("y", &o.y)?;
        m.serialize_entry("width", &o.width)?;
        m.serialize_entry("height", &o.height)?;
        m.serialize_entry("rotation", &0)?;
        m.serialize_entry("visible", &o.visible)?;
        properties(&mut m, &o.properties)?;
        m.end()
    }
}
