//! A [`Map`] as TMX, Tiled's XML form (<https://doc.mapeditor.org/en/stable/reference/tmx-map-format/>,
//! `docs/formats/tiled.md`): elements, attributes and text written and escaped by
//! quick-xml; tile layers in CSV.

use std::io::Write;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};

use crate::map::{Layer, LayerData, Map, MapObject, Property, Tileset, Value};

/// The TMX format version written (`<map version>`): Tiled 1.8's.
pub const TMX_VERSION: &str = "1.8";

/// Writes `map` as a TMX document into `out`.
///
/// Returns the I/O error of `out`.
pub fn write_tmx(map: &Map, out: impl Write) -> std::io::Result<()> {
    let mut w = Writer::new_with_indent(out, b' ', 1);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let mut start = BytesStart::new("map");
    let (next_layer, next_object) = (map.next_layer_id(), map.next_object_id());
    for (key, value) in [
        ("version", TMX_VERSION.to_owned()),
        ("orientation", "orthogonal".to_owned()),
        ("renderorder", "right-down".to_owned()),
        ("width", map.width.to_string()),
        ("height", map.height.to_string()),
        ("tilewidth", map.tile_width.to_string()),
        ("tileheight", map.tile_height.to_string()),
        ("infinite", "0".to_owned()),
        ("nextlayerid", next_layer.to_string()),
        ("nextobjectid", next_object.to_string()),
    ] {
        start.push_attribute((key, value.as_str()));
    }
    w.write_event(Event::Start(start))?;
    properties(&mut w, &map.properties)?;
    for tileset in &map.tilesets {
        write_tileset(&mut w, tileset)?;
    }
    for layer in &map.layers {
        write_layer(&mut w, layer, map)?;
    }
    w.write_event(Event::End(BytesEnd::new("map")))?;
    w.get_mut().write_all(b"\n")
}

/// An element with `attributes` and no content.
fn empty<W: Write>(
    w: &mut Writer<W>,
    name: &str,
    attributes: &[(&str, String)],
) -> std::io::Result<()> {
    let mut e = BytesStart::new(name);
    for (k, v) in attributes {
        e.push_attribute((*k, v.as_str()));
    }
    w.write_event(Event::Empty(e))
}

/// The start of an element with `attributes`.
fn open<W: Write>(
    w: &mut Writer<W>,
    name: &str,
    attributes: &[(&str, String)],
) -> std::io::Result<()> {
    let mut e = BytesStart::new(name);
    for (k, v) in attributes {
        e.push_attribute((*k, v.as_str()));
    }
    w.write_event(Event::Start(e))
}

fn close<W: Write>(w: &mut Writer<W>, name: &str) -> std::io::Result<()> {
    w.write_event(Event::End(BytesEnd::new(name)))
}

/// `<properties>` with one `<property>` each; nothing when there are none.
fn properties<W: Write>(w: &mut Writer<W>, properties: &[Property]) -> std::io::Result<()> {
    if properties.is_empty() {
        return Ok(());
    }
    open(w, "properties", &[])?;
    for p in properties {
        let mut a = vec![("name", p.name.clone())];
        match &p.value {
            Value::String(s) => a.push(("value", s.clone())),
            Value::Int(i) => {
                a.push(("type", "int".to_owned()));
                a.push(("value", i.to_string()));
            }
            Value::Float(f) => {
                a.push(("type", "float".to_owned()));
                a.push(("value", f.to_string()));
            }
            Value::Bool(b) => {
                a.push(("type", "bool".to_owned()));
                a.push(("value", b.to_string()));
            }
        }
        empty(w, "property", &a)?;
    }
    close(w, "properties")
}

fn image<W: Write>(
    w: &mut Writer<W>,
    (source, width, height): &(String, u32, u32),
) -> std::io::Result<()> {
    empty(
        w,
        "image",
        &[
            ("source", source.clone()),
            ("width", width.to_string()),
            ("height", height.to_string()),
        ],
    )
}

fn write_tileset<W: Write>(w: &mut Writer<W>, t: &Tileset) -> std::io::Result<()> {
    let mut a = vec![
        ("firstgid", t.first_gid.to_string()),
        ("name", t.name.clone()),
        ("tilewidth", t.tile_width.to_string()),
        ("tileheight", t.tile_height.to_string()),
        ("tilecount", t.tile_count.to_string()),
        ("columns", t.columns.to_string()),
    ];
    if t.align_top_left {
        a.push(("objectalignment", "topleft".to_owned()));
    }
    open(w, "tileset", &a)?;
    properties(w, &t.properties)?;
    if let Some(i) = &t.image {
        image(w, i)?;
    }
    for tile in &t.tiles {
        open(w, "tile", &[("id", tile.id.to_string())])?;
        properties(w, &tile.properties)?;
        if let Some(i) = &tile.image {
            image(w, i)?;
        }
        close(w, "tile")?;
    }
    close(w, "tileset")
}

/// The attributes every layer has: id, name, visibility, parallax.
fn layer_attributes(layer: &Layer) -> Vec<(&'static str, String)> {
    let mut a = vec![("id", layer.id.to_string()), ("name", layer.name.clone())];
    if !layer.visible {
        a.push(("visible", "0".to_owned()));
    }
    if layer.parallax.0 != 1.0 {
        a.push(("parallaxx", layer.parallax.0.to_string()));
    }
    if layer.parallax.1 != 1.0 {
        a.push(("parallaxy", layer.parallax.1.to_string()));
    }
    a
}

fn write_layer<W: Write>(w: &mut Writer<W>, layer: &Layer, map: &Map) -> std::io::Result<()> {
    let mut a = layer_attributes(layer);
    match &layer.data {
        LayerData::Tiles(cells) => {
            a.insert(2, ("width", map.width.to_string()));
            a.insert(3, ("height", map.height.to_string()));
            open(w, "layer", &a)?;
            properties(w, &layer.properties)?;
            open(w, "data", &[("encoding", "csv".to_owned())])?;
            let text = csv(cells, map.width);
            w.write_event(Event::Text(BytesText::new(&text)))?;
            close(w, "data")?;
            close(w, "layer")
        }
        LayerData::Objects(objects) => {
            a.push(("draworder", "index".to_owned()));
            open(w, "objectgroup", &a)?;
            properties(w, &layer.properties)?;
            for o in objects {
                write_object(w, o)?;
            }
            close(w, "objectgroup")
        }
        LayerData::Image(layer_image) => {
            if layer_image.repeat_x {
                a.push(("repeatx", "1".to_owned()));
            }
            if layer_image.repeat_y {
                a.push(("repeaty", "1".to_owned()));
            }
            open(w, "imagelayer", &a)?;
            properties(w, &layer.properties)?;
            image(w, &layer_image.image)?;
            close(w, "imagelayer")
        }
    }
}

/// The cells as Tiled's CSV: rows of `width` ids, a comma after each but the last, a line
/// each.
pub(crate) fn csv(cells: &[u32], width: u32) -> String {
    use std::fmt::Write as _;
    let width = usize::try_from(width).unwrap_or(1).max(1);
    let mut text = String::with_capacity(cells.len().saturating_mul(4).saturating_add(2));
    text.push('\n');
    let rows = cells.chunks(width);
    let last = rows.len().saturating_sub(1);
    for (r, row) in rows.enumerate() {
        for (i, cell) in row.iter().enumerate() {
            let _ = write!(text, "{cell}");
            if r != last || i.saturating_add(1) != row.len() {
                text.push(',');
            }
        }
        text.push('\n');
    }
    text
}

fn write_object<W: Write>(w: &mut Writer<W>, o: &MapObject) -> std::io::Result<()> {
    let mut a = vec![("id", o.id.to_string())];
    if !o.name.is_empty() {
        a.push(("name", o.name.clone()));
    }
    if !o.class.is_empty() {
        a.push(("type", o.class.clone()));
    }
    if let Some(gid) = o.gid {
        a.push(("gid", gid.to_string()));
    }
    a.push(("x", o.x.to_string()));
    a.push(("y", o.y.to_string()));
    if o.gid.is_some() {
        a.push(("width", o.width.to_string()));
        a.push(("height", o.height.to_string()));
    }
    if !o.visible {
        a.push(("visible", "0".to_owned()));
    }
    open(w, "object", &a)?;
    properties(w, &o.properties)?;
    if o.gid.is_none() {
        empty(w, "point", &[])?;
    }
    close(w, "object")
}
