//! The tilesets of an exported level: each tile the planes show numbered once, then laid
//! out as a tile set's atlas, the fill tiles and the objects' images.

use std::collections::HashMap;

use gamedata_render::RgbaImage;
use gamedata_render::wwd::{LevelImages, PlaneImages};
use wap_core::{Limits, Plane, Tile};

use crate::TiledError;
use crate::map::{Property, TileInfo, Tileset};

use super::options::{ATLAS_COLUMNS, ExportImage, ExportOptions, Placed};

/// A tile of a tile set's or the fill tileset: what its cells hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum TileKey {
    /// Tile `id` of the tile set named `set`.
    Image { set: String, id: u16 },
    /// The fill colour of planes whose fill is `index`.
    Fill { index: i32 },
}

/// The tiles the planes use, each once, with their image.
#[derive(Default)]
pub(super) struct TileTable {
    keys: Vec<TileKey>,
    /// The decoded image of each key (`None`: missing), or the fill colour.
    looks: Vec<Look>,
    by_key: HashMap<TileKey, u32>,
}

#[derive(Clone, Copy)]
pub(super) enum Look {
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

/// The number of the tile raw value `raw` of `plane` shows.
pub(super) fn number(
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
pub(super) fn file_part(name: &str) -> String {
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

pub(super) type Laid = (
    Vec<Tileset>,
    Vec<ExportImage>,
    Vec<u32>,
    HashMap<usize, u32>,
);

/// The tilesets (a tile set's atlas each, the fill tiles, the objects' images), their
/// images, the gid of each tile number and of each object image.
pub(super) fn lay_out_tilesets(
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
pub(super) struct Budget {
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
pub(super) fn blit(
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
