//! A [`Map`] as TMJ, Tiled's JSON form (<https://doc.mapeditor.org/en/stable/reference/json-map-format/>,
//! `docs/formats/tiled.md`), with Tiled's keys, written by serde_json.

use std::io::Write;

use serde_json::{Map as Object, Value as Json, json};

use crate::map::{Layer, LayerData, Map, MapObject, Property, Tileset, Value};

/// Writes `map` as a TMJ document into `out`.
///
/// Returns the I/O error of `out` (or serde_json's, as an I/O error).
pub fn write_tmj(map: &Map, mut out: impl Write) -> std::io::Result<()> {
    serde_json::to_writer(&mut out, &to_json(map))?;
    out.write_all(b"\n")
}

/// `map` as the JSON value of a TMJ document.
pub fn to_json(map: &Map) -> Json {
    let mut m = Object::new();
    m.insert("type".into(), "map".into());
    m.insert("version".into(), crate::tmx::TMX_VERSION.into());
    m.insert("orientation".into(), "orthogonal".into());
    m.insert("renderorder".into(), "right-down".into());
    m.insert("width".into(), map.width.into());
    m.insert("height".into(), map.height.into());
    m.insert("tilewidth".into(), map.tile_width.into());
    m.insert("tileheight".into(), map.tile_height.into());
    m.insert("infinite".into(), false.into());
    m.insert("compressionlevel".into(), (-1).into());
    m.insert("nextlayerid".into(), map.next_layer_id().into());
    m.insert("nextobjectid".into(), map.next_object_id().into());
    insert_properties(&mut m, &map.properties);
    m.insert(
        "tilesets".into(),
        map.tilesets.iter().map(tileset).collect::<Vec<_>>().into(),
    );
    m.insert(
        "layers".into(),
        map.layers
            .iter()
            .map(|l| layer(l, map))
            .collect::<Vec<_>>()
            .into(),
    );
    Json::Object(m)
}

/// `"properties"`: `[{"name", "type", "value"}]`, left out when there are none.
fn insert_properties(m: &mut Object<String, Json>, properties: &[Property]) {
    if properties.is_empty() {
        return;
    }
    let list: Vec<Json> = properties
        .iter()
        .map(|p| {
            let (kind, value) = match &p.value {
                Value::String(s) => ("string", Json::from(s.as_str())),
                Value::Int(i) => ("int", Json::from(*i)),
                Value::Float(f) => ("float", Json::from(*f)),
                Value::Bool(b) => ("bool", Json::from(*b)),
            };
            json!({"name": p.name, "type": kind, "value": value})
        })
        .collect();
    m.insert("properties".into(), list.into());
}

fn tileset(t: &Tileset) -> Json {
    let mut m = Object::new();
    m.insert("firstgid".into(), t.first_gid.into());
    m.insert("name".into(), t.name.as_str().into());
    m.insert("tilewidth".into(), t.tile_width.into());
    m.insert("tileheight".into(), t.tile_height.into());
    m.insert("tilecount".into(), t.tile_count.into());
    m.insert("columns".into(), t.columns.into());
    m.insert("margin".into(), 0.into());
    m.insert("spacing".into(), 0.into());
    if let Some((source, w, h)) = &t.image {
        m.insert("image".into(), source.as_str().into());
        m.insert("imagewidth".into(), (*w).into());
        m.insert("imageheight".into(), (*h).into());
    }
    if t.align_top_left {
        m.insert("objectalignment".into(), "topleft".into());
    }
    insert_properties(&mut m, &t.properties);
    if !t.tiles.is_empty() {
        let tiles: Vec<Json> = t
            .tiles
            .iter()
            .map(|tile| {
                let mut e = Object::new();
                e.insert("id".into(), tile.id.into());
                if let Some((source, w, h)) = &tile.image {
                    e.insert("image".into(), source.as_str().into());
                    e.insert("imagewidth".into(), (*w).into());
                    e.insert("imageheight".into(), (*h).into());
                }
                insert_properties(&mut e, &tile.properties);
                Json::Object(e)
            })
            .collect();
        m.insert("tiles".into(), tiles.into());
    }
    Json::Object(m)
}

fn layer(l: &Layer, map: &Map) -> Json {
    let mut m = Object::new();
    m.insert("id".into(), l.id.into());
    m.insert("name".into(), l.name.as_str().into());
    m.insert("visible".into(), l.visible.into());
    m.insert("opacity".into(), 1.into());
    m.insert("x".into(), 0.into());
    m.insert("y".into(), 0.into());
    if l.parallax.0 != 1.0 {
        m.insert("parallaxx".into(), l.parallax.0.into());
    }
    if l.parallax.1 != 1.0 {
        m.insert("parallaxy".into(), l.parallax.1.into());
    }
    match &l.data {
        LayerData::Tiles(cells) => {
            m.insert("type".into(), "tilelayer".into());
            m.insert("width".into(), map.width.into());
            m.insert("height".into(), map.height.into());
            m.insert("data".into(), cells.as_slice().into());
        }
        LayerData::Objects(objects) => {
            m.insert("type".into(), "objectgroup".into());
            m.insert("draworder".into(), "index".into());
            m.insert(
                "objects".into(),
                objects.iter().map(object).collect::<Vec<_>>().into(),
            );
        }
        LayerData::Image(image) => {
            // Tiled 1.8.2 drops repeatx and repeaty from JSON (later versions read them).
            m.insert("type".into(), "imagelayer".into());
            m.insert("image".into(), image.image.0.as_str().into());
            m.insert("imagewidth".into(), image.image.1.into());
            m.insert("imageheight".into(), image.image.2.into());
            m.insert("repeatx".into(), image.repeat_x.into());
            m.insert("repeaty".into(), image.repeat_y.into());
        }
    }
    insert_properties(&mut m, &l.properties);
    Json::Object(m)
}

fn object(o: &MapObject) -> Json {
    let mut m = Object::new();
    m.insert("id".into(), o.id.into());
    m.insert("name".into(), o.name.as_str().into());
    m.insert("type".into(), o.class.as_str().into());
    if let Some(gid) = o.gid {
        m.insert("gid".into(), gid.into());
    } else {
        m.insert("point".into(), true.into());
    }
    m.insert("x".into(), o.x.into());
    m.insert("y".into(), o.y.into());
    m.insert("width".into(), o.width.into());
    m.insert("height".into(), o.height.into());
    m.insert("rotation".into(), 0.into());
    m.insert("visible".into(), o.visible.into());
    insert_properties(&mut m, &o.properties);
    Json::Object(m)
}
