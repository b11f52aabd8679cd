//! TMJ read as the TMX elements it stands for (Tiled's JSON keys are its XML attributes, a
//! tile layer's `data` array its CSV), one layer and one object at a time.
//!
//! The text is first checked as serde_json reads any JSON (numbers in range, strings,
//! nesting within 128), nothing kept. The map is then read into typed parts whose strings
//! are borrowed from the text ([`super::lenient`]): its properties and tilesets, and each
//! layer as its JSON text. Each layer is read in turn: its properties, its `data` array
//! read cell by cell into its plane's tiles, its objects each read, made an element and
//! handed on. Any value of another kind than the import reads is taken as TMX takes a
//! missing one: a key whose value is not a string, number or boolean is no attribute, a
//! list that is not an array is empty; where a key comes twice, the last one counts.
//!
//! What is counted against `Limits::max_records` is what TMX would hold: the map, each
//! properties list and property, tileset, tile, tile image, layer, layer's data, object
//! and point. Those counts and the cells' values are the JSON's errors, which come first
//! (the layers and objects after the level's first error are still counted and their
//! cells checked).
//!
//! What is kept is charged to the import's [`Budget`] as it is read (`Limits::
//! max_decoded_bytes`): each list item of the typed parts as it is deserialized, before the
//! list keeps it ([`super::lenient`]), each element and attribute as it is made; a layer's
//! and an object's given back once read. A layer's `data` is never a list: its cells go one
//! by one into the plane.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use wap_core::{LevelData, Limits};

use super::Builder;
use super::element::{Budget, Element, bad, owned};
use super::lenient::{LayerJ, Lenient, MapJ, ObjectJ, PropJ, Scalar, TilesetJ, Valid, read_json};
use crate::TiledError;

pub(super) fn level_from_tmj(text: &str, limits: &Limits) -> Result<LevelData, TiledError> {
    serde_json::from_str::<Valid>(text).map_err(json_error)?;
    let budget = Budget::new(limits);
    let doc = read_json::<Lenient<MapJ<'_>>>(text, &budget, json_error)?.0;
    if doc.kind.as_str() != Some("map") {
        return Err(bad("the JSON", "no \"type\": \"map\"", "a TMJ map"));
    }
    let mut c = Counter {
        count: 0,
        limit: limits.max_records,
        budget: &budget,
    };
    let mut map = c.element("map")?;
    c.attributes(
        &mut map,
        &[
            ("width", &doc.width),
            ("height", &doc.height),
            ("tilewidth", &doc.tilewidth),
            ("tileheight", &doc.tileheight),
        ],
    )?;
    let mut level = Builder::new(&map, limits);
    if let Some(p) = properties(doc.properties.0.as_deref(), &mut c)? {
        level.properties(p);
    }
    for t in doc.tilesets.0.iter().flatten() {
        level.tileset(tileset(&t.0, &mut c)?);
    }
    for raw in doc.layers.0.iter().flatten() {
        layer(raw, &mut c, &mut level)?;
    }
    level.finish()
}

fn json_error(e: serde_json::Error) -> TiledError {
    bad("the JSON", e.to_string(), "a TMJ map")
}

/// One layer (its JSON text): its properties, data and objects.
fn layer<'a>(
    raw: &'a RawValue,
    c: &mut Counter<'_>,
    level: &mut Builder<'a, '_>,
) -> Result<(), TiledError> {
    // What the layer's reading holds is given back at its end (a tileset among the layers,
    // kept, aside).
    let mark = c.budget.mark();
    let l = read_json::<Lenient<LayerJ<'a>>>(raw.get(), c.budget, json_error)?.0;
    let kind = l.kind.as_str().unwrap_or_default();
    let mut e = c.element("layer")?;
    c.attributes(&mut e, &[("name", &l.name)])?;
    if let Some(p) = properties(l.properties.0.as_deref(), c)? {
        e.children.push(p);
    }
    let name = l.name.text().unwrap_or_default();
    match kind {
        "tilelayer" => {
            c.count()?;
            let data = l.data.filter(|d| d.get().starts_with('[')).ok_or_else(|| {
                bad(
                    format!("layer {name:?}: data"),
                    "not an array",
                    "an array of global tile ids (no encoding)",
                )
            })?;
            match level.plane_cells(&e) {
                Some(mut plane) => {
                    cells(data, &name, |gid| plane.push(gid))?;
                    let plane = plane.finish();
                    level.add_plane(plane);
                }
                None => cells(data, &name, |_| {})?,
            }
        }
        // A TMX `<layer>` without its `<data>`; a `<tileset>` among the layers.
        "layer" => level.tile_layer(&e),
        "tileset" => level.tileset(e),
        "objectgroup" => level.begin_objects(&name),
        _ => {}
    }
    for raw in l.objects.0.iter().flatten() {
        let at = c.budget.mark();
        let o = read_json::<Lenient<ObjectJ<'a>>>(raw.get(), c.budget, json_error)?.0;
        let object = object(&o, c)?;
        if kind == "objectgroup" {
            level.object(&object);
        }
        c.budget.release(at);
    }
    if kind == "objectgroup" {
        level.end_objects();
    }
    if kind != "tileset" {
        c.budget.release(mark);
    }
    Ok(())
}

/// Counts the elements a JSON document stands for against `Limits::max_records`, and
/// charges them and their attributes to the budget.
struct Counter<'b> {
    count: u64,
    limit: u64,
    budget: &'b Budget,
}

impl Counter<'_> {
    fn count(&mut self) -> Result<(), TiledError> {
        self.count = self.count.saturating_add(1);
        if self.count > self.limit {
            return Err(TiledError::TooLarge {
                what: "JSON objects",
                found: self.count,
                limit: self.limit,
            });
        }
        Ok(())
    }

    /// An element named `name`, counted and charged.
    fn element<'a>(&mut self, name: &'static str) -> Result<Element<'a>, TiledError> {
        self.count()?;
        let e = Element::new(name);
        self.budget.element(&e)?;
        Ok(e)
    }

    /// Copies the scalars of `keys` (those present) as attributes of `e`, each charged (its
    /// slot twice, for the room a growing list may keep, and its owned text).
    fn attributes<'a>(
        &mut self,
        e: &mut Element<'a>,
        keys: &[(&'static str, &Scalar<'a>)],
    ) -> Result<(), TiledError> {
        let slot = (std::mem::size_of::<(Cow<'_, str>, Cow<'_, str>)>() as u64).saturating_mul(2);
        for (key, value) in keys {
            if let Some(v) = value.text() {
                self.budget.charge(slot.saturating_add(owned(&v)))?;
                e.attributes.push((Cow::Borrowed(*key), v));
            }
        }
        Ok(())
    }
}

/// A `"properties"` array as a `<properties>` element.
fn properties<'a>(
    list: Option<&[Lenient<PropJ<'a>>]>,
    c: &mut Counter<'_>,
) -> Result<Option<Element<'a>>, TiledError> {
    let Some(list) = list else {
        return Ok(None);
    };
    let mut props = c.element("properties")?;
    for p in list {
        let p = &p.0;
        let mut property = c.element("property")?;
        c.attributes(
            &mut property,
            &[("name", &p.name), ("type", &p.kind), ("value", &p.value)],
        )?;
        props.children.push(property);
    }
    Ok(Some(props))
}

fn tileset<'a>(t: &TilesetJ<'a>, c: &mut Counter<'_>) -> Result<Element<'a>, TiledError> {
    let mut tileset = c.element("tileset")?;
    c.attributes(
        &mut tileset,
        &[
            ("firstgid", &t.firstgid),
            ("name", &t.name),
            ("tilecount", &t.tilecount),
            ("objectalignment", &t.objectalignment),
            ("source", &t.source),
        ],
    )?;
    tileset
        .children
        .extend(properties(t.properties.0.as_deref(), c)?);
    for tile in t.tiles.0.iter().flatten() {
        let tile = &tile.0;
        let mut e = c.element("tile")?;
        c.attributes(&mut e, &[("id", &tile.id)])?;
        e.children
            .extend(properties(tile.properties.0.as_deref(), c)?);
        if tile.image.text().is_some() {
            let mut image = c.element("image")?;
            c.attributes(
                &mut image,
                &[
                    ("source", &tile.image),
                    ("width", &tile.imagewidth),
                    ("height", &tile.imageheight),
                ],
            )?;
            e.children.push(image);
        }
        tileset.children.push(e);
    }
    Ok(tileset)
}

fn object<'a>(o: &ObjectJ<'a>, c: &mut Counter<'_>) -> Result<Element<'a>, TiledError> {
    let mut object = c.element("object")?;
    c.attributes(
        &mut object,
        &[
            ("id", &o.id),
            ("name", &o.name),
            ("type", &o.kind),
            ("class", &o.class),
            ("gid", &o.gid),
            ("x", &o.x),
            ("y", &o.y),
            ("width", &o.width),
            ("height", &o.height),
            ("rotation", &o.rotation),
        ],
    )?;
    object
        .children
        .extend(properties(o.properties.0.as_deref(), c)?);
    if matches!(o.point, Scalar::Bool(true)) {
        object.children.push(c.element("point")?);
    }
    Ok(object)
}

/// The cells of a layer's `data` (an array), each given to `sink`: each must be a global
/// tile id (an integer of 0 to 2^32 - 1).
fn cells(data: &RawValue, layer: &str, sink: impl FnMut(u32)) -> Result<(), TiledError> {
    let mut failure = None;
    let read = serde_json::Deserializer::from_str(data.get()).deserialize_seq(CellsVisitor {
        layer,
        sink,
        failure: &mut failure,
    });
    match (failure, read) {
        (Some(e), _) => Err(e),
        (None, Err(e)) => Err(json_error(e)),
        (None, Ok(())) => Ok(()),
    }
}

struct CellsVisitor<'f, F> {
    layer: &'f str,
    sink: F,
    failure: &'f mut Option<TiledError>,
}

impl<'de, F: FnMut(u32)> Visitor<'de> for CellsVisitor<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of global tile ids")
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut n = 0usize;
        while let Some(cell) = seq.next_element::<Cell>()? {
            match cell {
                Cell::Id(gid) => (self.sink)(gid),
                Cell::Other(found) => {
                    *self.failure = Some(bad(
                        format!("layer {:?}: data[{n}]", self.layer),
                        found,
                        "a global tile id",
                    ));
                    return Err(de::Error::custom("a cell that is not a global tile id"));
                }
            }
            n = n.saturating_add(1);
        }
        Ok(())
    }
}

/// A cell of a layer's `data`: a global tile id, or any other value as JSON text.
enum Cell {
    Id(u32),
    Other(String),
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CellVisitor)
    }
}

struct CellVisitor;

impl<'de> Visitor<'de> for CellVisitor {
    type Value = Cell;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_u64<E>(self, v: u64) -> Result<Cell, E> {
        Ok(u32::try_from(v).map_or_else(|_| Cell::Other(v.to_string()), Cell::Id))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Cell, E> {
        Ok(u32::try_from(v).map_or_else(|_| Cell::Other(v.to_string()), Cell::Id))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Cell, E> {
        Ok(Cell::Other(serde_json::Value::from(v).to_string()))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Cell, E> {
        Ok(Cell::Other(v.to_string()))
    }

    fn visit_str<E>(self, v: &str) -> Result<Cell, E> {
        Ok(Cell::Other(serde_json::Value::from(v).to_string()))
    }

    fn visit_unit<E>(self) -> Result<Cell, E> {
        Ok(Cell::Other("null".to_owned()))
    }

    // An array or object is named, not copied: its items are read and dropped one by one
    // (a cell of millions of them costs no more than its text).
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cell, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Cell::Other("an array".to_owned()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cell, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Cell::Other("an object".to_owned()))
    }
}
