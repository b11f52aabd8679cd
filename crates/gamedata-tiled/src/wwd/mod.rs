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

use gamedata_render::wwd::LevelImages;
use wap_core::{CodePage, ImageSource, Level, Limits, Plane, PlaneFlags};

use crate::TiledError;

mod options;
mod properties;
mod tilesets;

use options::Placed;
pub use options::{ATLAS_COLUMNS, Export, ExportImage, ExportOptions};

use crate::map::{FLIP_HORIZONTAL, FLIP_VERTICAL, Layer, LayerData, Map, MapObject, Property};
use properties::{
    header_properties, object_properties, plane_properties, push_text, text, tile_properties_hex,
};
use tilesets::{TileTable, lay_out_tilesets, number};

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
    let main = level.main_plane()?.ok_or(TiledError::NoMainPlane)?;
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
