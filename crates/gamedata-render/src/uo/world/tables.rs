//! What the world view looks up once a source: each land id's texture map, each item id's
//! flags and picture size, and the map's heights as `Map.GetTileZ` reads them.
//! Rules: `docs/formats/uo.md`, "The client's world view (isometric)".

// Small sums of tiledata's heights and flags' steps, and block numbers of u32 tile numbers
// in i64: far from overflow.
#![allow(clippy::arithmetic_side_effects)]

use mul_core::{Art, Facet, Limits, Texmaps, TileData, TileFlags};
use rayon::prelude::*;

use crate::uo::client::client_draws;

/// Land ids a tiledata land table holds (the cell's id and 0x3FFF).
const LAND_IDS: usize = 0x4000;
/// Item ids a static record can name.
const ITEM_IDS: usize = 0x10000;

/// ClassicUO's default tree list (`src/ClassicUO.Client/Game/Data/StaticFilters.cs`,
/// `StaticFilters.Load`, the ids it writes to `tree.txt`): trees are drawn the older way,
/// after the statics mesh.
const TREES: [u16; 62] = [
    0x0C95, 0x0C96, 0x0C99, 0x0C9B, 0x0C9C, 0x0C9D, 0x0C9E, 0x0CA6, 0x0CA8, 0x0CAA, 0x0CAB, 0x0CC9,
    0x0CCA, 0x0CCB, 0x0CCC, 0x0CCD, 0x0CD0, 0x0CD3, 0x0CD6, 0x0CD8, 0x0CDA, 0x0CDD, 0x0CE0, 0x0CE3,
    0x0CE6, 0x0CF8, 0x0CFB, 0x0CFE, 0x0D01, 0x0D37, 0x0D38, 0x0D41, 0x0D42, 0x0D43, 0x0D44, 0x0D57,
    0x0D58, 0x0D59, 0x0D5A, 0x0D5B, 0x0D6E, 0x0D6F, 0x0D70, 0x0D71, 0x0D72, 0x0D84, 0x0D85, 0x0D86,
    0x0D94, 0x0D98, 0x0D9C, 0x0DA0, 0x0DA4, 0x0DA8, 0x12B6, 0x12B7, 0x12B8, 0x12B9, 0x12BA, 0x12BB,
    0x12BC, 0x12BD,
];

/// The height ClassicUO culls at: a static whose priority z plus height passes it is not
/// drawn (`AddTileToRenderList` is called with a maximum z of 150).
pub(super) const MAX_OBJECT_Z: i32 = 150;

/// The height `Map.GetTileZ` gives outside the map.
pub(super) const OUTSIDE_Z: i32 = -125;

/// One item id as the world view needs it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ItemInfo {
    /// The client lets it be drawn (`CanBeDrawn`, not Internal, id not 0 or 0xFFFF).
    pub(super) allowed: bool,
    /// Allowed and its art has a picture: in the statics mesh unless drawn the older way.
    pub(super) drawn: bool,
    /// Drawn the older way (a tree, foliage or an animated item, or an allowed item without
    /// a picture, which the mesh leaves out): after the mesh, and its height cull stops
    /// the rest of its tile.
    pub(super) older_way: bool,
    /// Priority z's change from the item's z (background, height, multi-movable).
    pub(super) priority: i8,
    /// The height `CalculateObjectHeight` adds (`None`: 255, never culled).
    pub(super) cull_height: Option<u8>,
    /// Translucent: drawn at alpha 178 / 255.
    pub(super) translucent: bool,
    /// Partial hue from tiledata.
    pub(super) partial: bool,
    /// The art's width and height in pixels.
    pub(super) size: (u16, u16),
}

/// One land id as the world view needs it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LandInfo {
    /// The texture map that a stretched tile of this id shows, when it may stretch (not
    /// wet with TexID 0, and texidx.mul's entry has bytes).
    pub(super) texmap: Option<u16>,
}

/// The tables a world view reads, made once.
pub(super) struct Lookups {
    pub(super) lands: Vec<LandInfo>,
    pub(super) items: Vec<ItemInfo>,
    /// The tallest and widest picture of the items the facet's statics place and the
    /// client draws, in pixels: how far above and beside its tile a static may draw.
    pub(super) tallest: u32,
    pub(super) widest: u32,
}

impl Lookups {
    /// The tables for `tiledata`, `art` and `texmaps`; an item whose picture would pass
    /// `limits.max_decoded_bytes` as RGBA, or cannot be read, is not drawn.
    pub(super) fn new(
        facet: &Facet<'_>,
        tiledata: &TileData<'_>,
        art: &Art<'_>,
        texmaps: Option<&Texmaps<'_>>,
        limits: &Limits,
    ) -> Self {
        let lands = (0..LAND_IDS)
            .map(|id| {
                let id = u16::try_from(id).unwrap_or(u16::MAX);
                let Some(tile) = tiledata.land(id) else {
                    return LandInfo::default();
                };
                let tex = tile.texture();
                let never = tex == 0 && tile.flags().contains(TileFlags::WET);
                let has_bytes = texmaps
                    .and_then(|t| t.entry(u32::from(tex)).ok().flatten())
                    .is_some_and(|bytes| !bytes.is_empty());
                LandInfo {
                    texmap: (!never && has_bytes).then_some(tex),
                }
            })
            .collect();
        let items: Vec<ItemInfo> = (0..ITEM_IDS)
            .map(|id| item_info(tiledata, art, u16::try_from(id).unwrap_or(u16::MAX), limits))
            .collect();
        // Over the items placed, not the whole art: one tall picture that no static uses
        // must not widen every window's reach. Block columns in parallel.
        let size = facet.size();
        let (tallest, widest) = (0..size.width_blocks())
            .into_par_iter()
            .map(|bx| {
                let mut most = (0u32, 0u32);
                for by in 0..size.height_blocks() {
                    let Ok(statics) = facet.block_statics(bx, by) else {
                        continue;
                    };
                    for s in statics.iter() {
                        let info = items
                            .get(usize::from(s.id.get()))
                            .copied()
                            .unwrap_or_default();
                        if info.drawn {
                            most.0 = most.0.max(u32::from(info.size.1));
                            most.1 = most.1.max(u32::from(info.size.0));
                        }
                    }
                }
                most
            })
            .reduce(|| (0, 0), |a, b| (a.0.max(b.0), a.1.max(b.1)));
        Lookups {
            lands,
            items,
            tallest,
            widest,
        }
    }

    /// Land id `id`'s entry (a default one past the table).
    #[inline]
    pub(super) fn land(&self, id: u16) -> LandInfo {
        self.lands
            .get(usize::from(id & 0x3FFF))
            .copied()
            .unwrap_or_default()
    }

    /// Item id `id`'s entry.
    #[inline]
    pub(super) fn item(&self, id: u16) -> ItemInfo {
        self.items.get(usize::from(id)).copied().unwrap_or_default()
    }
}

/// Item `id` as the world view needs it.
fn item_info(tiledata: &TileData<'_>, art: &Art<'_>, id: u16, limits: &Limits) -> ItemInfo {
    let Some(tile) = tiledata.item(id) else {
        return ItemInfo::default();
    };
    let flags = tile.flags();
    let height = tile.height();
    let size = match art.item(id) {
        Ok(Some(item)) => {
            let bytes = u64::from(item.width())
                .saturating_mul(u64::from(item.height()))
                .saturating_mul(4);
            (bytes <= limits.max_decoded_bytes).then(|| {
                (
                    u16::try_from(item.width()).unwrap_or(0),
                    u16::try_from(item.height()).unwrap_or(0),
                )
            })
        }
        _ => None,
    };
    let allowed = id != 0
        && id != 0xFFFF
        && client_draws(tiledata, id)
        && !flags.contains(TileFlags::INTERNAL);
    let drawn = allowed && size.is_some_and(|(w, h)| w > 0 && h > 0);
    let mut priority = 0i8;
    if flags.contains(TileFlags::BACKGROUND) {
        priority -= 1;
    }
    if height != 0 {
        priority += 1;
    }
    if flags.contains(TileFlags::MULTI_MOVABLE) {
        priority += 1;
    }
    let cull_height = (height != 0xFF).then(|| {
        let mut h = height;
        if h == 0 && !flags.intersects(TileFlags::BACKGROUND | TileFlags::SURFACE) {
            h = 10;
        }
        if flags.contains(TileFlags::BRIDGE) {
            h /= 2;
        }
        h
    });
    ItemInfo {
        allowed,
        drawn,
        older_way: flags.intersects(TileFlags::FOLIAGE | TileFlags::ANIMATION)
            || TREES.binary_search(&id).is_ok()
            || !drawn,
        priority,
        cull_height,
        translucent: flags.contains(TileFlags::TRANSLUCENT),
        partial: flags.contains(TileFlags::PARTIAL_HUE),
        size: size.unwrap_or((0, 0)),
    }
}

/// The map's heights as `Map.GetTileZ` reads them: -125 at negative x or y, else cell
/// (x mod 8, y mod 8) of block number (x / 8) x (height in blocks) + y / 8, -125 past the
/// last block (so past the south edge it reads the next column's top blocks).
#[inline]
pub(super) fn tile_z(facet: &Facet<'_>, x: i64, y: i64) -> i32 {
    if x < 0 || y < 0 {
        return OUTSIDE_Z;
    }
    let hb = i64::from(facet.size().height_blocks());
    let number = (x >> 3).saturating_mul(hb).saturating_add(y >> 3);
    let Ok(number) = usize::try_from(number) else {
        return OUTSIDE_Z;
    };
    let cell = usize::try_from(((y & 7) << 3) | (x & 7)).unwrap_or(0);
    facet
        .map
        .block_at(number)
        .and_then(|block| block.cells.get(cell))
        .map_or(OUTSIDE_Z, |c| i32::from(c.z))
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use crate::uo::world::tables::TREES;

    #[test]
    fn the_tree_list_is_sorted_for_binary_search() {
        assert!(TREES.windows(2).all(|w| w[0] < w[1]));
    }
}
