//! A WAP32 level read back from a TMX map that [`crate::wwd::export`] wrote
//! (`docs/formats/tiled.md`, "WWD levels in Tiled", read the other way).
//!
//! - The header comes from the map's properties, each plane from a tile layer's (in the
//!   layers' order), each object from an object's (`wwd_plane`, then `wwd_order`), the
//!   tile property table from `wwd_tile_properties`.
//! - A plane's tiles start from `wwd_tiles` when the layer has it (all 0xFFFFFFFF
//!   otherwise); the layer's cells then give the tiles of the plane's first period: map
//!   cell (x, y) for x below the plane's width and the map's, y the same. A cell's tile is
//!   read through its tileset: `wwd_tile` of a tile set's tileset (the set found by name
//!   among the plane's image sets), the fill tileset's tiles are 0xEEEEEEEE, 0 is
//!   0xFFFFFFFF.
//! - An object's position is its `wwd_x` and `wwd_y` (where Tiled shows its image is the
//!   engine's placement of it, not its position).
//!
//! What cannot be read back is an error naming the layer or object: a missing or bad
//! property, a flipped tile, a tile of no tile set of its plane, an object without
//! `wwd_plane` (objects added in Tiled are not read yet).
//!
//! What it costs, whatever the text: the text is read by quick-xml, without a document
//! type (refused: no entity is expanded), into at most `Limits::max_records` elements of
//! at most 16 levels; a plane's tiles are refused past `Limits::max_decoded_bytes / 4`.

use std::collections::HashMap;

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};
use wap_core::raw::{ObjectFixed, PlaneHeader, Rect, WwdHeader};
use wap_core::{LevelData, Limits, ObjectData, PlaneData};
use zerocopy::FromZeros;

use crate::TiledError;

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
        Props { what, map }
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

    fn int(&self, name: &str) -> Result<i32, TiledError> {
        let v = self.get(name)?;
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
        let s = self.get(name)?;
        let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(s);
        if unmappable {
            return Err(bad(
                format!("{}: property {name}", self.what),
                s,
                "Windows-1252 characters",
            ));
        }
        Ok(bytes.into_owned())
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
        let v = self.get(name)?;
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
struct Tiles {
    first: u32,
    /// The tile set it holds (`None`: the fill tileset; `Some("")`: objects' images).
    set: Option<String>,
    /// Each local id's raw tile id (`wwd_tile`).
    ids: HashMap<u32, u16>,
    count: u32,
}

fn tilesets(map: &Element) -> Result<Vec<Tiles>, TiledError> {
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
        }
        out.push(Tiles {
            first: number("firstgid")?,
            set,
            ids,
            count: number("tilecount")?,
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
    let root = parse(text, limits)?;
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
    let mut objects: Vec<(u32, u32, ObjectData)> = Vec::new();
    for layer in &map.children {
        let name = layer.attribute("name").unwrap_or_default().to_owned();
        match layer.name.as_str() {
            "layer" => planes.push(read_plane(layer, &name, &sets, (map_w, map_h), limits)?),
            "objectgroup" => {
                for o in layer.children("object") {
                    let id = o.attribute("id").unwrap_or_default();
                    let what = format!("object {id} of layer {name:?}");
                    let p = o.properties(what);
                    let plane = u32::try_from(p.int("wwd_plane")?).map_err(|_| {
                        bad(
                            format!("object {id}: wwd_plane"),
                            "a negative",
                            "a plane index",
                        )
                    })?;
                    let order = u32::try_from(p.int("wwd_order")?).map_err(|_| {
                        bad(format!("object {id}: wwd_order"), "a negative", "a place")
                    })?;
                    objects.push((plane, order, read_object(&p)?));
                }
            }
            _ => {}
        }
    }
    objects.sort_by_key(|(plane, order, _)| (*plane, *order));
    for (plane, _, object) in objects {
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
    let user = p.get("wwd_user")?;
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
