//! A Cosmo's Cosmic Adventure map as a Tiled [`Map`], drawn by Tiled as
//! [`gamedata_render::cosmo::draw_level`] draws it (`gamedata cosmo map --render`): the
//! game's rules are `docs/formats/cosmo.md`'s ("Maps", "Backdrops", "Sprites", "Actors"),
//! the Tiled facts `docs/formats/tiled.md`'s ("Cosmo maps in Tiled").
//!
//! Layers, first drawn first:
//!
//! - `backdrop` (with [`ExportOptions::backdrop`]): the map's backdrop, 320 x 144 pixels,
//!   repeated from the map's top-left corner: an image layer with `repeatx` and `repeaty`
//!   ([`BackdropForm::ImageLayer`], for TMX), or a tile layer of a tileset of the backdrop's
//!   720 tiles ([`BackdropForm::Tiles`], for TMJ: Tiled 1.8.2's JSON reader drops the
//!   repeat flags).
//! - `tiles`: every cell the game draws (value 80 and above): solid tiles from the tileset
//!   `solid` (TILES.MNI, one tile an image, [`ATLAS_COLUMNS`] a row), masked tiles from
//!   `masked` (MASKTILE.MNI, transparent where the mask says). A cell whose image index is
//!   past its table is left empty and counted in [`ExportReport::missing`].
//! - `below 80` (hidden): the other non-zero cells (solid tiles 1 to 9: a blank tile and
//!   the arrows that mark moving-platform paths), which the game does not draw.
//! - `actors` (with [`ExportOptions::actors`]): each actor the game draws at level start as
//!   a tile object of the tileset `actors` (a collection of images, one a sprite type: its
//!   first frame; aligned by the top-left corner), at its frame's top-left corner
//!   ([`ActorSprite::top_left`]), flipped top to bottom with Tiled's bit 30 for the two
//!   ceiling actors; in map order. Special actors, hidden types, types the game does not
//!   define and frames that cannot be read are hidden points at the actor's tile.
//! - `in front` (with actors): the cells whose tile has the attribute "in front", which the
//!   game draws again over the sprites (drawing a tile again over itself changes no pixel, so
//!   every such cell is there, not only those an actor overlaps).
//!
//! Every field is a custom property named `cosmo_` and the field: the header's on the map,
//! each actor's on its object, each tileset's entry name.
//!
//! What an export costs, whatever the map: the map is at most 32,768 cells (a 2-byte value
//! each in the file), each tile layer holds that many ids; the images hold 256 bytes of
//! RGBA a tile of TILES.MNI and MASKTILE.MNI, 184,320 bytes for the backdrop and 256 bytes
//! a tile of each distinct sprite frame the actors draw, refused past
//! `Limits::max_decoded_bytes` in all ([`TiledError::TooLarge`]).

use std::collections::HashMap;

use gamedata_render::RgbaImage;
use gamedata_render::cosmo::draw_backdrop;
use mni_core::tiles::ega_rgba;
use mni_core::{
    ActorDraw, ActorKind, ActorSprite, Backdrop, Episode, MapTile, SpriteFrame, TilePixels,
    backdrop_name,
};
use wap_core::Limits;

use crate::TiledError;
use crate::map::{
    FLIP_VERTICAL, Layer, LayerData, LayerImage, Map, MapObject, Property, TileInfo, Tileset, Value,
};
pub use crate::wwd::ExportImage;

/// Columns of tiles in the `solid`, `masked` and `backdrop` tilesets' images.
pub const ATLAS_COLUMNS: u32 = 40;

/// The game's tile size in pixels: the map's grid.
pub const TILE: u32 = 8;

/// How the backdrop is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BackdropForm {
    /// An image layer repeated across and down (`repeatx`, `repeaty`): for TMX.
    ImageLayer,
    /// A tile layer of the backdrop's tiles, repeated by hand: for TMJ, whose `repeatx` and
    /// `repeaty` Tiled 1.8.2 drops.
    Tiles,
}

/// What [`export`] makes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportOptions {
    /// The folder of the images, relative to the map file, as the map names them
    /// (`a1_images`); the images' paths start with it.
    pub images_dir: String,
    /// The backdrop layer, and its form; `None`: no backdrop.
    pub backdrop: Option<BackdropForm>,
    /// The actors layer and the `in front` layer.
    pub actors: bool,
}

impl ExportOptions {
    /// Options with the images in `dir` (relative to the map).
    pub fn with_images_dir(mut self, dir: impl Into<String>) -> Self {
        self.images_dir = dir.into();
        self
    }

    /// Options with the backdrop in `form`, or none.
    pub fn with_backdrop(mut self, form: Option<BackdropForm>) -> Self {
        self.backdrop = form;
        self
    }

    /// Options with the actors or without.
    pub fn with_actors(mut self, actors: bool) -> Self {
        self.actors = actors;
        self
    }
}

/// What [`export`] found, as `draw_level` reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportReport {
    /// Cells of the `tiles` layer.
    pub tiles_drawn: u64,
    /// Cells the game draws whose image index is past its table (left empty).
    pub missing: u64,
    /// Actors drawn as tile objects.
    pub actors_drawn: u64,
    /// Actors the game never draws (hidden sprite types).
    pub actors_hidden: u64,
    /// Special actors (stored type below 31).
    pub actors_special: u64,
    /// Actors whose type the game does not define or whose frame cannot be read: one
    /// sentence each.
    pub actors_not_drawn: Vec<String>,
    /// Cells of the `in front` layer.
    pub in_front: u64,
    /// The backdrop's entry (`BDNEWSKY.MNI` ...), when exported.
    pub backdrop: Option<&'static str>,
}

/// A map exported: the Tiled map, the images it names, what was found.
#[derive(Debug)]
pub struct Export {
    /// The map.
    pub map: Map,
    /// The tileset and backdrop images, each to be written at its path.
    pub images: Vec<ExportImage>,
    /// What was drawn and missing.
    pub report: ExportReport,
}

/// Adds `bytes` to `*total`, refused past `limit`.
fn spend(total: &mut u64, bytes: u64, limit: u64) -> Result<(), TiledError> {
    *total = total.saturating_add(bytes);
    if *total > limit {
        return Err(TiledError::TooLarge {
            what: "bytes of images",
            found: *total,
            limit,
        });
    }
    Ok(())
}

/// Sets the opaque pixels of a tile at tile column `col`, row `row` of `image`.
fn put_tile(image: &mut RgbaImage, col: u32, row: u32, pixels: &TilePixels) {
    for (dy, line) in (0u32..).zip(pixels) {
        for (dx, pixel) in (0u32..).zip(line) {
            if let Some(colour) = pixel {
                image.set(
                    col.saturating_mul(TILE).saturating_add(dx),
                    row.saturating_mul(TILE).saturating_add(dy),
                    ega_rgba(*colour),
                );
            }
        }
    }
}

/// An atlas of `count` tiles, [`ATLAS_COLUMNS`] a row, transparent where `pixels` gives
/// nothing; with its rows.
fn atlas(
    count: u32,
    mut pixels: impl FnMut(u32) -> Option<TilePixels>,
) -> Result<(RgbaImage, u32), TiledError> {
    let rows = count.div_ceil(ATLAS_COLUMNS).max(1);
    let mut image = RgbaImage::new(
        ATLAS_COLUMNS.saturating_mul(TILE),
        rows.saturating_mul(TILE),
        [0; 4],
    )?;
    for i in 0..count {
        if let Some(p) = pixels(i) {
            put_tile(
                &mut image,
                i.checked_rem(ATLAS_COLUMNS).unwrap_or(0),
                i.checked_div(ATLAS_COLUMNS).unwrap_or(0),
                &p,
            );
        }
    }
    Ok((image, rows))
}

/// A sprite frame's pixels, unflipped, transparent where masked.
fn frame_image(frame: &SpriteFrame<'_>) -> Result<RgbaImage, TiledError> {
    let (w, h) = (u32::from(frame.width), u32::from(frame.height));
    let mut image = RgbaImage::new(
        w.saturating_mul(TILE).max(1),
        h.saturating_mul(TILE).max(1),
        [0; 4],
    )?;
    for row in 0..frame.height {
        for col in 0..frame.width {
            if let Some(p) = frame.tile_pixels(col, row) {
                put_tile(&mut image, u32::from(col), u32::from(row), &p);
            }
        }
    }
    Ok(image)
}

fn tileset(
    first_gid: u32,
    name: &str,
    count: u32,
    image: (String, u32, u32),
    entry: &str,
) -> Tileset {
    Tileset {
        first_gid,
        name: name.to_owned(),
        tile_width: TILE,
        tile_height: TILE,
        tile_count: count,
        columns: ATLAS_COLUMNS,
        image: Some(image),
        align_top_left: false,
        tiles: Vec::new(),
        properties: vec![Property::string("cosmo_entry", entry)],
    }
}

fn layer(id: u32, name: &str, data: LayerData) -> Layer {
    Layer {
        id,
        name: name.to_owned(),
        visible: true,
        parallax: (1.0, 1.0),
        data,
        properties: Vec::new(),
    }
}

/// `n` as `u32`, or [`TiledError::TooLarge`].
fn count(what: &'static str, n: usize) -> Result<u32, TiledError> {
    u32::try_from(n).map_err(|_| TiledError::TooLarge {
        what,
        found: n as u64,
        limit: u64::from(u32::MAX),
    })
}

/// Exports `map` of `episode` (its tiles, and with `options` its backdrop and actors) as a
/// Tiled map with 8 x 8-pixel tiles and the images it names (paths under
/// `options.images_dir`): see the module's text for what goes where.
///
/// Returns `Err`: [`TiledError::Cosmo`] if TILES.MNI, MASKTILE.MNI, TILEATTR.MNI (with
/// actors), the sprite files (with actors) or the backdrop (with a backdrop) cannot be read;
/// [`TiledError::TooLarge`] past `limits.max_decoded_bytes` of images.
pub fn export(
    episode: &Episode<'_>,
    map: &mni_core::Map<'_>,
    options: &ExportOptions,
    limits: &Limits,
) -> Result<Export, TiledError> {
    let budget = limits.max_decoded_bytes;
    let mut spent = 0u64;
    let dir = if options.images_dir.is_empty() {
        String::new()
    } else {
        format!("{}/", options.images_dir)
    };
    let images = episode.tile_images()?;
    let mut report = ExportReport::default();
    let mut out_images = Vec::new();
    let mut tilesets = Vec::new();
    let mut layers = Vec::new();
    let (width, height) = (u32::from(map.width()), u32::from(map.height()));
    let cells = usize::from(map.width()).saturating_mul(usize::from(map.height()));

    // The two tile atlases.
    let solid_count = count("solid tiles", images.solid.len())?;
    let masked_count = count("masked tiles", images.masked.len())?;
    spend(
        &mut spent,
        u64::from(solid_count.saturating_add(masked_count)).saturating_mul(256),
        budget,
    )?;
    let (solid, solid_rows) = atlas(solid_count, |i| {
        images.pixels(MapTile::Solid(u16::try_from(i).ok()?))
    })?;
    let (masked, masked_rows) = atlas(masked_count, |i| {
        images.pixels(MapTile::Masked(u16::try_from(i).ok()?))
    })?;
    let solid_first = 1u32;
    let masked_first = solid_first.saturating_add(solid_count.max(1));
    let mut next_gid = masked_first.saturating_add(masked_count.max(1));
    for (first, name, n, image, rows, entry) in [
        (
            solid_first,
            "solid",
            solid_count,
            solid,
            solid_rows,
            "TILES.MNI",
        ),
        (
            masked_first,
            "masked",
            masked_count,
            masked,
            masked_rows,
            "MASKTILE.MNI",
        ),
    ] {
        let path = format!("{dir}{name}.png");
        let size = (
            path.clone(),
            ATLAS_COLUMNS.saturating_mul(TILE),
            rows.saturating_mul(TILE),
        );
        tilesets.push(tileset(first, name, n.max(1), size, entry));
        out_images.push(ExportImage { path, image });
    }
    let gid = |tile: MapTile| -> Option<u32> {
        match tile {
            MapTile::Solid(i) if u32::from(i) < solid_count => {
                Some(solid_first.saturating_add(u32::from(i)))
            }
            MapTile::Masked(i) if u32::from(i) < masked_count => {
                Some(masked_first.saturating_add(u32::from(i)))
            }
            _ => None,
        }
    };

    // The backdrop, first drawn.
    if let Some(form) = options.backdrop {
        let number = map.flags().backdrop;
        let entry = backdrop_name(number)?;
        let backdrop = episode
            .backdrop(number)?
            .ok_or_else(|| episode.missing(entry))?;
        let (bw, bh) = (
            u32::from(Backdrop::WIDTH).saturating_mul(TILE),
            u32::from(Backdrop::HEIGHT).saturating_mul(TILE),
        );
        spend(
            &mut spent,
            u64::from(bw)
                .saturating_mul(u64::from(bh))
                .saturating_mul(4),
            budget,
        )?;
        let mut image = RgbaImage::new(bw, bh, [0; 4])?;
        draw_backdrop(&mut image, &backdrop);
        let path = format!("{dir}backdrop.png");
        let data = match form {
            BackdropForm::ImageLayer => LayerData::Image(LayerImage {
                image: (path.clone(), bw, bh),
                repeat_x: true,
                repeat_y: true,
            }),
            BackdropForm::Tiles => {
                let (cols, rows) = (u32::from(Backdrop::WIDTH), u32::from(Backdrop::HEIGHT));
                let first = next_gid;
                let n = cols.saturating_mul(rows);
                next_gid = next_gid.saturating_add(n);
                let mut t = tileset(first, "backdrop", n, (path.clone(), bw, bh), entry);
                t.columns = cols;
                tilesets.push(t);
                let mut data = Vec::with_capacity(cells);
                for y in 0..height {
                    for x in 0..width {
                        let local = (y.checked_rem(rows).unwrap_or(0))
                            .saturating_mul(cols)
                            .saturating_add(x.checked_rem(cols).unwrap_or(0));
                        data.push(first.saturating_add(local));
                    }
                }
                LayerData::Tiles(data)
            }
        };
        let mut l = layer(1, "backdrop", data);
        l.properties = vec![
            Property::string("cosmo_backdrop_entry", entry),
            Property::int("cosmo_backdrop", number),
        ];
        layers.push(l);
        out_images.push(ExportImage { path, image });
        report.backdrop = Some(entry);
    }

    // The tiles, and the cells below 80.
    let mut drawn = vec![0u32; cells];
    let mut below = vec![0u32; cells];
    let row_len = usize::from(map.width());
    for (i, v) in map.tile_values().iter().enumerate() {
        let value = v.get();
        let tile = MapTile::from_value(value);
        let cell = if value >= mni_core::map::FIRST_DRAWN_VALUE {
            drawn.get_mut(i)
        } else if value != 0 {
            below.get_mut(i)
        } else {
            None
        };
        if let Some(cell) = cell {
            match gid(tile) {
                Some(g) => *cell = g,
                None if value >= mni_core::map::FIRST_DRAWN_VALUE => {
                    report.missing = report.missing.saturating_add(1);
                }
                None => {}
            }
        }
    }
    report.tiles_drawn = drawn.iter().filter(|&&g| g != 0).count() as u64;
    let next_id = |layers: &Vec<Layer>| count("layers", layers.len()).map(|n| n.saturating_add(1));
    layers.push(layer(next_id(&layers)?, "tiles", LayerData::Tiles(drawn)));
    let mut hidden = layer(next_id(&layers)?, "below 80", LayerData::Tiles(below));
    hidden.visible = false;
    layers.push(hidden);

    // The actors, then the tiles in front of them.
    if options.actors {
        let attrs = episode.tile_attributes()?;
        let sprites = episode.sprites()?;
        let actors_first = next_gid;
        let mut by_sprite: HashMap<u16, u32> = HashMap::new();
        let mut actor_tiles: Vec<TileInfo> = Vec::new();
        let (mut max_w, mut max_h) = (TILE, TILE);
        let mut objects = Vec::with_capacity(map.actors().len());
        for (index, actor) in map.actors().enumerate() {
            let id = count("objects", index)?.saturating_add(1);
            let mut props = vec![
                Property::int("cosmo_index", id.saturating_sub(1)),
                Property::int("cosmo_stored_type", actor.kind.to_stored()),
                Property::int("cosmo_x", actor.x),
                Property::int("cosmo_y", actor.y),
            ];
            let (x, y) = (
                i64::from(actor.x).saturating_mul(i64::from(TILE)),
                i64::from(actor.y).saturating_mul(i64::from(TILE)),
            );
            let point = |name: String, class: &str, props: Vec<Property>| MapObject {
                id,
                name,
                class: class.to_owned(),
                gid: None,
                x,
                y,
                width: 0,
                height: 0,
                visible: false,
                properties: props,
            };
            let actor_type = match actor.kind {
                ActorKind::Special(k) => {
                    report.actors_special = report.actors_special.saturating_add(1);
                    props.push(Property::string("cosmo_kind", "special"));
                    objects.push(point(format!("special {k}"), "special", props));
                    continue;
                }
                ActorKind::Normal(t) => t,
            };
            props.push(Property::string("cosmo_kind", "actor"));
            props.push(Property::int("cosmo_actor_type", actor_type));
            let name = format!("actor {actor_type}");
            let Some(look) = ActorSprite::of(actor_type) else {
                report.actors_not_drawn.push(format!(
                    "actor {index} (type {actor_type}) at tile ({}, {}): the game defines no \
                     actor of this type",
                    actor.x, actor.y
                ));
                props.push(Property::string("cosmo_not_drawn", "unknown type"));
                objects.push(point(name, "actor", props));
                continue;
            };
            props.extend([
                Property::int("cosmo_sprite", look.sprite),
                Property::int("cosmo_shift_x", look.shift_x),
                Property::int("cosmo_shift_y", look.shift_y),
                Property::string(
                    "cosmo_draw",
                    match look.draw {
                        ActorDraw::Normal => "normal",
                        ActorDraw::Flipped => "flipped",
                        ActorDraw::Hidden => "hidden",
                    },
                ),
            ]);
            if look.draw == ActorDraw::Hidden {
                report.actors_hidden = report.actors_hidden.saturating_add(1);
                objects.push(point(name, "actor", props));
                continue;
            }
            let found = sprites
                .frame(look.sprite, 0)
                .and_then(|f| f.ok_or_else(|| sprites.missing(look.sprite, 0)));
            let frame = match found {
                Ok(frame) => frame,
                Err(e) => {
                    report.actors_not_drawn.push(format!(
                        "actor {index} (type {actor_type}) at tile ({}, {}): sprite type {}: {}",
                        actor.x, actor.y, look.sprite, e.kind
                    ));
                    props.push(Property::string("cosmo_not_drawn", e.kind.to_string()));
                    objects.push(point(name, "actor", props));
                    continue;
                }
            };
            let (w, h) = (
                u32::from(frame.width).saturating_mul(TILE).max(1),
                u32::from(frame.height).saturating_mul(TILE).max(1),
            );
            let local = match by_sprite.get(&look.sprite) {
                Some(&l) => l,
                None => {
                    spend(
                        &mut spent,
                        u64::from(w).saturating_mul(u64::from(h)).saturating_mul(4),
                        budget,
                    )?;
                    let l = count("actor images", actor_tiles.len())?;
                    let path = format!("{dir}actors/{}.png", look.sprite);
                    out_images.push(ExportImage {
                        path: path.clone(),
                        image: frame_image(&frame)?,
                    });
                    actor_tiles.push(TileInfo {
                        id: l,
                        image: Some((path, w, h)),
                        properties: vec![Property::int("cosmo_sprite", look.sprite)],
                    });
                    by_sprite.insert(look.sprite, l);
                    (max_w, max_h) = (max_w.max(w), max_h.max(h));
                    l
                }
            };
            let (left, top) = look.top_left(actor.x, actor.y, frame.height);
            let flip = if look.draw == ActorDraw::Flipped {
                FLIP_VERTICAL
            } else {
                0
            };
            objects.push(MapObject {
                id,
                name,
                class: "actor".to_owned(),
                gid: Some(actors_first.saturating_add(local) | flip),
                x: i64::from(left).saturating_mul(i64::from(TILE)),
                y: i64::from(top).saturating_mul(i64::from(TILE)),
                width: w,
                height: h,
                visible: true,
                properties: props,
            });
            report.actors_drawn = report.actors_drawn.saturating_add(1);
        }
        if !actor_tiles.is_empty() {
            let n = count("actor images", actor_tiles.len())?;
            tilesets.push(Tileset {
                first_gid: actors_first,
                name: "actors".to_owned(),
                tile_width: max_w,
                tile_height: max_h,
                tile_count: n,
                columns: 0,
                image: None,
                align_top_left: true,
                tiles: actor_tiles,
                properties: vec![Property::string("cosmo_entry", "ACTORS.MNI")],
            });
        }
        layers.push(layer(
            next_id(&layers)?,
            "actors",
            LayerData::Objects(objects),
        ));
        let mut front = vec![0u32; cells];
        for (x, y, tile) in map.drawn_cells() {
            let at = usize::from(y)
                .saturating_mul(row_len)
                .saturating_add(usize::from(x));
            if map
                .attributes(x, y, &attrs)
                .is_some_and(mni_core::TileAttributes::in_front)
                && let (Some(g), Some(cell)) = (gid(tile), front.get_mut(at))
            {
                *cell = g;
                report.in_front = report.in_front.saturating_add(1);
            }
        }
        layers.push(layer(
            next_id(&layers)?,
            "in front",
            LayerData::Tiles(front),
        ));
    }

    let f = map.flags();
    let properties = vec![
        Property::int("cosmo_flags", f.to_bits()),
        Property::int("cosmo_backdrop", f.backdrop),
        Property {
            name: "cosmo_rain".into(),
            value: Value::Bool(f.rain),
        },
        Property {
            name: "cosmo_backdrop_h_scroll".into(),
            value: Value::Bool(f.backdrop_h_scroll),
        },
        Property {
            name: "cosmo_backdrop_v_scroll".into(),
            value: Value::Bool(f.backdrop_v_scroll),
        },
        Property::int("cosmo_palette_animation", f.palette_animation),
        Property::int("cosmo_music", f.music),
        Property::int("cosmo_width", map.width()),
        Property::int("cosmo_actor_count", count("actors", map.actors().len())?),
    ];
    Ok(Export {
        map: Map {
            width,
            height,
            tile_width: TILE,
            tile_height: TILE,
            tilesets,
            layers,
            properties,
        },
        images: out_images,
        report,
    })
}
