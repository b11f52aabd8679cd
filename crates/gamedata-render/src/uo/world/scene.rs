//! The objects that can reach a window of the isometric plane, in the client's order: the
//! blocks whose tiles may draw into it are read, and each land tile and static becomes an
//! [`Op`] with its depth key, its place in the draw order and its bounding box.
//! Rules: `docs/formats/uo.md`, "The client's world view (isometric)".

// Screen arithmetic is on i64 built from u32 tile numbers, i8 heights and u16 picture
// sides: far from overflow.
#![allow(clippy::arithmetic_side_effects)]

use mul_core::Facet;
use mul_core::raw::StaticRecord;

use super::tables::{Lookups, MAX_OBJECT_Z, tile_z};

/// A rectangle of the isometric plane: x0..x1 by y0..y1, in pixels (x1, y1 excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub(super) x0: i64,
    pub(super) y0: i64,
    pub(super) x1: i64,
    pub(super) y1: i64,
}

impl Window {
    /// Whether `other` and this window share a pixel.
    #[inline]
    pub(super) fn meets(&self, other: &Window) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }
}

/// What an object draws.
#[derive(Clone, Copy, Debug)]
pub(super) enum What {
    /// A land tile's 44 x 44 art with its top-left corner at (left, top).
    Flat { id: u16, left: i64, top: i64 },
    /// A stretched land tile: texture map `tex` on the quad of `corners` (top, right, left,
    /// bottom, in pixels), lit by `normals`; when the texture map cannot be decoded, the
    /// art of `id` flat at `fallback`.
    Stretched {
        id: u16,
        tex: u16,
        corners: [[i64; 2]; 4],
        normals: [[f32; 3]; 4],
        fallback: [i64; 2],
    },
    /// A static's art with its top-left corner at (left, top), hued by its record's
    /// `hue`; `older` when drawn the older way (its hue read by `GetHueVector`).
    Static {
        id: u16,
        left: i64,
        top: i64,
        hue: u16,
        older: bool,
    },
}

/// One object to draw.
#[derive(Clone, Copy, Debug)]
pub(super) struct Op {
    /// 100 (x + y) + priority z: a larger key is nearer.
    pub(super) key: i64,
    /// 0 land, 1 the statics mesh, 2 statics drawn the older way.
    pub(super) class: u8,
    /// The client's traversal order within a class: block number, cell (x outer), file order.
    pub(super) seq: u64,
    /// The pixels it may cover.
    pub(super) bounds: Window,
    /// What it draws.
    pub(super) what: What,
}

impl Op {
    /// The order of drawing: by depth, then the client's draw order.
    #[inline]
    pub(super) fn order(&self) -> (i64, u8, u64) {
        (self.key, self.class, self.seq)
    }
}

/// The blocks whose tiles may draw into a window.
struct Reach {
    /// x - y of the tiles, d0 to d1.
    d: (i64, i64),
    /// x + y of the tiles, s0 to s1.
    s: (i64, i64),
    /// The blocks' columns and rows to look at (a box around the tiles).
    bx: (i64, i64),
    by: (i64, i64),
}

impl Reach {
    /// The tiles that may reach `window`: a tile's pictures lie within 22 (land) or the
    /// widest item's width (statics) of d x 22 across, and from 4 x 127 + 22 above (land)
    /// or 4 x 127 - 22 plus the tallest item above, to 4 x 128 + 22 below, its row s x 22.
    fn new(facet: &Facet<'_>, lookups: &Lookups, window: &Window) -> Option<Self> {
        // Nothing lies past 2^40 pixels (a map's tiles are u32s, 22 pixels apart, heights
        // a few hundred pixels): the window is cut to that, so that no sum below
        // overflows whatever the view asked for.
        const FAR: i64 = 1 << 40;
        let window = Window {
            x0: window.x0.clamp(-FAR, FAR),
            y0: window.y0.clamp(-FAR, FAR),
            x1: window.x1.clamp(-FAR, FAR),
            y1: window.y1.clamp(-FAR, FAR),
        };
        if window.x0 >= window.x1 || window.y0 >= window.y1 {
            return None;
        }
        let size = facet.size();
        let (width, height) = (i64::from(size.width()), i64::from(size.height()));
        let across = i64::from(lookups.widest.max(22)) + 1;
        let above = (508 + 22).max(508 - 22 + i64::from(lookups.tallest)) + 1;
        let below = 512 + 22 + 1;
        let d0 = (window.x0 - across).div_euclid(22);
        let d1 = (window.x1 + across).div_euclid(22) + 1;
        let s0 = (window.y0 - below).div_euclid(22);
        let s1 = (window.y1 + above).div_euclid(22) + 1;
        // Tiles with d0 <= x - y <= d1 and s0 <= x + y <= s1, inside the map.
        let x_lo = ((s0 + d0).div_euclid(2)).max(0);
        let x_hi = ((s1 + d1).div_euclid(2) + 1).min(width - 1);
        let y_lo = ((s0 - d1).div_euclid(2)).max(0);
        let y_hi = ((s1 - d0).div_euclid(2) + 1).min(height - 1);
        (x_lo <= x_hi && y_lo <= y_hi).then_some(Reach {
            d: (d0, d1),
            s: (s0, s1),
            bx: (x_lo >> 3, x_hi >> 3),
            by: (y_lo >> 3, y_hi >> 3),
        })
    }

    /// The blocks, column by column, whose tiles' s and d ranges meet the reach's.
    fn blocks(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        (self.bx.0..=self.bx.1).flat_map(move |bx| {
            (self.by.0..=self.by.1).filter_map(move |by| {
                // The block's tiles span s from 8 (bx + by) to that + 14 and d from
                // 8 (bx - by) - 7 to that + 7.
                let (bs, bd) = (8 * (bx + by), 8 * (bx - by));
                let out =
                    bs + 14 < self.s.0 || bs > self.s.1 || bd + 7 < self.d.0 || bd - 7 > self.d.1;
                (!out).then_some((bx, by))
            })
        })
    }
}

/// Whether any block's tiles may draw into `window` (`false`: it is wholly transparent).
pub(super) fn reaches(facet: &Facet<'_>, lookups: &Lookups, window: &Window) -> bool {
    Reach::new(facet, lookups, window).is_some_and(|r| r.blocks().next().is_some())
}

/// The objects whose pictures may meet `window`, sorted in drawing order.
pub(super) fn collect(facet: &Facet<'_>, lookups: &Lookups, window: &Window) -> Vec<Op> {
    let mut ops = Vec::new();
    let Some(reach) = Reach::new(facet, lookups, window) else {
        return ops;
    };
    let mut cells: Vec<Vec<(usize, &StaticRecord)>> = vec![Vec::new(); 64];
    for (bx, by) in reach.blocks() {
        block(facet, lookups, window, (bx, by), &mut cells, &mut ops);
    }
    ops.sort_unstable_by_key(Op::order);
    ops
}

/// The objects of block (`bx`, `by`) that meet `window`, added to `ops`; `cells` is
/// scratch space for the statics of each cell.
fn block<'f>(
    facet: &Facet<'f>,
    lookups: &Lookups,
    window: &Window,
    (bx, by): (i64, i64),
    cells: &mut [Vec<(usize, &'f StaticRecord)>],
    ops: &mut Vec<Op>,
) {
    let (Ok(ubx), Ok(uby)) = (u32::try_from(bx), u32::try_from(by)) else {
        return;
    };
    let size = facet.size();
    let number = u64::from(ubx) * u64::from(size.height_blocks()) + u64::from(uby);
    for list in cells.iter_mut() {
        list.clear();
    }
    if let Ok(statics) = facet.block_statics(ubx, uby) {
        for (i, s) in statics.iter().enumerate() {
            if s.id.get() == 0 || s.id.get() == 0xFFFF {
                continue;
            }
            let cell = usize::from(s.y) * 8 + usize::from(s.x);
            // A record at x or y of 8 or more is on no tile.
            if s.x < 8
                && s.y < 8
                && let Some(list) = cells.get_mut(cell)
            {
                list.push((i, s));
            }
        }
    }
    let land_block = facet.map.block(ubx, uby);
    for cx in 0..8i64 {
        for cy in 0..8i64 {
            let cell = usize::try_from(cy * 8 + cx).unwrap_or(0);
            let (x, y) = (bx * 8 + cx, by * 8 + cy);
            let seq_base = (number << 26) | (u64::try_from(cx * 8 + cy).unwrap_or(0) << 20);
            let land = land_block
                .and_then(|b| b.cells.get(cell))
                .and_then(|c| land(facet, lookups, window, (x, y, seq_base), c.id.get(), c.z));
            let Some(list) = cells.get_mut(cell) else {
                continue;
            };
            // The tile's list: land first, then each static after the objects of lower or
            // equal priority z (a stable sort by priority, land before equal statics).
            list.sort_by_key(|(_, s)| {
                i32::from(s.z) + i32::from(lookups.item(s.id.get()).priority)
            });
            let mut land = land;
            for &(i, s) in list.iter() {
                let info = lookups.item(s.id.get());
                let priority = i32::from(s.z) + i32::from(info.priority);
                if let Some((op, land_priority)) = land
                    && land_priority <= priority
                {
                    ops.push(op);
                    land = None;
                }
                if !info.allowed {
                    continue;
                }
                if let Some(h) = info.cull_height
                    && priority + i32::from(h) > MAX_OBJECT_Z
                {
                    if info.older_way {
                        // The client stops walking the tile here.
                        land = None;
                        break;
                    }
                    continue;
                }
                if !info.drawn {
                    continue;
                }
                let (w, h) = (i64::from(info.size.0), i64::from(info.size.1));
                let z = i64::from(s.z);
                let left = (x - y) * 22 - w / 2;
                let top = (x + y) * 22 - 4 * z + 22 - h;
                let bounds = Window {
                    x0: left,
                    y0: top,
                    x1: left + w,
                    y1: top + h,
                };
                if !bounds.meets(window) {
                    continue;
                }
                ops.push(Op {
                    key: 100 * (x + y) + i64::from(priority),
                    class: if info.older_way { 2 } else { 1 },
                    seq: seq_base | u64::try_from(i.min((1 << 20) - 1)).unwrap_or(0),
                    bounds,
                    what: What::Static {
                        id: s.id.get(),
                        left,
                        top,
                        hue: s.hue.get(),
                        older: info.older_way,
                    },
                });
            }
            if let Some((op, _)) = land {
                ops.push(op);
            }
        }
    }
}

/// Land tile (`x`, `y`) of cell id `raw` and height `z` as an op with its priority z, when
/// the client draws it and it may meet `window`; `seq` is its place in the traversal (the
/// block's number and the cell, as `block` counts them).
fn land(
    facet: &Facet<'_>,
    lookups: &Lookups,
    window: &Window,
    (x, y, seq): (i64, i64, u64),
    raw: u16,
    z: i8,
) -> Option<(Op, i32)> {
    let id = raw & 0x3FFF;
    if id <= 2 {
        return None;
    }
    let (s, d) = (x + y, x - y);
    let z = i32::from(z);
    let bx = d * 22 - 22;
    let flat = |z: i32| {
        let top = s * 22 - 4 * i64::from(z) - 22;
        let op = Op {
            key: 100 * s + i64::from(z - 2),
            class: 0,
            seq,
            bounds: Window {
                x0: bx,
                y0: top,
                x1: bx + 44,
                y1: top + 44,
            },
            what: What::Flat { id, left: bx, top },
        };
        (op.bounds.meets(window)).then_some((op, z - 2))
    };
    let Some(tex) = lookups.land(id).texmap else {
        return flat(z);
    };
    let at = |dx: i64, dy: i64| tile_z(facet, x + dx, y + dy);
    let (right, left, bottom) = (at(1, 0), at(0, 1), at(1, 1));
    let by = s * 22 - 22;
    let corners = [
        [bx + 22, by - 4 * i64::from(z)],
        [bx + 44, by + 22 - 4 * i64::from(right)],
        [bx, by + 22 - 4 * i64::from(left)],
        [bx + 22, by + 44 - 4 * i64::from(bottom)],
    ];
    // The corners' box, with the flat fallback's 44 x 44 at (bx, by).
    let mut bounds = Window {
        x0: bx,
        y0: by,
        x1: bx + 44,
        y1: by + 44,
    };
    for [cx, cy] in corners {
        bounds.y0 = bounds.y0.min(cy - 1);
        bounds.y1 = bounds.y1.max(cy + 1);
        bounds.x0 = bounds.x0.min(cx - 1);
        bounds.x1 = bounds.x1.max(cx + 1);
    }
    if !bounds.meets(window) {
        return None;
    }
    // The four neighbourhoods (`Land.ApplyStretch`).
    let (north, north_east, west) = (at(0, -1), at(1, -1), at(-1, 0));
    let (east2, south_west, south_east2) = (at(2, 0), at(-1, 1), at(2, 1));
    let (south2, south_east_2) = (at(0, 2), at(1, 2));
    let (top_n, top_flat) = normal(z, north, right, left, west);
    let (right_n, right_flat) = normal(right, north_east, east2, bottom, z);
    let (bottom_n, bottom_flat) = normal(bottom, right, south_east2, south_east_2, left);
    let (left_n, left_flat) = normal(left, z, bottom, south2, south_west);
    if top_flat && right_flat && bottom_flat && left_flat {
        return flat(z);
    }
    let average = if (z - bottom).abs() <= (left - right).abs() {
        (z + bottom) >> 1
    } else {
        (left + right) >> 1
    };
    let op = Op {
        key: 100 * s + i64::from(average - 2),
        class: 0,
        seq,
        bounds,
        what: What::Stretched {
            id,
            tex,
            corners,
            normals: [top_n, right_n, left_n, bottom_n],
            fallback: [bx, by],
        },
    };
    Some((op, average - 2))
}

/// `Land.CalculateNormal(tile, north, east, south, west)`: the vertex normal and whether
/// the neighbourhood is flat (all five heights equal: (0, 0, 1)).
#[allow(clippy::cast_precision_loss)]
fn normal(tile: i32, north: i32, east: i32, south: i32, west: i32) -> ([f32; 3], bool) {
    if tile == north && tile == east && tile == south && tile == west {
        return ([0.0, 0.0, 1.0], true);
    }
    let h = |v: i32| ((v - tile) * 4) as f32;
    let pairs = [
        ([-22.0, -22.0, h(west)], [-22.0, 22.0, h(south)]),
        ([-22.0, 22.0, h(south)], [22.0, 22.0, h(east)]),
        ([22.0, 22.0, h(east)], [22.0, -22.0, h(north)]),
        ([22.0, -22.0, h(north)], [-22.0, -22.0, h(west)]),
    ];
    let mut sum = [0.0f32; 3];
    for (u, v) in pairs {
        // v x u, summed in the client's order.
        let c = cross(v, u);
        sum = [sum[0] + c[0], sum[1] + c[1], sum[2] + c[2]];
    }
    (normalise(sum), false)
}

/// a x b.
#[inline]
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `v` over its length (XNA's `Vector3.Normalize`: v times 1 / length).
#[inline]
fn normalise(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let k = 1.0 / len;
    [v[0] * k, v[1] * k, v[2] * k]
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn a_level_neighbourhood_is_flat_and_points_up() {
        assert_eq!(normal(5, 5, 5, 5, 5), ([0.0, 0.0, 1.0], true));
    }

    #[test]
    fn a_raised_east_neighbour_tilts_the_normal_west() {
        // east 10 higher: the slope rises eastwards (+x), so the normal leans to -x.
        let (n, flat) = normal(0, 0, 10, 0, 0);
        assert!(!flat);
        assert!(n[0] < 0.0, "{n:?}");
        assert!(n[2] > 0.0, "{n:?}");
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        assert!((len - 1.0).abs() < 1e-6);
    }
}
