//! A WAP32 level (Claw, Gruntz) as a Tiled [`Map`], drawn by Tiled where the engine draws
//! it (`docs/formats/tiled.md`, "WWD levels"; the engine's rules are
//! `docs/formats/wap32.md`'s, "Levels", as [`gamedata_render::wwd::Scene`] draws them).
//!
//! - The map is the main plane: its tiles across and down, its tile size the grid.
//! - Each plane is a tile layer, in the level's order, hidden when the plane is flagged
//!   not to be drawn (0x2); its movement percentages are the layer's parallax factors. A
//!   plane that wraps is repeated over the map along the axes it wraps in; one that does
//!   not shows its own tiles from the top-left corner. A plane with tiles outside the map
//!   keeps all of its tiles, raw, in the property `wwd_tiles`.
//! - Each tile set of the planes is a tileset with one image (an atlas of
//!   [`ATLAS_COLUMNS`] columns), one tile for each tile id the planes use, each image cut
//!   to the tile size from its top-left corner (the engine draws a tile at its cell's
//!   top-left corner, clipped to the cell); a tile whose image is missing is transparent.
//!   Fill-colour tiles (0xEEEEEEEE) are tiles of a tileset `fill`, one a plane's fill
//!   colour.
//! - Objects are tile objects of a tileset `objects` (a collection of images, aligned by
//!   the top-left corner), placed at the image's top-left corner as the engine places it,
//!   mirrored and upside down with Tiled's flip bits. They are in object layers between
//!   the tile layers in the engine's order (objects sorted by z; with the header's z flag
//!   before the first plane whose z is above theirs, else after the main plane). An object
//!   the engine does not draw (outside its plane, without a logic, hidden, without an
//!   image set, or whose image is missing) is a hidden point at its position. Each tile of
//!   `objects` has the properties `wwd_offset_x`, `wwd_offset_y` (its image's offset,
//!   which places it), and `wwd_logic`, `wwd_image_set`, `wwd_i`, `wwd_animation` of the
//!   first object drawing it: what [`crate::from_tmx`] needs to read an object moved or
//!   added in Tiled.
//! - Every field of the header, of each plane and of each object is a custom property,
//!   named `wwd_` and the field's name (`docs/formats/tiled.md` lists them); the tile
//!   property table, as stored, is the map's property `wwd_tile_properties` (hex).
//!
//! What an export costs, whatever the level: each tile layer holds the map's cells (the
//! main plane's, four bytes each in the level), refused past
//! `Limits::max_decoded_bytes / 4` cells in all the layers; `wwd_tiles` holds a plane's own
//! cells and `wwd_tile_properties` the table's bytes, two characters each; the tileset
//! images hold one tile-sized image a distinct tile value of the
//! planes, and the object images one a distinct image the objects draw, refused past
//! `Limits::max_decoded_bytes` of RGBA in all; images are decoded within the same limit
//! ([`LevelImages`]).

use std::collections::HashMap;
use std::fmt::Write as _;

use gamedata_render::RgbaImage;
use gamedata_render::wwd::{LevelImages, PlaneImages};
use wap_core::{CodePage, ImageSource, Level, Limits, Object, Plane, PlaneFlags, Tile};

use crate::TiledError;
use crate::map::{
    FLIP_HORIZONTAL, FLIP_VERTICAL, Layer, LayerData, Map, MapObject, Property, TileInfo, Tileset,
};

/// Columns of tiles in a tile set's atlas image.
pub const ATLAS_COLUMNS: u32 = 16;

/// What [`export`] makes.
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

/// A tile of a tile set's or the fill tileset: what its cells hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum TileKey {
    /// Tile `id` of the tile set named `set`.
    Image { set: String, id: u16 },
    /// The fill colour of planes whose fill is `index`.
    Fill { index: i32 },
}

/// The tiles the planes use, each once, with their image.
#[derive(Default)]
struct TileTable {
    keys: Vec<TileKey>,
    /// The decoded image of each key (`None`: missing), or the fill colour.
    looks: Vec<Look>,
    by_key: HashMap<TileKey, u32>,
}

#[derive(Clone, Copy)]
enum Look {
    Image(Option<usize>),
    Fill([u8; 4]),
}

impl TileTable {
    /// The number (from 1) of `key`, added with `look` the first time.
    fn number(&mut self, key: TileKey, look: Look) -> u32 {
        if let Some(n) = self.by_key.get(&key) {
            return *n;
        }
        let n = u32::try_from(self.keys.len())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        self.by_key.insert(key.clone(), n);
        self.keys.push(key);
        self.looks.push(look);
        n
    }
}

/// Text of a level's field for a property: the code page's characters, or `None` when one
/// of them is a control character, which XML cannot hold or which would not read back
/// (attribute values' line ends and tabs become spaces).
fn text(bytes: &[u8]) -> Option<String> {
    let s = wap_core::decode(bytes, CodePage::Cp1252).into_owned();
    (!s.chars().any(char::is_control)).then_some(s)
}

/// Pushes the text field `name` of `bytes`: a string, or its bytes in hex as `name_hex`
/// when [`text`] cannot hold it.
fn push_text(props: &mut Vec<Property>, name: &str, bytes: &[u8]) {
    match text(bytes) {
        Some(s) => props.push(Property::string(name, s)),
        None => props.push(Property::string(format!("{name}_hex"), hex(bytes))),
    }
}

/// A 32-bit word of flags as Tiled's (signed 32-bit) int: the same bits.
fn word(v: u32) -> i64 {
    i64::from(i32::from_le_bytes(v.to_le_bytes()))
}

/// The header's fields as the map's properties.
fn header_properties(level: &Level<'_>) -> Vec<Property> {
    let h = level.header();
    let raw = h.raw();
    let mut p = vec![
        Property::string("wwd_game", level.game().name()),
        Property::int("wwd_size", raw.size.get()),
        Property::int("wwd_reserved1", word(raw.reserved1.get())),
        Property::int("wwd_flags", word(raw.flags.get())),
        Property::int("wwd_reserved2", word(raw.reserved2.get())),
    ];
    push_text(&mut p, "wwd_name", wap_core::field_text(&raw.name));
    push_text(&mut p, "wwd_author", wap_core::field_text(&raw.author));
    push_text(&mut p, "wwd_birth", wap_core::field_text(&raw.birth));
    push_text(&mut p, "wwd_rez_file", wap_core::field_text(&raw.rez_file));
    push_text(
        &mut p,
        "wwd_image_dir",
        wap_core::field_text(&raw.image_dir),
    );
    push_text(&mut p, "wwd_pal_rez", wap_core::field_text(&raw.pal_rez));
    p.push(Property::int("wwd_start_x", raw.start_x.get()));
    p.push(Property::int("wwd_start_y", raw.start_y.get()));
    p.push(Property::int("wwd_reserved3", word(raw.reserved3.get())));
    p.push(Property::int("wwd_plane_count", raw.plane_count.get()));
    p.push(Property::int("wwd_planes_offset", raw.planes_offset.get()));
    p.push(Property::int(
        "wwd_tile_properties_offset",
        raw.tile_properties_offset.get(),
    ));
    p.push(Property::int(
        "wwd_main_block_size",
        raw.main_block_size.get(),
    ));
    p.push(Property::int("wwd_checksum", word(raw.checksum.get())));
    p.push(Property::int("wwd_reserved4", word(raw.reserved4.get())));
    push_text(
        &mut p,
        "wwd_launch_app",
        wap_core::field_text(&raw.launch_app),
    );
    for (n, (set, prefix)) in raw.image_sets.iter().zip(&raw.prefixes).enumerate() {
        let n = n.saturating_add(1);
        push_text(
            &mut p,
            &format!("wwd_image_set{n}"),
            wap_core::field_text(set),
        );
        push_text(
            &mut p,
            &format!("wwd_prefix{n}"),
            wap_core::field_text(prefix),
        );
    }
    p
}

/// The tile property table's bytes (its header and records, as stored) as hex, for the
/// map's property `wwd_tile_properties`: what a level written back from the map needs.
fn tile_properties_hex(level: &Level<'_>) -> Result<String, TiledError> {
    let table = level.tile_properties()?;
    let start = table.offset();
    let mut end = start.saturating_add(32);
    for record in table.iter() {
        let record = record?;
        end = end.max(record.offset().saturating_add(record.stored_len()));
    }
    let bytes = level.image().get(start..end).unwrap_or_default();
    Ok(hex(bytes))
}

/// `bytes` as lower-case hex, two digits a byte.
fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().saturating_mul(2));
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// A plane's fields as its layer's properties.
fn plane_properties(plane: &Plane<'_>) -> Result<Vec<Property>, TiledError> {
    let raw = plane.raw();
    let index = i64::try_from(plane.index()).unwrap_or(i64::MAX);
    let mut p = vec![
        Property::int("wwd_plane", index),
        Property::int("wwd_size", raw.size.get()),
    ];
    p.push(Property::int("wwd_reserved1", word(raw.reserved1.get())));
    p.push(Property::int("wwd_flags", word(raw.flags.get())));
    p.push(Property::int("wwd_reserved2", word(raw.reserved2.get())));
    push_text(&mut p, "wwd_name", wap_core::field_text(&raw.name));
    p.push(Property::int("wwd_width_px", raw.width_px.get()));
    p.push(Property::int("wwd_height_px", raw.height_px.get()));
    p.push(Property::int("wwd_tile_width", raw.tile_width.get()));
    p.push(Property::int("wwd_tile_height", raw.tile_height.get()));
    p.push(Property::int("wwd_tiles_wide", raw.tiles_wide.get()));
    p.push(Property::int("wwd_tiles_high", raw.tiles_high.get()));
    p.push(Property::int("wwd_reserved3", word(raw.reserved3.get())));
    p.push(Property::int("wwd_reserved4", word(raw.reserved4.get())));
    p.push(Property::int(
        "wwd_movement_x_percent",
        raw.movement_x_percent.get(),
    ));
    p.push(Property::int(
        "wwd_movement_y_percent",
        raw.movement_y_percent.get(),
    ));
    p.push(Property::int("wwd_fill_color", raw.fill_color.get()));
    p.push(Property::int(
        "wwd_image_set_count",
        raw.image_set_count.get(),
    ));
    p.push(Property::int("wwd_object_count", raw.object_count.get()));
    p.push(Property::int("wwd_tiles_offset", raw.tiles_offset.get()));
    p.push(Property::int(
        "wwd_image_sets_offset",
        raw.image_sets_offset.get(),
    ));
    p.push(Property::int(
        "wwd_objects_offset",
        raw.objects_offset.get(),
    ));
    p.push(Property::int("wwd_z", raw.z.get()));
    p.push(Property::int("wwd_reserved5", word(raw.reserved5.get())));
    p.push(Property::int("wwd_reserved6", word(raw.reserved6.get())));
    p.push(Property::int("wwd_reserved7", word(raw.reserved7.get())));
    for (n, set) in plane.image_sets().enumerate() {
        push_text(
            &mut p,
            &format!("wwd_image_set{}", n.saturating_add(1)),
            set?,
        );
    }
    Ok(p)
}

/// A rectangle as the text `left,top,right,bottom`.
fn rect(r: &wap_core::Rect) -> String {
    format!(
        "{},{},{},{}",
        r.left.get(),
        r.top.get(),
        r.right.get(),
        r.bottom.get()
    )
}

/// An object's fields as its properties, with its plane and place in the plane's list.
fn object_properties(object: &Object<'_>, plane: usize, order: usize) -> Vec<Property> {
    let o = object.raw();
    let n = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
    let mut p = vec![
        Property::int("wwd_plane", n(plane)),
        Property::int("wwd_order", n(order)),
        Property::int("wwd_id", o.id.get()),
    ];
    push_text(&mut p, "wwd_name", object.name());
    push_text(&mut p, "wwd_logic", object.logic());
    push_text(&mut p, "wwd_image_set", object.image_set());
    push_text(&mut p, "wwd_animation", object.animation());
    for (name, v) in [
        ("wwd_x", o.x.get()),
        ("wwd_y", o.y.get()),
        ("wwd_z", o.z.get()),
        ("wwd_i", o.i.get()),
    ] {
        p.push(Property::int(name, v));
    }
    for (name, v) in [
        ("wwd_add_flags", o.add_flags.get()),
        ("wwd_dynamic_flags", o.dynamic_flags.get()),
        ("wwd_draw_flags", o.draw_flags.get()),
        ("wwd_user_flags", o.user_flags.get()),
    ] {
        p.push(Property::int(name, word(v)));
    }
    for (name, v) in [
        ("wwd_score", o.score.get()),
        ("wwd_points", o.points.get()),
        ("wwd_powerup", o.powerup.get()),
        ("wwd_damage", o.damage.get()),
        ("wwd_smarts", o.smarts.get()),
        ("wwd_health", o.health.get()),
    ] {
        p.push(Property::int(name, v));
    }
    for (name, r) in [
        ("wwd_move_rect", &o.move_rect),
        ("wwd_hit_rect", &o.hit_rect),
        ("wwd_attack_rect", &o.attack_rect),
        ("wwd_clip_rect", &o.clip_rect),
        ("wwd_user_rect1", &o.user_rect1),
        ("wwd_user_rect2", &o.user_rect2),
    ] {
        p.push(Property::string(name, rect(r)));
    }
    let user: Vec<String> = o.user.iter().map(|v| v.get().to_string()).collect();
    p.push(Property::string("wwd_user", user.join(",")));
    for (name, v) in [
        ("wwd_min_x", o.min_x.get()),
        ("wwd_min_y", o.min_y.get()),
        ("wwd_max_x", o.max_x.get()),
        ("wwd_max_y", o.max_y.get()),
        ("wwd_speed_x", o.speed_x.get()),
        ("wwd_speed_y", o.speed_y.get()),
        ("wwd_tweak_x", o.tweak_x.get()),
        ("wwd_tweak_y", o.tweak_y.get()),
        ("wwd_counter", o.counter.get()),
        ("wwd_speed", o.speed.get()),
        ("wwd_width", o.width.get()),
        ("wwd_height", o.height.get()),
        ("wwd_direction", o.direction.get()),
        ("wwd_face_dir", o.face_dir.get()),
        ("wwd_time_delay", o.time_delay.get()),
        ("wwd_frame_delay", o.frame_delay.get()),
    ] {
        p.push(Property::int(name, v));
    }
    for (name, v) in [
        ("wwd_object_type", o.object_type.get()),
        ("wwd_hit_type_flags", o.hit_type_flags.get()),
        ("wwd_move_res_x", o.move_res_x.get()),
        ("wwd_move_res_y", o.move_res_y.get()),
    ] {
        p.push(Property::int(name, word(v)));
    }
    p
}

/// An object on its way to a layer.
struct Placed {
    z: i32,
    object: MapObject,
    /// The decoded image it draws, for its gid.
    image: Option<usize>,
    /// What a new object drawing the same image needs (its tile's properties in the
    /// tileset `objects`): the image's offset, the object's logic, image set, frame and
    /// animation.
    tile_properties: Vec<Property>,
}

/// A side of 1 to 1,024 pixels, or `None`.
fn side(v: i32) -> Option<u32> {
    u32::try_from(v).ok().filter(|s| (1..=1024).contains(s))
}

/// The raw value shown at map cell (`x`, `y`) by `plane` (repeated along the axes it
/// wraps in); `None` where it shows nothing.
fn shown(plane: &Plane<'_>, x: u32, y: u32) -> Option<u32> {
    let flags = plane.flags();
    let (w, h) = (plane.tiles_wide(), plane.tiles_high());
    let px = if flags.contains(PlaneFlags::WRAP_X) {
        x.checked_rem(w)?
    } else {
        x
    };
    let py = if flags.contains(PlaneFlags::WRAP_Y) {
        y.checked_rem(h)?
    } else {
        y
    };
    plane.tile_raw(px, py)
}

/// Exports `level` with its images from `source` (a REZ archive or a folder of extracted
/// files) as a Tiled map and its images (see the module's documentation).
///
/// Returns [`TiledError::Level`] when a plane or object list cannot be read,
/// [`TiledError::NoMainPlane`] for a level without a main plane, [`TiledError::TileSize`]
/// when a plane's tile size is not 1 to 1,024 pixels a side or differs from the main
/// plane's (a Tiled map has one grid), [`TiledError::TooLarge`] past the bounds of the
/// module's documentation, and [`TiledError::Render`] when the source cannot be indexed.
pub fn export(
    level: &Level<'_>,
    source: &ImageSource,
    options: &ExportOptions,
    limits: &Limits,
) -> Result<Export, TiledError> {
    let mut images = LevelImages::new(level, source, limits)?;
    let main = level.main_plane().ok_or(TiledError::NoMainPlane)??;
    let (mtw, mth) = main.tile_size();
    let (Some(tw), Some(th)) = (side(mtw), side(mth)) else {
        return Err(tile_size_error(&main, (mtw, mth)));
    };
    let (width, height) = (main.tiles_wide(), main.tiles_high());
    let cells = u64::from(width).saturating_mul(u64::from(height));
    let planes = u64::try_from(level.plane_count()).unwrap_or(u64::MAX);
    let cap = limits.max_decoded_bytes / 4;
    if cells.saturating_mul(planes) > cap {
        return Err(TiledError::TooLarge {
            what: "tile layer cells",
            found: cells.saturating_mul(planes),
            limit: cap,
        });
    }
    let cells = usize::try_from(cells).map_err(|_| TiledError::TooLarge {
        what: "tile layer cells",
        found: cells,
        limit: cap,
    })?;
    let mut table = TileTable::default();
    // Tile layers (numbered cells, made gids once the tilesets are laid out) and objects.
    let mut plane_layers: Vec<(Layer, i32, usize)> = Vec::new();
    let mut placed: Vec<Placed> = Vec::new();
    for plane in level.planes() {
        let plane = plane?;
        let (ptw, pth) = plane.tile_size();
        if (side(ptw), side(pth)) != (Some(tw), Some(th)) {
            return Err(tile_size_error(&plane, (ptw, pth)));
        }
        let found = images.plane(&plane);
        let set_names: Vec<Option<String>> = plane
            .image_sets()
            .map(|s| s.map(|s| Some(wap_core::decode(s, CodePage::Cp1252).into_owned())))
            .collect::<Result<_, _>>()?;
        let mut data = vec![0u32; cells];
        let mut last: Option<(u32, u32)> = None;
        for (i, cell) in data.iter_mut().enumerate() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            let (x, y) = (
                i.checked_rem(width).unwrap_or(0),
                i.checked_div(width).unwrap_or(0),
            );
            let Some(raw) = shown(&plane, x, y) else {
                continue;
            };
            if let Some((v, n)) = last
                && v == raw
            {
                *cell = n;
                continue;
            }
            let n = number(&mut table, &images, found.as_ref(), &plane, &set_names, raw);
            last = Some((raw, n));
            *cell = n;
        }
        let mut properties = plane_properties(&plane)?;
        if plane.tiles_wide() > width || plane.tiles_high() > height {
            let all: Vec<u32> = plane.tiles().iter().map(|t| t.get()).collect();
            properties.push(Property::string(
                "wwd_tiles",
                crate::tmx::csv(&all, plane.tiles_wide()).trim().to_owned(),
            ));
        }
        let (mx, my) = plane.movement_percent();
        let name = text(plane.name()).unwrap_or_else(|| format!("plane {}", plane.index()));
        plane_layers.push((
            Layer {
                id: 0,
                name,
                visible: !plane.flags().contains(PlaneFlags::NO_DRAW),
                parallax: (f64::from(mx) / 100.0, f64::from(my) / 100.0),
                data: LayerData::Tiles(data),
                properties,
            },
            plane.z(),
            plane.index(),
        ));
        let (w, h) = plane.size_px_i64();
        for (order, object) in plane.objects().enumerate() {
            let object = object?;
            let placement = images.object(&object, (w, h));
            let properties = object_properties(&object, plane.index(), order);
            let (x, y) = object.position();
            let mut map_object = MapObject {
                id: 0,
                name: text(object.name()).unwrap_or_default(),
                class: text(object.logic()).unwrap_or_default(),
                gid: None,
                x: i64::from(x),
                y: i64::from(y),
                width: 0,
                height: 0,
                visible: false,
                properties,
            };
            let mut image = None;
            let mut tile_properties = Vec::new();
            if let Some(p) = placement
                && let Some(view) = images.image(p.image)
            {
                let mut flips = 0;
                if p.mirror {
                    flips |= FLIP_HORIZONTAL;
                }
                if p.invert {
                    flips |= FLIP_VERTICAL;
                }
                map_object.gid = Some(flips);
                // The image's own offset, read back from where it was placed:
                // left = x - width / 2 + offset (the offset negated when flipped).
                let half = |v: u32| i64::from(v).checked_div(2).unwrap_or(0);
                let dx = p
                    .left
                    .saturating_sub(i64::from(x))
                    .saturating_add(half(view.width));
                let dy = p
                    .top
                    .saturating_sub(i64::from(y))
                    .saturating_add(half(view.height));
                let dx = if p.mirror { dx.saturating_neg() } else { dx };
                let dy = if p.invert { dy.saturating_neg() } else { dy };
                tile_properties = vec![
                    Property::int("wwd_offset_x", dx),
                    Property::int("wwd_offset_y", dy),
                ];
                push_text(&mut tile_properties, "wwd_logic", object.logic());
                push_text(&mut tile_properties, "wwd_image_set", object.image_set());
                tile_properties.push(Property::int("wwd_i", object.raw().i.get()));
                push_text(&mut tile_properties, "wwd_animation", object.animation());
                map_object.x = p.left;
                map_object.y = p.top;
                map_object.width = view.width;
                map_object.height = view.height;
                map_object.visible = true;
                image = Some(p.image);
            }
            placed.push(Placed {
                z: object.z(),
                object: map_object,
                image,
                tile_properties,
            });
        }
    }
    let (tilesets, out_images, gids, object_gids) =
        lay_out_tilesets(&table, &placed, &images, (tw, th), options, limits)?;
    // Cells and objects get their global ids.
    for (layer, _, _) in &mut plane_layers {
        if let LayerData::Tiles(data) = &mut layer.data {
            for cell in data.iter_mut() {
                *cell = match cell.checked_sub(1) {
                    Some(k) => usize::try_from(k)
                        .ok()
                        .and_then(|k| gids.get(k))
                        .copied()
                        .unwrap_or(0),
                    None => 0,
                };
            }
        }
    }
    for p in &mut placed {
        if let (Some(flips), Some(image)) = (p.object.gid, p.image) {
            let gid = object_gids.get(&image).copied().unwrap_or(0);
            p.object.gid = Some(gid | flips);
        }
    }
    let layers = engine_order(plane_layers, placed, level.header().uses_z(), main.index());
    let mut properties = header_properties(level);
    properties.push(Property::string(
        "wwd_tile_properties",
        tile_properties_hex(level)?,
    ));
    let map = Map {
        width,
        height,
        tile_width: tw,
        tile_height: th,
        tilesets,
        layers,
        properties,
    };
    Ok(Export {
        map,
        images: out_images,
        report: images.report().clone(),
    })
}

fn tile_size_error(plane: &Plane<'_>, (width, height): (i32, i32)) -> TiledError {
    TiledError::TileSize {
        plane: plane.index(),
        name: wap_core::decode(plane.name(), CodePage::Cp1252).into_owned(),
        width,
        height,
    }
}

/// The number of the tile raw value `raw` of `plane` shows.
fn number(
    table: &mut TileTable,
    images: &LevelImages<'_>,
    found: Option<&PlaneImages>,
    plane: &Plane<'_>,
    set_names: &[Option<String>],
    raw: u32,
) -> u32 {
    match Tile::from_raw(raw) {
        Tile::Invisible => 0,
        Tile::Filled => {
            let colour = found.map_or([0, 0, 0, 255], PlaneImages::fill);
            table.number(
                TileKey::Fill {
                    index: plane.fill_color(),
                },
                Look::Fill(colour),
            )
        }
        Tile::Image { set, id } => {
            let name = set_names
                .get(usize::from(set))
                .cloned()
                .flatten()
                .unwrap_or_else(|| format!("set {set}"));
            let image = found.and_then(|f| images.tile(f, set, id));
            table.number(TileKey::Image { set: name, id }, Look::Image(image))
        }
    }
}

/// A file name's part made of `name`: letters, digits, `-` and `_` kept, others `_`.
fn file_part(name: &str) -> String {
    name.chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

type Laid = (
    Vec<Tileset>,
    Vec<ExportImage>,
    Vec<u32>,
    HashMap<usize, u32>,
);

/// The tilesets (a tile set's atlas each, the fill tiles, the objects' images), their
/// images, the gid of each tile number and of each object image.
fn lay_out_tilesets(
    table: &TileTable,
    placed: &[Placed],
    images: &LevelImages<'_>,
    (tw, th): (u32, u32),
    options: &ExportOptions,
    limits: &Limits,
) -> Result<Laid, TiledError> {
    let dir = if options.images_dir.is_empty() {
        String::new()
    } else {
        format!("{}/", options.images_dir.trim_end_matches('/'))
    };
    let mut budget = Budget {
        used: 0,
        limit: limits.max_decoded_bytes,
    };
    // Groups: each tile set's numbers in id order, then the fill tiles.
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    let mut fills = Vec::new();
    for (k, key) in table.keys.iter().enumerate() {
        match key {
            TileKey::Image { set, .. } => match groups.iter_mut().find(|(s, _)| s == set) {
                Some((_, list)) => list.push(k),
                None => groups.push((set.clone(), vec![k])),
            },
            TileKey::Fill { .. } => fills.push(k),
        }
    }
    for (_, list) in &mut groups {
        list.sort_by_key(|&k| match table.keys.get(k) {
            Some(TileKey::Image { id, .. }) => *id,
            _ => 0,
        });
    }
    let mut tilesets = Vec::new();
    let mut out = Vec::new();
    let mut gids = vec![0u32; table.keys.len()];
    let mut first_gid = 1u32;
    let atlas_groups = groups
        .iter()
        .map(|(s, l)| (s.clone(), l.clone(), false))
        .chain((!fills.is_empty()).then(|| ("fill".to_owned(), fills.clone(), true)));
    for (n, (name, list, fill)) in atlas_groups.enumerate() {
        let count = u32::try_from(list.len()).map_err(|_| budget.refuse(u64::MAX))?;
        let columns = count.clamp(1, ATLAS_COLUMNS);
        let rows = count.div_ceil(columns);
        let (aw, ah) = (columns.saturating_mul(tw), rows.max(1).saturating_mul(th));
        budget.charge(
            u64::from(aw)
                .saturating_mul(u64::from(ah))
                .saturating_mul(4),
        )?;
        let mut atlas = RgbaImage::new(aw, ah, [0; 4])?;
        let mut tiles = Vec::new();
        for (local, &k) in list.iter().enumerate() {
            let local = u32::try_from(local).unwrap_or(u32::MAX);
            if let Some(g) = gids.get_mut(k) {
                *g = first_gid.saturating_add(local);
            }
            let (cx, cy) = (
                local.checked_rem(columns).unwrap_or(0).saturating_mul(tw),
                local.checked_div(columns).unwrap_or(0).saturating_mul(th),
            );
            match table.looks.get(k) {
                Some(Look::Fill(colour)) => {
                    for y in 0..th {
                        for x in 0..tw {
                            atlas.set(cx.saturating_add(x), cy.saturating_add(y), *colour);
                        }
                    }
                }
                Some(Look::Image(Some(i))) => {
                    if let Some(view) = images.image(*i) {
                        blit(&mut atlas, &view, (cx, cy), (tw, th));
                    }
                }
                _ => {}
            }
            let property = match table.keys.get(k) {
                Some(TileKey::Image { id, .. }) => Property::int("wwd_tile", *id),
                Some(TileKey::Fill { index }) => Property::int("wwd_fill_color", *index),
                None => continue,
            };
            tiles.push(TileInfo {
                id: local,
                image: None,
                properties: vec![property],
            });
        }
        let path = if fill {
            format!("{dir}fill.png")
        } else {
            format!("{dir}tiles-{n}-{}.png", file_part(&name))
        };
        let properties = if fill {
            Vec::new()
        } else {
            vec![Property::string("wwd_image_set", name.clone())]
        };
        tilesets.push(Tileset {
            first_gid,
            name,
            tile_width: tw,
            tile_height: th,
            tile_count: count,
            columns,
            image: Some((path.clone(), aw, ah)),
            align_top_left: false,
            tiles,
            properties,
        });
        out.push(ExportImage { path, image: atlas });
        first_gid = first_gid.saturating_add(count);
    }
    // The objects' images: a collection, one tile a distinct image, aligned top-left.
    let mut object_gids = HashMap::new();
    let mut tiles = Vec::new();
    let (mut max_w, mut max_h) = (1u32, 1u32);
    for p in placed {
        let Some(i) = p.image else { continue };
        if object_gids.contains_key(&i) {
            continue;
        }
        let Some(view) = images.image(i) else {
            continue;
        };
        let local = u32::try_from(tiles.len()).unwrap_or(u32::MAX);
        budget.charge(
            u64::try_from(view.rgba.len())
                .unwrap_or(u64::MAX)
                .saturating_mul(4),
        )?;
        let pixels: Vec<u8> = view.rgba.iter().flatten().copied().collect();
        let Some(image) = RgbaImage::from_pixels(view.width, view.height, pixels) else {
            continue;
        };
        let path = format!("{dir}objects/{local}.png");
        max_w = max_w.max(view.width);
        max_h = max_h.max(view.height);
        tiles.push(TileInfo {
            id: local,
            image: Some((path.clone(), view.width, view.height)),
            properties: p.tile_properties.clone(),
        });
        out.push(ExportImage { path, image });
        object_gids.insert(i, first_gid.saturating_add(local));
    }
    if !tiles.is_empty() {
        let count = u32::try_from(tiles.len()).unwrap_or(u32::MAX);
        tilesets.push(Tileset {
            first_gid,
            name: "objects".to_owned(),
            tile_width: max_w,
            tile_height: max_h,
            tile_count: count,
            columns: 0,
            image: None,
            align_top_left: true,
            tiles,
            properties: Vec::new(),
        });
    }
    Ok((tilesets, out, gids, object_gids))
}

/// Bytes of RGBA the export's images may take in all.
struct Budget {
    used: u64,
    limit: u64,
}

impl Budget {
    fn charge(&mut self, bytes: u64) -> Result<(), TiledError> {
        let used = self.used.saturating_add(bytes);
        if used > self.limit {
            return Err(self.refuse(used));
        }
        self.used = used;
        Ok(())
    }

    fn refuse(&self, found: u64) -> TiledError {
        TiledError::TooLarge {
            what: "bytes of tileset and object images",
            found,
            limit: self.limit,
        }
    }
}

/// Copies `view`'s pixels at (`x0`, `y0`) of `atlas`, cut to `tw` x `th` from its top-left
/// corner.
fn blit(
    atlas: &mut RgbaImage,
    view: &gamedata_render::wwd::ImageView<'_>,
    (x0, y0): (u32, u32),
    (tw, th): (u32, u32),
) {
    let w = usize::try_from(view.width).unwrap_or(0);
    for (y, row) in view.rgba.chunks(w.max(1)).enumerate().take(th as usize) {
        let y = u32::try_from(y).unwrap_or(u32::MAX);
        for (x, px) in row.iter().enumerate().take(tw as usize) {
            let x = u32::try_from(x).unwrap_or(u32::MAX);
            atlas.set(x0.saturating_add(x), y0.saturating_add(y), *px);
        }
    }
}

/// The layers in the engine's order (as `gamedata_render::wwd::Scene` orders them): the
/// objects sorted by z (equal z in the level's order); with the z flag, before each plane
/// after the first the objects whose z is below its z, the others after the last plane;
/// without it, all after the main plane. Ids are given from 1, layers and objects.
fn engine_order(
    planes: Vec<(Layer, i32, usize)>,
    mut objects: Vec<Placed>,
    uses_z: bool,
    main: usize,
) -> Vec<Layer> {
    objects.sort_by_key(|p| p.z);
    let mut objects = objects.into_iter().peekable();
    let mut layers: Vec<Layer> = Vec::new();
    let group = |list: Vec<MapObject>, name: String| Layer {
        id: 0,
        name,
        visible: true,
        parallax: (1.0, 1.0),
        data: LayerData::Objects(list),
        properties: Vec::new(),
    };
    for (position, (layer, z, index)) in planes.into_iter().enumerate() {
        let before: Vec<MapObject> = if uses_z {
            if position > 0 {
                std::iter::from_fn(|| objects.next_if(|p| p.z < z))
                    .map(|p| p.object)
                    .collect()
            } else {
                Vec::new()
            }
        } else if index > main {
            objects.by_ref().map(|p| p.object).collect()
        } else {
            Vec::new()
        };
        if !before.is_empty() {
            layers.push(group(before, format!("objects under {}", layer.name)));
        }
        layers.push(layer);
    }
    let rest: Vec<MapObject> = objects.map(|p| p.object).collect();
    if !rest.is_empty() {
        layers.push(group(rest, "objects".to_owned()));
    }
    let mut object_id = 0u32;
    for (n, layer) in layers.iter_mut().enumerate() {
        layer.id = u32::try_from(n).unwrap_or(u32::MAX).saturating_add(1);
        if let LayerData::Objects(list) = &mut layer.data {
            for o in list {
                object_id = object_id.saturating_add(1);
                o.id = object_id;
            }
        }
    }
    layers
}

/// A plane's size in pixels as wide integers.
trait SizePx {
    fn size_px_i64(&self) -> (i64, i64);
}

impl SizePx for Plane<'_> {
    fn size_px_i64(&self) -> (i64, i64) {
        let (tw, th) = self.tile_size();
        (
            i64::from(tw).saturating_mul(i64::from(self.tiles_wide())),
            i64::from(th).saturating_mul(i64::from(self.tiles_high())),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_go_as_hex() {
        let mut p = Vec::new();
        push_text(&mut p, "wwd_name", b"A&B <c>");
        push_text(&mut p, "wwd_logic", b"a\nb\x00");
        assert_eq!(p[0], Property::string("wwd_name", "A&B <c>"));
        assert_eq!(p[1], Property::string("wwd_logic_hex", "610a6200"));
        assert_eq!(word(0xFFFF_FFFF), -1);
    }
}
