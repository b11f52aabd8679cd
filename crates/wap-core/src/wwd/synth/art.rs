//! The pictures of the synthetic level's archive ([`super::level_archive`]): its palette
//! and its tiles and sprites, each drawn here from a few shapes, in integer arithmetic (the
//! same pixels on every machine).

// Pixel arithmetic on the fixed sizes below (at most 128 x 128 pixels).
#![allow(clippy::arithmetic_side_effects)]

use crate::rez::pid::PidPixels;

/// Palette entries of the synthetic level's pictures ([`level_palette`]).
pub mod colour {
    /// The sky's deepest blue, the first of its 48 shades (1 to 48, deep to pale): the
    /// background plane's fill colour.
    pub const SKY: u8 = 1;
    /// The palest sky, at the horizon: the last of the 48 shades.
    pub const HORIZON: u8 = 48;
    /// Cloud white.
    pub const CLOUD: u8 = 64;
    /// The clouds' shaded undersides.
    pub const CLOUD_SHADE: u8 = 65;
    /// Distant hills.
    pub const HILL: u8 = 66;
    /// The distant hills' outline.
    pub const HILL_DARK: u8 = 67;
    /// Grass.
    pub const GRASS: u8 = 68;
    /// Grass in shadow.
    pub const GRASS_DARK: u8 = 69;
    /// Sunlit grass.
    pub const GRASS_LIGHT: u8 = 70;
    /// Earth.
    pub const EARTH: u8 = 71;
    /// Dark earth (pebbles).
    pub const EARTH_DARK: u8 = 72;
    /// Light earth (pebbles).
    pub const EARTH_LIGHT: u8 = 73;
    /// The dark back wall of a pit.
    pub const CAVE: u8 = 74;
    /// Stone.
    pub const STONE: u8 = 75;
    /// Stone in shadow, mortar.
    pub const STONE_DARK: u8 = 76;
    /// Sunlit stone, steel.
    pub const STONE_LIGHT: u8 = 77;
    /// Wood.
    pub const WOOD: u8 = 78;
    /// Dark wood.
    pub const WOOD_DARK: u8 = 79;
    /// Gold.
    pub const GOLD: u8 = 80;
    /// Gold in shadow.
    pub const GOLD_DARK: u8 = 81;
    /// Gold's shine.
    pub const GOLD_LIGHT: u8 = 82;
    /// Red (an officer's coat, a flag, the map's cross).
    pub const RED: u8 = 83;
    /// Dark red.
    pub const RED_DARK: u8 = 84;
    /// Skin.
    pub const SKIN: u8 = 85;
    /// Near black (hats, boots).
    pub const BLACK: u8 = 86;
    /// Blue (a soldier's coat).
    pub const BLUE: u8 = 87;
    /// Dark blue.
    pub const BLUE_DARK: u8 = 88;
    /// Parchment.
    pub const PAPER: u8 = 89;
    /// Parchment's edge.
    pub const PAPER_DARK: u8 = 90;
    /// Leaves.
    pub const LEAF: u8 = 91;
    /// Leaves in shadow, stems.
    pub const LEAF_DARK: u8 = 92;
}

use colour::*;

/// The sky's shades: deep blue to pale, at 1 to 48.
const SKY_FROM: [u8; 3] = [40, 88, 168];
const SKY_TO: [u8; 3] = [196, 226, 246];

/// The named colours from [`colour::CLOUD`] on.
const NAMED: [[u8; 3]; 29] = [
    [250, 250, 252], // cloud
    [212, 226, 242], // cloud shade
    [122, 170, 168], // hill
    [96, 146, 146],  // hill dark
    [76, 168, 52],   // grass
    [44, 120, 36],   // grass dark
    [150, 215, 90],  // grass light
    [139, 94, 56],   // earth
    [104, 68, 40],   // earth dark
    [172, 128, 84],  // earth light
    [58, 40, 30],    // cave
    [150, 150, 160], // stone
    [96, 96, 108],   // stone dark
    [210, 210, 220], // stone light
    [164, 112, 52],  // wood
    [110, 70, 30],   // wood dark
    [255, 208, 40],  // gold
    [196, 146, 20],  // gold dark
    [255, 248, 170], // gold light
    [200, 40, 40],   // red
    [120, 22, 22],   // red dark
    [238, 188, 150], // skin
    [30, 30, 36],    // black
    [56, 80, 170],   // blue
    [30, 44, 110],   // blue dark
    [236, 216, 160], // paper
    [184, 150, 100], // paper dark
    [40, 130, 50],   // leaf
    [24, 90, 34],    // leaf dark
];

/// The palette of the synthetic level's pictures: 0 black, 1 to 48 the sky's shades (deep
/// blue to pale), 64 to 92 the named colours of [`colour`], grey levels elsewhere.
pub fn level_palette() -> [u8; 768] {
    let mut palette = [0u8; 768];
    for (i, rgb) in palette.chunks_exact_mut(3).enumerate() {
        let grey = u8::try_from(i).unwrap_or(0);
        let colour = match i {
            1..=48 => {
                let t = i - 1;
                let mut rgb = [0u8; 3];
                for ((v, &from), &to) in rgb.iter_mut().zip(&SKY_FROM).zip(&SKY_TO) {
                    let (from, to) = (usize::from(from), usize::from(to));
                    *v = u8::try_from(from + (to - from) * t / 47).unwrap_or(0);
                }
                rgb
            }
            64..=92 => NAMED.get(i - 64).copied().unwrap_or([grey; 3]),
            // 0 among them: black.
            _ => [grey; 3],
        };
        rgb.copy_from_slice(&colour);
    }
    palette
}

/// A picture being drawn: palette indices and which pixels are drawn.
pub(crate) struct Canvas {
    w: i32,
    h: i32,
    indices: Vec<u8>,
    opaque: Vec<bool>,
}

impl Canvas {
    /// A transparent `w` x `h` canvas.
    fn new(w: i32, h: i32) -> Canvas {
        let n = usize::try_from(w * h).unwrap_or(0);
        Canvas {
            w,
            h,
            indices: vec![0; n],
            opaque: vec![false; n],
        }
    }

    /// A `w` x `h` canvas of `c`.
    fn filled(w: i32, h: i32, c: u8) -> Canvas {
        let mut canvas = Canvas::new(w, h);
        canvas.indices.fill(c);
        canvas.opaque.fill(true);
        canvas
    }

    fn set(&mut self, x: i32, y: i32, c: u8) {
        if (0..self.w).contains(&x) && (0..self.h).contains(&y) {
            let at = usize::try_from(y * self.w + x).unwrap_or(usize::MAX);
            if let (Some(i), Some(o)) = (self.indices.get_mut(at), self.opaque.get_mut(at)) {
                *i = c;
                *o = true;
            }
        }
    }

    fn clear(&mut self, x: i32, y: i32) {
        if (0..self.w).contains(&x) && (0..self.h).contains(&y) {
            let at = usize::try_from(y * self.w + x).unwrap_or(usize::MAX);
            if let Some(o) = self.opaque.get_mut(at) {
                *o = false;
            }
        }
    }

    /// Fills the rectangle of corners (x0, y0) (included) and (x1, y1) (excluded).
    fn rect(&mut self, (x0, y0): (i32, i32), (x1, y1): (i32, i32), c: u8) {
        for y in y0..y1 {
            for x in x0..x1 {
                self.set(x, y, c);
            }
        }
    }

    /// Fills the ellipse of centre (cx, cy) and radii (rx, ry).
    fn ellipse(&mut self, (cx, cy): (i32, i32), (rx, ry): (i32, i32), c: u8) {
        let (rx, ry) = (rx.max(1), ry.max(1));
        for y in cy - ry..=cy + ry {
            for x in cx - rx..=cx + rx {
                let (dx, dy) = (x - cx, y - cy);
                if dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry {
                    self.set(x, y, c);
                }
            }
        }
    }

    pub(crate) fn pixels(self) -> PidPixels {
        PidPixels {
            width: self.w.unsigned_abs(),
            height: self.h.unsigned_abs(),
            indices: self.indices,
            opaque: self.opaque,
        }
    }
}

/// A number from 0 to 255 of pixel (x, y), the same for (x + 64, y) and (x, y + 64): a
/// texture that repeats seamlessly tile after tile.
fn noise(x: i32, y: i32, salt: u32) -> u32 {
    let (x, y) = (
        x.rem_euclid(64).unsigned_abs(),
        y.rem_euclid(64).unsigned_abs(),
    );
    let mut h = x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77) ^ salt;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h & 0xFF
}

/// Earth with pebbles, over the whole tile.
fn earth(canvas: &mut Canvas) {
    for y in 0..canvas.h {
        for x in 0..canvas.w {
            canvas.set(x, y, EARTH);
        }
    }
    // Pebbles: 3 x 2 blocks at places of the noise, so that they show at a quarter size.
    for y in (0..64).step_by(4) {
        for x in (0..64).step_by(4) {
            match noise(x, y, 7) {
                0..=30 => canvas.rect((x, y), (x + 3, y + 2), EARTH_DARK),
                31..=50 => canvas.rect((x, y), (x + 3, y + 2), EARTH_LIGHT),
                _ => {}
            }
        }
    }
}

/// Grass from the top row down to a ragged edge 10 to 14 rows deep (which `depth` moves),
/// sunlit at the top and shaded at the bottom, over whatever is drawn.
fn grass_band(canvas: &mut Canvas, top: impl Fn(i32) -> i32) {
    for x in 0..canvas.w {
        let t = top(x);
        let deep = 10 + i32::try_from(noise(x, 0, 3) % 5).unwrap_or(0);
        for y in t..t + deep {
            let c = match y - t {
                0..=2 => GRASS_LIGHT,
                d if d >= deep - 3 => GRASS_DARK,
                _ => GRASS,
            };
            canvas.set(x, y, c);
        }
        // Blades above the band on some columns.
        if noise(x, 1, 5) < 40 {
            canvas.set(x, t - 1, GRASS);
        }
    }
}

/// The action plane's tiles ([`super::tiles`]), 64 x 64.
pub(crate) fn action_tile(id: u16) -> Option<Canvas> {
    use super::tile_ids::tiles;
    let mut c = Canvas::new(64, 64);
    match id {
        tiles::CLEAR => {
            // A pit's dark back wall.
            c = Canvas::filled(64, 64, CAVE);
            for y in (0..64).step_by(8) {
                for x in (0..64).step_by(8) {
                    if noise(x, y, 11) < 40 {
                        c.rect((x, y), (x + 4, y + 3), BLACK);
                    }
                }
            }
        }
        tiles::ROCK => earth(&mut c),
        tiles::GRASS => {
            earth(&mut c);
            grass_band(&mut c, |_| 0);
        }
        tiles::LADDER => {
            for (x0, x1) in [(12, 18), (46, 52)] {
                c.rect((x0, 0), (x1, 64), WOOD);
                c.rect((x1 - 2, 0), (x1, 64), WOOD_DARK);
            }
            for y in (4..64).step_by(16) {
                c.rect((18, y), (46, y + 4), WOOD);
                c.rect((18, y + 3), (46, y + 4), WOOD_DARK);
            }
        }
        tiles::SPIKES => {
            c = Canvas::filled(64, 64, CAVE);
            // Four steel spikes in the bottom half, lit from the left.
            for k in 0..4 {
                let centre = 8 + 16 * k;
                for y in 32..64 {
                    let half = (y - 32) / 4;
                    for x in centre - half..=centre + half {
                        c.set(x, y, if x < centre { STONE_LIGHT } else { STONE });
                    }
                }
            }
            c.rect((0, 60), (64, 64), STONE_DARK);
        }
        tiles::SLOPE => {
            // Earth under the diagonal (the collision mask's x + y >= 63), grass along it.
            earth(&mut c);
            for y in 0..64 {
                for x in 0..64 {
                    if x + y < 63 {
                        c.clear(x, y);
                    }
                }
            }
            grass_band(&mut c, |x| 63 - x);
        }
        tiles::HALF_WALL => {
            // Stone blocks on the left half, joints staggered.
            c.rect((0, 0), (32, 64), STONE);
            for row in 0..4 {
                let y = row * 16;
                c.rect((0, y), (32, y + 2), STONE_LIGHT);
                c.rect((0, y + 14), (32, y + 16), STONE_DARK);
                let joint = if row % 2 == 0 { 16 } else { 4 };
                c.rect((joint, y), (joint + 2, y + 16), STONE_DARK);
            }
            c.rect((30, 0), (32, 64), STONE_DARK);
        }
        tiles::LEDGE => {
            // A stone slab in the top 24 rows, its blocks' joints every 32 pixels, its
            // underside ragged.
            c.rect((0, 0), (64, 24), STONE);
            c.rect((0, 0), (64, 4), STONE_LIGHT);
            c.rect((0, 20), (64, 24), STONE_DARK);
            for x in [20, 52] {
                c.rect((x, 4), (x + 3, 20), STONE_DARK);
            }
            for x in 0..64 {
                let hang = i32::try_from(noise(x / 4, 3, 17) % 6).unwrap_or(0);
                c.rect((x, 24), (x + 1, 24 + hang), STONE_DARK);
            }
            // Grass tufts on top.
            for x in 0..64 {
                if noise(x, 2, 9) < 70 {
                    c.set(x, 0, GRASS);
                }
            }
        }
        _ => return None,
    }
    Some(c)
}

/// Rows of the background plane's sky gradient: each tile 8 of the 48 shades.
pub(crate) const GRADIENT_TILES: u16 = 6;

/// The background plane's tiles ([`super::back_tiles`]), 64 x 64.
pub(crate) fn back_tile(id: u16) -> Option<Canvas> {
    use super::tile_ids::back_tiles;
    let c = match id {
        0..GRADIENT_TILES => {
            let mut c = Canvas::new(64, 64);
            for y in 0..64 {
                let shade = SKY + u8::try_from(i32::from(id) * 8 + y / 8).unwrap_or(0);
                c.rect((0, y), (64, y + 1), shade);
            }
            c
        }
        back_tiles::CLOUD_LEFT | back_tiles::CLOUD_RIGHT => {
            // One cloud across two tiles, over the deepest sky.
            let mut c = Canvas::filled(64, 64, SKY);
            let shift = if id == back_tiles::CLOUD_LEFT { 0 } else { -64 };
            for ((cx, cy), r) in [
                ((34, 40), 18),
                ((62, 30), 24),
                ((92, 38), 20),
                ((112, 44), 12),
            ] {
                c.ellipse((cx + shift, cy + 4), (r, r * 3 / 4), CLOUD_SHADE);
                c.ellipse((cx + shift, cy), (r, r * 3 / 4), CLOUD);
            }
            c.rect((0, 54), (64, 64), SKY);
            c
        }
        back_tiles::HILLS_LEFT | back_tiles::HILLS_RIGHT => {
            // Two round hills across two tiles over the palest sky, meeting at the edges.
            let mut c = Canvas::filled(64, 64, HORIZON);
            let (base, across) = if id == back_tiles::HILLS_LEFT {
                (14, 48)
            } else {
                (24, 93)
            };
            for x in 0..64 {
                let top = base + (x - 32) * (x - 32) / across;
                c.rect((x, top), (x + 1, top + 2), HILL_DARK);
                c.rect((x, top + 2), (x + 1, 64), HILL);
            }
            c
        }
        back_tiles::HILL => Canvas::filled(64, 64, HILL),
        _ => return None,
    };
    Some(c)
}

/// The front plane's tiles ([`super::front_tiles`]), 64 x 64: leaves in the top 40 rows,
/// their lower edge ragged, and a vine with leaves on alternate sides, 56 rows long.
pub(crate) fn front_tile(id: u16) -> Option<Canvas> {
    use super::tile_ids::front_tiles;
    let mut c = Canvas::new(64, 64);
    match id {
        front_tiles::LEAVES => {
            for k in 0..8 {
                let (cx, cy) = (
                    4 + k * 8,
                    14 + i32::try_from(noise(k, 0, 13) % 16).unwrap_or(0),
                );
                c.ellipse((cx, cy + 3), (11, 9), LEAF_DARK);
                c.ellipse((cx, cy), (10, 8), LEAF);
            }
            c.rect((0, 0), (64, 12), LEAF_DARK);
            c.rect((0, 0), (64, 8), LEAF);
        }
        front_tiles::VINE => {
            for y in 0..56 {
                // The stem sways 6 pixels each way.
                let phase = y % 32;
                let x = 32 + if phase < 16 { phase - 8 } else { 24 - phase } * 3 / 4;
                c.rect((x - 2, y), (x + 2, y + 1), LEAF_DARK);
                if y % 12 == 4 {
                    let side = if (y / 12) % 2 == 0 { -9 } else { 9 };
                    c.ellipse((x + side, y + 2), (8, 5), LEAF);
                    c.ellipse((x + side, y + 4), (5, 2), LEAF_DARK);
                }
            }
        }
        _ => return None,
    }
    Some(c)
}

/// An object's frame and its offset, for the object sets the synthetic level uses (the
/// folder's last names: `TREASURE/COINS`, `OFFICER`, `SOLDIER`, `CHECKPOINTFLAG`,
/// `MAPPIECE`): each drawn standing on the ground when the object is 32 pixels above it,
/// as [`super::level`] places them.
pub(crate) fn sprite(folder: &str) -> Option<(Canvas, (i32, i32))> {
    let last = folder.rsplit('/').next().unwrap_or("");
    let (canvas, h) = match last {
        "COINS" => {
            let mut c = Canvas::new(40, 32);
            for (cx, cy) in [(12, 22), (28, 23), (20, 13)] {
                c.ellipse((cx, cy + 1), (10, 8), GOLD_DARK);
                c.ellipse((cx, cy), (9, 7), GOLD);
                c.ellipse((cx - 3, cy - 2), (3, 2), GOLD_LIGHT);
            }
            (c, 32)
        }
        "OFFICER" | "SOLDIER" => {
            let (coat, dark) = if last == "OFFICER" {
                (RED, RED_DARK)
            } else {
                (BLUE, BLUE_DARK)
            };
            let mut c = Canvas::new(44, 88);
            c.rect((12, 10), (34, 14), BLACK); // hat brim
            c.rect((16, 2), (30, 10), BLACK); // hat
            c.ellipse((23, 20), (8, 8), SKIN); // head
            c.rect((13, 28), (33, 62), coat); // coat
            c.rect((13, 52), (33, 56), dark); // belt
            c.rect((6, 30), (13, 52), dark); // arm
            c.rect((33, 32), (42, 38), dark); // arm, held out
            c.rect((36, 12), (38, 34), STONE_LIGHT); // sword
            c.rect((14, 62), (21, 80), BLUE_DARK); // legs
            c.rect((25, 62), (32, 80), BLUE_DARK);
            c.rect((12, 80), (22, 88), BLACK); // boots
            c.rect((24, 80), (34, 88), BLACK);
            (c, 88)
        }
        "CHECKPOINTFLAG" => {
            let mut c = Canvas::new(48, 112);
            c.rect((6, 0), (11, 106), WOOD);
            c.rect((9, 0), (11, 106), WOOD_DARK);
            c.rect((0, 104), (18, 112), STONE);
            for y in 6..40i32 {
                let reach = 11 + (34 - (y - 23).abs() * 2).max(0);
                c.rect((11, y), (reach, y + 1), if y < 23 { RED } else { RED_DARK });
            }
            (c, 112)
        }
        "MAPPIECE" => {
            let mut c = Canvas::filled(44, 36, PAPER);
            c.rect((0, 0), (44, 2), PAPER_DARK);
            c.rect((0, 34), (44, 36), PAPER_DARK);
            c.rect((0, 0), (2, 36), PAPER_DARK);
            c.rect((42, 0), (44, 36), PAPER_DARK);
            for k in 0..8 {
                c.rect((4 + k * 3, 28 - k * 2), (6 + k * 3, 30 - k * 2), PAPER_DARK);
            }
            for d in 0..10 {
                c.rect((28 + d, 6 + d), (31 + d, 8 + d), RED);
                c.rect((37 - d, 6 + d), (40 - d, 8 + d), RED);
            }
            (c, 36)
        }
        _ => return None,
    };
    // Centred 32 pixels above the ground: the bottom row on it.
    Some((canvas, (0, 32 - h / 2)))
}

#[cfg(test)]
mod tests {
    use super::Canvas;

    /// Points just past each side and corner, and one a row's length past the end.
    const OUTSIDE: [(i32, i32); 8] = [
        (-1, 1),
        (4, 1),
        (1, -1),
        (1, 3),
        (-1, -1),
        (4, 3),
        (5, 0),
        (0, 7),
    ];

    #[test]
    fn drawing_off_the_canvas_touches_none_of_its_pixels() {
        let mut canvas = Canvas::new(4, 3);
        for (x, y) in OUTSIDE {
            canvas.set(x, y, 9);
        }
        assert!(canvas.opaque.iter().all(|&o| !o));
        assert!(canvas.indices.iter().all(|&i| i == 0));
        let mut canvas = Canvas::filled(4, 3, 5);
        for (x, y) in OUTSIDE {
            canvas.clear(x, y);
        }
        assert!(canvas.opaque.iter().all(|&o| o));
        // Inside, each touches its own pixel only.
        canvas.clear(3, 0);
        canvas.set(0, 2, 7);
        let opaque: Vec<usize> = (0..12).filter(|&i| !canvas.opaque[i]).collect();
        assert_eq!(opaque, [3]);
        assert_eq!(canvas.indices[8], 7);
    }
}
