//! The crafted 64 x 64 facet of the world-view tests, written byte by byte from
//! `docs/formats/uo.md` ("Map", "Statics", "Tiledata", "Hues") and with mul-core's art and
//! texture map writers. Every case of "The client's world view (isometric)" has a place in
//! it; the places are named by the constants below so that tests can aim views at them.

use mul_core::art::write::{ArtPicture, write_art};
use mul_core::texmap::write::{TexmapPicture, write_texmaps};
use mul_core::{Art, Facet, FacetBytes, Hues, MapSize, Texmaps, TileData};

/// The facet's side in tiles.
pub(crate) const SIDE: usize = 64;

/// Tiledata flags used here (docs/formats/uo.md, "Tiledata").
pub(crate) const BACKGROUND: u64 = 0x1;
pub(crate) const TRANSLUCENT: u64 = 0x8;
pub(crate) const WET: u64 = 0x80;
pub(crate) const SURFACE: u64 = 0x200;
pub(crate) const BRIDGE: u64 = 0x400;
pub(crate) const INTERNAL: u64 = 0x1_0000;
pub(crate) const FOLIAGE: u64 = 0x2_0000;
pub(crate) const PARTIAL_HUE: u64 = 0x4_0000;
pub(crate) const ANIMATION: u64 = 0x100_0000;
pub(crate) const NO_DIAGONAL: u64 = 0x200_0000;
pub(crate) const MULTI_MOVABLE: u64 = 0x100_0000_0000;

/// Land ids: 0..=2 never drawn; GRASS takes texture map 1 (64), DIRT 2 (128), WATER is wet
/// with TexID 0, SWAMP wet with TexID 3, VOID points at the empty texture map 4.
pub(crate) const GRASS: u16 = 3;
pub(crate) const DIRT: u16 = 4;
pub(crate) const WATER: u16 = 5;
pub(crate) const SWAMP: u16 = 6;
pub(crate) const VOID: u16 = 7;

/// Item ids and their tiledata (flags, height, name).
pub(crate) const BOX: u16 = 0x0100; // height 5
pub(crate) const BACK: u16 = 0x0101; // Background, height 0
pub(crate) const PLAIN: u16 = 0x0102; // height 0, no flag: culls as 10
pub(crate) const SURF: u16 = 0x0103; // Surface, height 0
pub(crate) const TALL: u16 = 0x0104; // height 20, art 44 x 230
pub(crate) const GLASS: u16 = 0x0105; // Translucent
pub(crate) const PARTIAL: u16 = 0x0106; // PartialHue
pub(crate) const SECRET: u16 = 0x0107; // Internal
pub(crate) const PLANK: u16 = 0x0108; // Bridge, height 30 (15)
pub(crate) const SKY: u16 = 0x0109; // height 255: never culled
pub(crate) const MOVER: u16 = 0x010A; // MultiMovable
pub(crate) const NODIAG: u16 = 0x010B; // NoDiagonal: not drawn
pub(crate) const NODRAW: u16 = 0x010C; // named "NoDraw marker": not drawn
pub(crate) const ANIMATED: u16 = 0x010D; // Animation: drawn the older way
pub(crate) const POLE: u16 = 0x0110; // height 40
pub(crate) const BEAM: u16 = 0x0111; // Bridge, height 120 (60)
pub(crate) const FERN: u16 = 0x0D10; // Foliage (not in the tree list)
pub(crate) const TREE: u16 = 0x0CCA; // in ClassicUO's tree list
pub(crate) const TREE2: u16 = 0x0CCB; // in the tree list, height 40
pub(crate) const NEVER: [u16; 3] = [0x0001, 0x21BC, 0x2198];

/// Item art sizes (width, height).
pub(crate) fn item_size(id: u16) -> (u16, u16) {
    match id {
        TALL => (44, 230),
        TREE | TREE2 => (60, 120),
        FERN => (40, 50),
        GLASS => (44, 44),
        PLAIN | BACK | SURF => (44, 30),
        _ => (30, 50),
    }
}

/// An RGB555 colour from 5-bit channels.
pub(crate) const fn rgb(r: u16, g: u16, b: u16) -> u16 {
    ((r & 31) << 10) | ((g & 31) << 5) | (b & 31)
}

/// Land art id `n`'s pixel k of 1,012 (k = 0 is black: land's colour 0 is opaque).
pub(crate) fn land_pixel(n: u16, k: usize) -> u16 {
    if k == 0 {
        0
    } else {
        rgb(n * 3 + 1, (k % 32) as u16, ((k / 32) % 32) as u16)
    }
}

/// Item `id`'s pixel (i, j): transparent on a lattice, grey on every fifth row, else a
/// colour made of the id and the place.
pub(crate) fn item_pixel(id: u16, i: u16, j: u16) -> u16 {
    let (w, h) = item_size(id);
    if id == GLASS {
        // A diamond: the land tile's footprint.
        let half = 22i32;
        let (x, y) = (i32::from(i), i32::from(j));
        let dy = if y < half { half - 1 - y } else { y - half };
        return if x >= dy && x < i32::from(w) - dy && y < i32::from(h) {
            rgb(20, (i % 32) + 1, j % 32)
        } else {
            0
        };
    }
    if (i * 3 + j).is_multiple_of(11) {
        0
    } else if j.is_multiple_of(5) {
        let v = (i % 31) + 1;
        rgb(v, v, v)
    } else {
        rgb(id % 29 + 2, i % 32, (j % 31) + 1)
    }
}

/// Texture map `t`'s pixel (i, j) of a side `side`.
pub(crate) fn tex_pixel(t: u16, side: u16, i: u16, j: u16) -> u16 {
    rgb(
        i % 32,
        j % 32,
        (i / 32 + 2 * (j / 32) + t * 5 + u16::from(side == 128)) % 32,
    )
}

/// Hue index k's (from 0) colour r of 32.
pub(crate) fn hue_colour(k: u16, r: u16) -> u16 {
    rgb((r * 7 + k) % 32, 31 - r, (k * 3 + 1) % 32)
}

/// A static as written: tile, z, id, hue.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placed {
    pub(crate) x: usize,
    pub(crate) y: usize,
    pub(crate) z: i8,
    pub(crate) id: u16,
    pub(crate) hue: u16,
}

/// Named places.
pub(crate) const PYRAMID: (usize, usize) = (12, 12);
pub(crate) const CORNER: (usize, usize) = (40, 8);
pub(crate) const PIT: (usize, usize) = (30, 40);
pub(crate) const SPIKE: (usize, usize) = (36, 40);
pub(crate) const TALL_AT: (usize, usize) = (12, 60);

/// The crafted world's files.
pub(crate) struct Crafted {
    pub(crate) placed: Vec<Placed>,
    pub(crate) map: Vec<u8>,
    pub(crate) staidx: Vec<u8>,
    pub(crate) statics: Vec<u8>,
    pub(crate) tiledata: Vec<u8>,
    pub(crate) hues: Vec<u8>,
    pub(crate) artidx: Vec<u8>,
    pub(crate) art: Vec<u8>,
    pub(crate) texidx: Vec<u8>,
    pub(crate) texmaps: Vec<u8>,
}

impl Crafted {
    /// The facet's views (tiledata and hues present).
    pub(crate) fn facet(&self) -> Facet<'_> {
        let size = MapSize::from_tiles(SIDE as u32, SIDE as u32).expect("a 64 x 64 size");
        let bytes = FacetBytes {
            map: &self.map,
            staidx: &self.staidx,
            statics: &self.statics,
        };
        let mut facet = Facet::parse(bytes, size, None).expect("the crafted facet parses");
        facet.tiledata = Some(TileData::parse(&self.tiledata).expect("crafted tiledata"));
        facet.hues = Some(Hues::parse(&self.hues).expect("crafted hues"));
        facet
    }

    pub(crate) fn art(&self) -> Art<'_> {
        Art::parse(&self.artidx, &self.art).expect("crafted art")
    }

    pub(crate) fn texmaps(&self) -> Texmaps<'_> {
        Texmaps::parse(&self.texidx, &self.texmaps).expect("crafted texmaps")
    }
}

fn name20(name: &str) -> [u8; 20] {
    let mut out = [0u8; 20];
    for (o, b) in out.iter_mut().zip(name.bytes()) {
        *o = b;
    }
    out
}

/// Land tiledata: (flags, TexID).
fn land_entry(id: usize) -> (u64, u16) {
    match id as u16 {
        0..=GRASS => (0, 1),
        DIRT => (0, 2),
        WATER => (WET, 0),
        SWAMP => (WET, 3),
        VOID => (0, 4),
        _ => (0, 0),
    }
}

/// Item tiledata: (flags, height, name).
fn item_entry(id: u16) -> (u64, u8, &'static str) {
    match id {
        BOX => (0, 5, "box"),
        BACK => (BACKGROUND, 0, "back"),
        PLAIN => (0, 0, "plain"),
        SURF => (SURFACE, 0, "surf"),
        TALL => (0, 20, "tall"),
        GLASS => (TRANSLUCENT, 2, "glass"),
        PARTIAL => (PARTIAL_HUE, 3, "partial"),
        SECRET => (INTERNAL, 3, "secret"),
        PLANK => (BRIDGE, 30, "plank"),
        SKY => (0, 255, "sky"),
        MOVER => (MULTI_MOVABLE, 0, "mover"),
        NODIAG => (NO_DIAGONAL, 3, "nodiag"),
        NODRAW => (0, 3, "NoDraw marker"),
        ANIMATED => (ANIMATION, 4, "animated"),
        POLE => (0, 40, "pole"),
        BEAM => (BRIDGE, 120, "beam"),
        FERN => (FOLIAGE, 0, "fern"),
        TREE => (0, 20, "tree"),
        TREE2 => (0, 40, "tall tree"),
        _ => (0, 1, "thing"),
    }
}

/// tiledata.mul, High Seas layout (u64 flags, 30-byte land and 41-byte item records), each
/// group's header first.
fn tiledata() -> Vec<u8> {
    let mut out = Vec::with_capacity(3_188_736);
    for id in 0..0x4000usize {
        if id % 32 == 0 {
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        let (flags, tex) = land_entry(id);
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&tex.to_le_bytes());
        out.extend_from_slice(&name20(if id == 0 { "UNUSED" } else { "land" }));
    }
    for id in 0..0x1_0000usize {
        if id % 32 == 0 {
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        let (flags, height, name) = item_entry(id as u16);
        out.extend_from_slice(&flags.to_le_bytes());
        // weight, quality, misc, unknown, quantity, animation, unknown, hue, stacking.
        out.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.push(height);
        out.extend_from_slice(&name20(name));
    }
    assert_eq!(out.len(), 3_188_736);
    out
}

/// hues.mul: 2 groups, 16 hues.
fn hues() -> Vec<u8> {
    let mut out = Vec::new();
    for g in 0..2u16 {
        out.extend_from_slice(&0u32.to_le_bytes());
        for e in 0..8u16 {
            let k = g * 8 + e;
            for r in 0..32 {
                out.extend_from_slice(&hue_colour(k, r).to_le_bytes());
            }
            out.extend_from_slice(&[0; 4]);
            out.extend_from_slice(&name20("hue"));
        }
    }
    assert_eq!(out.len(), 2 * 708);
    out
}

/// The terrain: heights and land ids.
fn terrain() -> (Vec<i8>, Vec<u16>) {
    let mut z = vec![0i8; SIDE * SIDE];
    let mut id = vec![GRASS; SIDE * SIDE];
    let at = |x: usize, y: usize| y * SIDE + x;
    // A pyramid: slopes rising in all four directions; its west half DIRT (128 texture).
    for y in 8..=16usize {
        for x in 8..=16usize {
            let d = x.abs_diff(PYRAMID.0).max(y.abs_diff(PYRAMID.1));
            z[at(x, y)] = (5 * (4 - d)) as i8;
            if x < PYRAMID.0 {
                id[at(x, y)] = DIRT;
            }
        }
    }
    // A land id 2 on the pyramid (never drawn, though its neighbours stretch round it).
    id[at(13, 12)] = 2;
    // One raised corner.
    z[at(CORNER.0, CORNER.1)] = 8;
    // A ramp rising east: wet with TexID 0, wet with a TexID, an empty texture map.
    for y in 4..=8 {
        for x in 20..=28 {
            z[at(x, y)] = (2 * (x - 20)) as i8;
            id[at(x, y)] = match y {
                4 | 5 => WATER,
                6 | 7 => SWAMP,
                _ => VOID,
            };
        }
    }
    // Flat water (drawn flat from its art).
    for y in 10..=12 {
        for x in 50..=53 {
            id[at(x, y)] = WATER;
        }
    }
    // Cliffs: a pit and a spike (each folds a triangle over), a plateau 30 high.
    z[at(PIT.0, PIT.1)] = -20;
    z[at(SPIKE.0, SPIKE.1)] = 20;
    for y in 36..=42 {
        for x in 44..=50 {
            z[at(x, y)] = 30;
        }
    }
    // Land ids 0, 1, 2 on flat ground.
    for (k, x) in (2..=4).enumerate() {
        id[at(x, 40)] = k as u16;
    }
    // Heights by the edges: the wrap past the south edge reads column x + 8's top.
    for x in 16..=23 {
        z[at(x, 0)] = 10;
        z[at(x, 1)] = 6;
    }
    for x in 10..=13 {
        z[at(x, 62)] = 3;
        z[at(x, 63)] = 5;
    }
    z[at(63, 30)] = 12;
    z[at(62, 31)] = -6;
    (z, id)
}

/// The statics, in file order within each block.
fn statics() -> Vec<Placed> {
    let p = |x, y, z, id, hue| Placed { x, y, z, id, hue };
    let mut out = vec![
        // A stack: box pz 1, plain pz 1 (file order), background pz -1, surface pz 2,
        // multi-movable pz 1, and boxes at other z.
        p(10, 50, 0, BOX, 0),
        p(10, 50, 1, PLAIN, 0),
        p(10, 50, 0, BACK, 0),
        p(10, 50, 2, SURF, 0),
        p(10, 50, 0, MOVER, 0),
        p(10, 54, 20, BOX, 0),
        p(10, 54, 0, BOX, 0),
        p(10, 54, 10, BOX, 0),
        // A tree and a meshed box of one depth (pz 1); the tree partially hued (0x8000).
        p(12, 50, 0, TREE, 0x8003),
        p(12, 50, 0, BOX, 0),
        // Foliage and a meshed box of one depth (pz 0 each).
        p(14, 50, 0, PLAIN, 0),
        p(14, 50, 1, FERN, 0),
        p(16, 50, 0, ANIMATED, 2),
        // Hues: full, partial (tiledata), past the file, 0x8003 on a meshed static.
        p(16, 52, 0, BOX, 3),
        p(18, 52, 0, PARTIAL, 5),
        p(20, 52, 0, BOX, 100),
        p(22, 52, 0, BOX, 0x8003),
        p(24, 52, 0, GLASS, 0),
        // Never drawn.
        p(26, 52, 0, NEVER[0], 0),
        p(28, 52, 0, NEVER[1], 0),
        p(30, 52, 0, NEVER[2], 0),
        p(32, 52, 0, NODIAG, 0),
        p(34, 52, 0, NODRAW, 0),
        p(36, 52, 0, SECRET, 0),
        // The 150 cull: drawn (143, 148, 255, 141) and culled (161).
        p(40, 52, 127, PLANK, 0),
        p(42, 52, 127, TALL, 0),
        p(44, 52, 127, SKY, 0),
        p(46, 52, 100, POLE, 0),
        p(46, 54, 120, POLE, 0),
        // A tree that fails the cull hides the later objects of its tile.
        p(48, 52, 120, TREE2, 0),
        p(48, 52, 125, BOX, 0),
        // The tall static, south of the view that cuts through it.
        p(TALL_AT.0, TALL_AT.1, 0, TALL, 0),
        // Translucent over stretched land, statics on slopes and at the edges.
        p(11, 13, 15, GLASS, 0),
        p(11, 11, 15, BOX, 7),
        p(10, 63, 5, BOX, 0),
        p(63, 10, 0, BOX, 0),
        p(63, 63, 0, PLAIN, 0),
        p(0, 0, 0, BOX, 0),
    ];
    // Many statics on one flat tile, equal priority: file order decides.
    for k in 0..4u16 {
        out.push(p(20, 56, 0, BOX, k));
    }
    out
}

/// Writes the crafted world.
pub(crate) fn crafted() -> Crafted {
    crafted_with(statics())
}

/// The crafted world's land with only `placed` for statics.
pub(crate) fn crafted_with(placed: Vec<Placed>) -> Crafted {
    let (heights, ids) = terrain();
    // map: 64 blocks column by column, each a u32 header and 64 cells {u16 id, i8 z}.
    let blocks = SIDE / 8;
    let mut map = Vec::with_capacity(blocks * blocks * 196);
    for bx in 0..blocks {
        for by in 0..blocks {
            map.extend_from_slice(&0u32.to_le_bytes());
            for cy in 0..8 {
                for cx in 0..8 {
                    let i = (by * 8 + cy) * SIDE + bx * 8 + cx;
                    map.extend_from_slice(&ids[i].to_le_bytes());
                    map.push(heights[i] as u8);
                }
            }
        }
    }
    // statics: 12-byte index records (empty: 0xFFFFFFFF), 7-byte records.
    let mut staidx = Vec::new();
    let mut data = Vec::new();
    for bx in 0..blocks {
        for by in 0..blocks {
            let start = data.len() as u32;
            for s in placed.iter().filter(|s| s.x / 8 == bx && s.y / 8 == by) {
                data.extend_from_slice(&s.id.to_le_bytes());
                data.extend_from_slice(&[(s.x % 8) as u8, (s.y % 8) as u8, s.z as u8]);
                data.extend_from_slice(&s.hue.to_le_bytes());
            }
            // Block (1, 6): one record outside its block (x = 9), never drawn.
            if (bx, by) == (1, 6) {
                data.extend_from_slice(&BOX.to_le_bytes());
                data.extend_from_slice(&[9, 1, 0, 0, 0]);
            }
            let len = data.len() as u32 - start;
            let offset = if len == 0 { u32::MAX } else { start };
            for v in [offset, if len == 0 { u32::MAX } else { len }, 0] {
                staidx.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    let (artidx, art) = art_files();
    let (texidx, texmaps) = texmap_files();
    Crafted {
        placed,
        map,
        staidx,
        statics: data,
        tiledata: tiledata(),
        hues: hues(),
        artidx,
        art,
        texidx,
        texmaps,
    }
}

/// Land art 0..=7 and the items' art; the rest empty.
fn art_files() -> (Vec<u8>, Vec<u8>) {
    let lands: Vec<Vec<u16>> = (0..8u16)
        .map(|n| (0..1012).map(|k| land_pixel(n, k)).collect())
        .collect();
    let items = [
        BOX, BACK, PLAIN, SURF, TALL, GLASS, PARTIAL, SECRET, PLANK, SKY, MOVER, NODIAG, NODRAW,
        ANIMATED, POLE, FERN, TREE, TREE2, NEVER[0], NEVER[1], NEVER[2], BEAM,
    ];
    let pictures: Vec<(u16, u16, Vec<u16>)> = items
        .iter()
        .map(|&id| {
            let (w, h) = item_size(id);
            let px = (0..h)
                .flat_map(|j| (0..w).map(move |i| item_pixel(id, i, j)))
                .collect();
            (w, h, px)
        })
        .collect();
    let count = 0x4000 + 0x21BD;
    let mut all = vec![ArtPicture::Empty; count];
    for (n, land) in lands.iter().enumerate() {
        all[n] = ArtPicture::Land(land);
    }
    for (&id, (w, h, px)) in items.iter().zip(&pictures) {
        all[0x4000 + usize::from(id)] = ArtPicture::Item {
            width: *w,
            height: *h,
            pixels: px,
        };
    }
    write_art(&all).expect("the crafted art writes")
}

/// Texture maps: 0 and 1 of 64, 2 of 128, 3 of 64, 4 empty.
fn texmap_files() -> (Vec<u8>, Vec<u8>) {
    let make = |t: u16, side: u16| -> Vec<u16> {
        (0..side)
            .flat_map(|j| (0..side).map(move |i| tex_pixel(t, side, i, j)))
            .collect()
    };
    let t0 = make(0, 64);
    let t1 = make(1, 64);
    let t2 = make(2, 128);
    let t3 = make(3, 64);
    write_texmaps(&[
        TexmapPicture::Pixels(&t0),
        TexmapPicture::Pixels(&t1),
        TexmapPicture::Pixels(&t2),
        TexmapPicture::Pixels(&t3),
        TexmapPicture::Empty,
    ])
    .expect("the crafted texture maps write")
}
