//! The expectation held to facts computed by hand from docs/formats/uo.md and the crafted
//! world's bytes (the arithmetic is in each comment), so that the library is compared with
//! something known to be right.

use std::sync::OnceLock;

use super::build::{self, BOX, Crafted, GRASS, NEVER, NODIAG, NODRAW, SECRET};
use super::expect::{Faults, Kind, Source, View, table};
use super::raster::{light, lit, normal};

/// The crafted world, built once.
pub(crate) fn world() -> &'static Crafted {
    static WORLD: OnceLock<Crafted> = OnceLock::new();
    WORLD.get_or_init(build::crafted)
}

/// The expected pixel at world point (x, y) and what it shows.
fn pixel(x: i64, y: i64) -> ([u8; 4], Kind) {
    let w = world();
    let (facet, art, tex) = (w.facet(), w.art(), w.texmaps());
    let source = Source {
        facet: &facet,
        art: &art,
        texmaps: Some(&tex),
    };
    let view = View {
        x,
        y,
        width: 1,
        height: 1,
    };
    let e = source.render(view, Faults::default());
    let p = [e.pixels[0], e.pixels[1], e.pixels[2], e.pixels[3]];
    (p, e.kind[0])
}

#[test]
fn expect_table_is_the_clients() {
    let t = table();
    assert_eq!(&t[..8], &[0x00, 0x08, 0x10, 0x18, 0x20, 0x29, 0x31, 0x39]);
    assert_eq!(t[31], 0xFF);
    // v = 4: 0x20, where bit replication gives 0x21.
    assert_eq!(t[4], 0x20);
}

#[test]
fn expect_normal_of_one_raised_corner() {
    // Tile 0, east neighbour 8 (d = 32): the sum is (44 (0 + 0 - 32 - 0), 44 (0 + 0 - 0 -
    // 32), 4 x 968) = (-1408, -1408, 3872), of length 4353.99.
    let (n, tilted) = normal(0, 0, 8, 0, 0);
    assert!(tilted);
    let want = [-0.323_381, -0.323_381, 0.889_298];
    for k in 0..3 {
        assert!((n[k] - want[k]).abs() < 1e-5, "{n:?}");
    }
    assert_eq!(normal(4, 4, 4, 4, 4), ([0.0, 0.0, 1.0], false));
    // A dimple (all four neighbours 5 higher) is stretched, its normal straight up.
    let (n, tilted) = normal(0, 5, 5, 5, 5);
    assert!(tilted && n[2] > 0.999_999 && n[0].abs() < 1e-6 && n[1].abs() < 1e-6);
}

#[test]
fn expect_light_of_a_level_normal() {
    let l = light([0.0, 0.0, 1.0]);
    assert!((l - 0.853_553_4).abs() < 1e-6, "{l}");
    // 255 x 0.8536 = 217.66; 200 x 0.8536 = 170.71.
    assert_eq!(lit(255, l), 218);
    assert_eq!(lit(200, l), 171);
    // The raised corner's normal: n . l = (-0.32338 + 0.88930) x 0.70711 = 0.40017, base
    // 0.70008, light 0.70008 + 0.5 (0.70008 - 0.85355) = 0.62335.
    let (n, _) = normal(0, 0, 8, 0, 0);
    assert!((light(n) - 0.623_35).abs() < 1e-4);
}

#[test]
fn expect_get_tile_z_at_the_edges() {
    let w = world();
    let (facet, art, tex) = (w.facet(), w.art(), w.texmaps());
    let s = Source {
        facet: &facet,
        art: &art,
        texmaps: Some(&tex),
    };
    // Past the south edge: block 1 x 8 + 8 = 16, block (2, 0): tile (20, 0).
    assert_eq!(s.tile_z(12, 64), 10);
    assert_eq!(s.tile_z(12, 65), 6);
    // Past the south edge of the last column, past the east edge, negative.
    assert_eq!(s.tile_z(63, 64), -125);
    assert_eq!(s.tile_z(64, 5), -125);
    assert_eq!(s.tile_z(-1, 3), -125);
    assert_eq!(s.tile_z(3, -1), -125);
    assert_eq!(s.tile_z(12, 63), 5);
}

#[test]
fn expect_flat_tile_shows_its_land_art() {
    // Tile (30, 30), z 0, flat GRASS: top-left (-22, 1298). Pixel 0 (row 0, column 21) is
    // black and opaque; pixel 2 is row 1's first, at column 20.
    assert_eq!(pixel(-1, 1298), ([0, 0, 0, 255], Kind::Flat));
    // land_pixel(3, 2) = rgb(10, 2, 0): 82, 16, 0.
    assert_eq!(build::land_pixel(GRASS, 2), build::rgb(10, 2, 0));
    assert_eq!(pixel(-2, 1299), ([82, 16, 0, 255], Kind::Flat));
    // Outside every tile: nothing.
    assert_eq!(pixel(-5000, -5000), ([0, 0, 0, 0], Kind::Nothing));
}

#[test]
fn expect_stretched_pixel_by_hand() {
    // Tile (38, 8): corners level at 0, its right corner's neighbourhood holds the raised
    // corner (40, 8), so it is stretched. Corners: top (660, 990), right (682, 1012), left
    // (638, 1012), bottom (660, 1034). Pixel (639, 1012) samples (639.5, 1012.5), (1.75,
    // 0.75) from the shifted left vertex: triangle (right, bottom, left) with weights
    // right 1 / 44 = 0.0227, bottom 0.75 / 22 = 0.0341, left 0.9432. s = 0.0568, t =
    // 0.9773: texel (floor(0.5 + 63 s), floor(0.5 + 63 t)) = (4, 62) of texture 1:
    // rgb(4, 30, 7) = 32, 246, 57. The normal 0.0227 x (-0.3234, -0.3234, 0.8893) +
    // 0.9773 x (0, 0, 1) normalised gives light 0.84963: 27.19, 209.01, 48.43.
    assert_eq!(build::tex_pixel(1, 64, 4, 62), build::rgb(4, 30, 7));
    let (p, kind) = pixel(639, 1012);
    assert_eq!(kind, Kind::Stretched);
    assert_eq!(p, [27, 209, 48, 255]);
}

#[test]
fn expect_full_partial_and_past_the_file_hues() {
    // BOX at (16, 52) z 0, hue 3: base (-814, 1474), art 30 x 50 at (-807, 1468). Its
    // pixel (1, 1) is rgb(256 % 29 + 2, 1, 2) = rgb(26, 1, 2); hue 3 is index 2, entry 26:
    // rgb(184 % 32, 5, 7) = rgb(24, 5, 7) = 197, 41, 57.
    assert_eq!(pixel(-806, 1469), ([197, 41, 57, 255], Kind::Static));
    // BOX at (22, 52) with 0x8003: from the mesh, the same full hue 3.
    assert_eq!(pixel(-674, 1601), ([197, 41, 57, 255], Kind::Static));
    // PARTIAL at (18, 52), hue 5 (index 4): art at (-763, 1512). Pixel (1, 5) is grey
    // rgb(2, 2, 2): entry 2 of hue index 4 = rgb(18, 29, 13) = 148, 238, 106. Pixel (1, 1)
    // is rgb(262 % 29 + 2, 1, 2) = rgb(3, 1, 2), not grey: 24, 8, 16.
    assert_eq!(pixel(-762, 1517), ([148, 238, 106, 255], Kind::Static));
    assert_eq!(pixel(-762, 1513), ([24, 8, 16, 255], Kind::Static));
    // BOX at (20, 52) with hue 100, past the file's 16: black. Art at (-719, 1556).
    assert_eq!(pixel(-718, 1557), ([0, 0, 0, 255], Kind::Static));
}

#[test]
fn expect_translucent_blend() {
    // GLASS at (24, 52) over flat GRASS: both at (-638, 1650). At (22, 22): the glass is
    // rgb(20, 23, 22) = 164, 189, 180; the land's pixel 528 is rgb(10, 16, 16) = 82, 131,
    // 131. (178 s + 77 d) / 255 rounded: 139.7, 171.98, 165.7.
    assert_eq!(pixel(-616, 1672), ([139, 171, 165, 255], Kind::Static));
}

#[test]
fn expect_tree_wins_a_tie_with_the_mesh() {
    // (12, 50): TREE (60 x 120, at (-866, 1266)) and BOX (at (-851, 1336)), both priority
    // 1. At (-850, 1337) the tree's pixel (16, 71) = rgb(3274 % 29 + 2, 16, 10) = rgb(28,
    // 16, 10), not grey so untouched by its partial hue: 230, 131, 82.
    assert_eq!(pixel(-850, 1337), ([230, 131, 82, 255], Kind::Static));
    // Its pixel (16, 70) is grey 17: hue 3 (0x8003 & 0x7FFF), entry 17 = rgb(25, 14, 7).
    assert_eq!(pixel(-850, 1336), ([205, 115, 57, 255], Kind::Static));
}

#[test]
fn expect_never_drawn_statics_leave_the_land() {
    // Each at (x, 52), z 0: art 30 x 50 at ((x - 52) 22 - 15, 1694 + 22 (x - 26) - 6);
    // its pixel (1, 1) lies on the land of the tile to the north-west.
    let w = world();
    for s in w
        .placed
        .iter()
        .filter(|s| NEVER.contains(&s.id) || [NODIAG, NODRAW, SECRET].contains(&s.id))
    {
        let (x, y) = (s.x as i64, s.y as i64);
        let px = (x - y) * 22 - 22 + 7 + 1;
        let py = (x + y) * 22 - 22 - 6 + 1;
        let (_, kind) = pixel(px, py);
        assert_eq!(kind, Kind::Flat, "static {:#06X} at ({x}, {y})", s.id);
    }
    // And a box where they stand would show.
    assert!(w.placed.iter().any(|s| s.id == BOX));
}

#[test]
fn expect_culled_tree_hides_its_tile() {
    // (48, 52): TREE2 at z 120 (121 + 40 > 150) stops the walk; the BOX at 125 after it
    // (126 + 5 <= 150) is hidden too. Its pixel (1, 1) would be at (-102, 1673).
    let (_, kind) = pixel(-102, 1673);
    assert_ne!(kind, Kind::Static);
}

#[test]
fn expect_tall_static_reaches_up() {
    // TALL at (12, 60), z 0: base (-1078, 1562), art 44 x 230 at (-1078, 1376): 186 rows
    // above its land. Its pixel (1, 1) is rgb(260 % 29 + 2, 1, 2) = rgb(30, 1, 2).
    assert_eq!(pixel(-1077, 1377), ([246, 8, 16, 255], Kind::Static));
}
