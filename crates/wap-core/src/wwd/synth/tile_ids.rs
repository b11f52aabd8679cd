//! The tile ids of the synthetic level's tile sets ([`super::level`]), each set's own
//! module; [`super::level_archive`] draws a picture for each.

/// Tile ids of the synthetic tile set, and the record each has in the tile property table.
pub mod tiles {
    /// Empty: single, clear.
    pub const CLEAR: u16 = 0;
    /// Rock: single, solid.
    pub const ROCK: u16 = 1;
    /// Grass top: double, ground in the top 8 pixel rows, clear below.
    pub const GRASS: u16 = 2;
    /// Ladder: single, climb.
    pub const LADDER: u16 = 3;
    /// Spikes: double, death in the bottom half.
    pub const SPIKES: u16 = 4;
    /// Slope rising to the right: mask, solid under the diagonal.
    pub const SLOPE: u16 = 5;
    /// Wall on the left half: double, solid inside.
    pub const HALF_WALL: u16 = 6;
    /// Ledge: double, ground in the top 8 pixel rows, clear below (a stone slab in the top
    /// 16 rows of its picture).
    pub const LEDGE: u16 = 7;
    /// Number of records in the table.
    pub const COUNT: usize = 8;
}

/// Tile ids of the synthetic background plane (tile set `BACK`).
pub mod back_tiles {
    /// The sky's gradient: tiles 0 to 5, each 8 of its 48 shades, deep to pale, from the top.
    pub const GRADIENT: u16 = 0;
    /// A cloud's left half, over the deepest sky.
    pub const CLOUD_LEFT: u16 = 6;
    /// A cloud's right half.
    pub const CLOUD_RIGHT: u16 = 7;
    /// Distant hills over the palest sky, left half.
    pub const HILLS_LEFT: u16 = 8;
    /// Distant hills, right half.
    pub const HILLS_RIGHT: u16 = 9;
    /// Below the hills' tops.
    pub const HILL: u16 = 10;
}

/// Tile ids of the synthetic front plane (tile set `FRONT`).
pub mod front_tiles {
    /// Leaves hanging from the top of the tile.
    pub const LEAVES: u16 = 0;
    /// A vine hanging under them.
    pub const VINE: u16 = 1;
}
