//! The drawable world's showcase: a fixed square of land and statics that holds every case
//! a renderer drawing the world as the client does must handle (`docs/formats/uo.md`,
//! "Synthetic world", where the same places are listed). Every coordinate is a tile of the
//! map, (x, y), x growing east and y south; "rising north" means the land is higher at
//! (x, y - 1) than at (x, y).

// Its arithmetic is on small constants and on coordinates checked against the square.
#![allow(clippy::arithmetic_side_effects)]
#![allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]

use super::{item, land};

/// A static the showcase places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShowcaseStatic {
    /// Item id.
    pub id: u16,
    /// Tile x.
    pub x: u32,
    /// Tile y.
    pub y: u32,
    /// Altitude.
    pub z: i8,
    /// Hue as stored in statics{N}.mul.
    pub hue: u16,
}

/// Where the showcase's cases lie, as tile coordinates (x, y). The showcase fills
/// [`Showcase::AREA`]: a map of 64 x 64 tiles or more holds all of it; a smaller one the
/// part inside it. Its land is grass at z 0 except where a case below says otherwise.
#[derive(Clone, Copy, Debug)]
pub struct Showcase;

/// A tile (x, y).
pub type Tile = (u32, u32);

impl Showcase {
    /// The square: x from `AREA[0]` and y from `AREA[1]` (included) to `AREA[2]` and
    /// `AREA[3]` (excluded).
    pub const AREA: [u32; 4] = [8, 8, 56, 56];
    /// Flat land: grass at z 0 with flat grass all round.
    pub const FLAT: Tile = (10, 14);
    /// Flat patches of 2 x 2 tiles at z 0, one for each land kind the world places:
    /// (top-left tile, land id), in a row at y 10 and 11.
    pub const FLAT_LANDS: [(Tile, u16); 9] = [
        ((10, 10), land::GRASS),
        ((12, 10), land::SAND),
        ((14, 10), land::FOREST),
        ((16, 10), land::DIRT),
        ((18, 10), land::ROCK),
        ((20, 10), land::SNOW),
        ((22, 10), land::LAVA),
        ((24, 10), land::WATER),
        ((26, 10), land::SHALLOWS),
    ];
    /// The grass hill (texture map 128 x 128): its top, at z 20; the land falls 5 a tile
    /// in each of the four directions to z 0, four tiles out (a square pyramid).
    pub const GRASS_HILL: Tile = (16, 20);
    /// The sand hill (texture map 64 x 64), the same shape as the grass hill.
    pub const SAND_HILL: Tile = (28, 20);
    /// Grass rising north, east, south and west (in that order), each at z 10.
    pub const GRASS_RISING: [Tile; 4] = [(16, 22), (14, 20), (16, 18), (18, 20)];
    /// Sand rising north, east, south and west (in that order), each at z 10.
    pub const SAND_RISING: [Tile; 4] = [(28, 22), (26, 20), (28, 18), (30, 20)];
    /// A cliff: rock at z 30 (a plateau, x 38 to 43, y 14 to 19) beside grass at z 0 to
    /// its west ([`Showcase::CLIFF_FOOT`]).
    pub const CLIFF_TOP: Tile = (38, 16);
    /// The grass at the cliff's foot, z 0.
    pub const CLIFF_FOOT: Tile = (37, 16);
    /// A pond, x 10 to 21, y 28 to 35: water (wet, texture id 0) at z -5 inside a ring of
    /// shallows (wet, with a texture map) at z -2. This tile is water.
    pub const WATER: Tile = (15, 31);
    /// Shallows on the pond's west ring, beside water: its corners differ.
    pub const SHALLOWS: Tile = (10, 31);
    /// Dirt (texture id 0) on a ramp rising east, x 24 to 31, y 30 and 31, z 3 a tile
    /// from 0: this tile is at z 9.
    pub const DIRT_SLOPE: Tile = (27, 30);
    /// Two items of the same flags and height at the same z: a crate, then a barrel.
    pub const STACK_EQUAL: Tile = (36, 26);
    /// Four items at z 0 of different priorities, stored in this order: a lamp post
    /// (height 18), a table (surface, height 6), a gold coin (height 0), a rug (background,
    /// height 0).
    pub const STACK_PRIORITY: Tile = (38, 26);
    /// Items at different z, stored in this order: a crate at z 12, a crate at z 0, a
    /// barrel at z 6.
    pub const STACK_Z: Tile = (40, 26);
    /// A house, x 46 to 51, y 24 to 29, z 0: a wooden floor on every tile, stone walls on
    /// the border but a door gap at (49, 29), roof tiles at z 20. This is its top-left tile.
    pub const HOUSE: Tile = (46, 24);
    /// A lamp post beside the house.
    pub const LAMP: Tile = (45, 31);
    /// Trees (foliage), the four kinds in order, at x 40, 42, 44 and 46.
    pub const TREES: [Tile; 4] = [(40, 36), (42, 36), (44, 36), (46, 36)];
    /// A bush.
    pub const BUSH: Tile = (50, 36);
    /// A boulder.
    pub const BOULDER: Tile = (52, 36);
    /// Vases hued fully: (tile, hue), hues 1, 10, ... 64 (64 is the last hue of
    /// hues.mul).
    pub const HUE_FULL: [(Tile, u16); 8] = [
        ((10, 44), 1),
        ((12, 44), 10),
        ((14, 44), 19),
        ((16, 44), 28),
        ((18, 44), 37),
        ((20, 44), 46),
        ((22, 44), 55),
        ((24, 44), 64),
    ];
    /// A banner (tiledata partial-hue flag) with hue 33: only its grey pixels change.
    pub const HUE_PARTIAL: (Tile, u16) = ((28, 44), 33);
    /// A vase with hue 0x8000 | 20: partial asked by the hue value.
    pub const HUE_PARTIAL_BIT: (Tile, u16) = ((30, 44), 0x8014);
    /// A banner (partial-hue flag) with hue 0: drawn as it is.
    pub const PARTIAL_NO_HUE: Tile = (32, 44);
    /// A vase with hue 1000, past hues.mul's 64 hues.
    pub const HUE_PAST: (Tile, u16) = ((34, 44), 1000);
    /// A crystal (tiledata translucent flag, 0x8).
    pub const TRANSLUCENT: Tile = (40, 44);
    /// A puddle (tiledata wet flag, 0x80).
    pub const WET_ITEM: Tile = (42, 44);
    /// Item 0x0001, which the client never draws.
    pub const UNDRAWN_LOW: Tile = (44, 44);
    /// Item 0x21BC, which the client never draws.
    pub const UNDRAWN_HIGH: Tile = (46, 44);
    /// The tower, whose picture is 220 pixels high, near the square's south edge.
    pub const TALL: Tile = (32, 54);

    /// Whether tile (x, y) is inside [`Showcase::AREA`].
    pub fn contains(x: u32, y: u32) -> bool {
        let [x0, y0, x1, y1] = Self::AREA;
        (x0..x1).contains(&x) && (y0..y1).contains(&y)
    }
}

/// The showcase's land at (x, y), `(id, z)`, or `None` outside it.
pub(crate) fn land(x: u32, y: u32) -> Option<(u16, i8)> {
    if !Showcase::contains(x, y) {
        return None;
    }
    for ((px, py), id) in Showcase::FLAT_LANDS {
        if (px..px + 2).contains(&x) && (py..py + 2).contains(&y) {
            return Some((id, 0));
        }
    }
    for ((cx, cy), id) in [
        (Showcase::GRASS_HILL, land::GRASS),
        (Showcase::SAND_HILL, land::SAND),
    ] {
        let d = x.abs_diff(cx).max(y.abs_diff(cy));
        if d <= 4 {
            return Some((id, (5 * (4 - d)) as i8));
        }
    }
    if (38..44).contains(&x) && (14..20).contains(&y) {
        return Some((land::ROCK, 30));
    }
    if (10..22).contains(&x) && (28..36).contains(&y) {
        let ring = x == 10 || x == 21 || y == 28 || y == 35;
        return Some(if ring {
            (land::SHALLOWS, -2)
        } else {
            (land::WATER, -5)
        });
    }
    if (24..32).contains(&x) && (30..32).contains(&y) {
        return Some((land::DIRT, (3 * (x - 24)) as i8));
    }
    Some((land::GRASS, 0))
}

/// The showcase's statics, in the order they are stored (block by block, the records of a
/// block in this order).
pub fn statics() -> Vec<ShowcaseStatic> {
    let mut out = Vec::new();
    let mut put = |(x, y): Tile, id: u16, z: i8, hue: u16| {
        out.push(ShowcaseStatic { id, x, y, z, hue });
    };
    put(Showcase::STACK_EQUAL, item::CRATE, 0, 0);
    put(Showcase::STACK_EQUAL, item::BARREL, 0, 0);
    for id in [item::LAMP, item::TABLE, item::GOLD, item::RUG] {
        put(Showcase::STACK_PRIORITY, id, 0, 0);
    }
    put(Showcase::STACK_Z, item::CRATE, 12, 0);
    put(Showcase::STACK_Z, item::CRATE, 0, 0);
    put(Showcase::STACK_Z, item::BARREL, 6, 0);
    let (hx, hy) = Showcase::HOUSE;
    for y in hy..hy + 6 {
        for x in hx..hx + 6 {
            put((x, y), item::FLOOR, 0, 0);
            let border = x == hx || y == hy || x == hx + 5 || y == hy + 5;
            if border && (x, y) != (hx + 3, hy + 5) {
                put((x, y), item::WALL, 0, 0);
            }
            put((x, y), item::ROOF, 20, 0);
        }
    }
    put(Showcase::LAMP, item::LAMP, 0, 0);
    for (tile, id) in Showcase::TREES.into_iter().zip(item::TREES) {
        put(tile, id, 0, 0);
    }
    put(Showcase::BUSH, item::BUSH, 0, 0);
    put(Showcase::BOULDER, item::BOULDER, 0, 0);
    for (tile, hue) in Showcase::HUE_FULL {
        put(tile, item::VASE, 0, hue);
    }
    put(
        Showcase::HUE_PARTIAL.0,
        item::BANNER,
        0,
        Showcase::HUE_PARTIAL.1,
    );
    put(
        Showcase::HUE_PARTIAL_BIT.0,
        item::VASE,
        0,
        Showcase::HUE_PARTIAL_BIT.1,
    );
    put(Showcase::PARTIAL_NO_HUE, item::BANNER, 0, 0);
    put(Showcase::HUE_PAST.0, item::VASE, 0, Showcase::HUE_PAST.1);
    put(Showcase::TRANSLUCENT, item::CRYSTAL, 0, 0);
    put(Showcase::WET_ITEM, item::PUDDLE, 0, 0);
    put(Showcase::UNDRAWN_LOW, item::UNDRAWN_LOW, 0, 0);
    put(Showcase::UNDRAWN_HIGH, item::UNDRAWN_HIGH, 0, 0);
    put(Showcase::TALL, item::TOWER, 0, 0);
    out
}
