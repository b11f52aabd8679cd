//! The drawable world's tables and pictures ([`super::World::generate_drawable`],
//! `docs/formats/uo.md`, "Synthetic world"): tiledata.mul giving each placed land kind its
//! texture map and each placed item the flags and height the drawing order depends on,
//! radarcol.mul, and the art and texture maps that draw every land and item id the world
//! places.

// Generators: their arithmetic is on small constants and the lengths of buffers in memory.
#![allow(clippy::arithmetic_side_effects)]

use super::pictures::{self, Shape, Terrain};
use super::tables::{item_tiles, land_tiles, rgb555, tiledata_of};
use super::{item, land};
use crate::art::ITEM_BASE;
use crate::art::write::{ArtPicture, SYNTHETIC_ITEMS, SYNTHETIC_LANDS, synthetic_art_overlaid};
use crate::raw::LAND_TILES;
use crate::texmap::write::{TexmapPicture, synthetic_texmaps_overlaid};
use crate::tiledata::TileFlags;

/// A land kind the drawable world places.
#[derive(Clone, Copy, Debug)]
pub struct LandKind {
    /// Land id.
    pub id: u16,
    /// Its tiledata name.
    pub name: &'static str,
    /// Its tiledata flags.
    pub flags: TileFlags,
    /// Its tiledata texture id: a texture map of [`texmaps`], or 0 (see [`LANDS`]).
    pub texture: u16,
    /// The side of that texture map in pixels (64 or 128), 0 for texture id 0.
    pub side: u32,
    terrain: Terrain,
}

/// The first texture map id [`texmaps`] adds to the synthetic set (whose ids 0 to 299
/// [`crate::texmap::write::synthetic_texmaps`] fills).
pub const FIRST_TEXTURE: u16 = 300;

/// Texture map ids [`texmaps`] writes (0 to 306).
pub const TEXMAPS: usize = 307;

const fn kind(
    id: u16,
    name: &'static str,
    flags: TileFlags,
    texture: u16,
    side: u32,
    terrain: Terrain,
) -> LandKind {
    LandKind {
        id,
        name,
        flags,
        texture,
        side,
        terrain,
    }
}

/// Every land kind the drawable world places, with its texture map. Water (wet) and dirt
/// have texture id 0, whose texture map [`texmaps`] leaves empty, so neither is ever drawn
/// stretched; the shallows are wet with a texture map. Grass, rock and the shallows have
/// 128 x 128 texture maps, the others 64 x 64.
pub const LANDS: [LandKind; 9] = [
    kind(
        land::WATER,
        "water",
        TileFlags::WET.union(TileFlags::IMPASSABLE),
        0,
        0,
        Terrain::Water,
    ),
    kind(
        land::SAND,
        "sand",
        TileFlags::empty(),
        301,
        64,
        Terrain::Sand,
    ),
    kind(
        land::GRASS,
        "grass",
        TileFlags::empty(),
        300,
        128,
        Terrain::Grass,
    ),
    kind(
        land::FOREST,
        "forest",
        TileFlags::empty(),
        302,
        64,
        Terrain::Forest,
    ),
    kind(land::DIRT, "dirt", TileFlags::empty(), 0, 0, Terrain::Dirt),
    kind(
        land::ROCK,
        "rock",
        TileFlags::IMPASSABLE,
        303,
        128,
        Terrain::Rock,
    ),
    kind(
        land::SNOW,
        "snow",
        TileFlags::empty(),
        304,
        64,
        Terrain::Snow,
    ),
    kind(
        land::LAVA,
        "lava",
        TileFlags::DAMAGING.union(TileFlags::IMPASSABLE),
        305,
        64,
        Terrain::Lava,
    ),
    kind(
        land::SHALLOWS,
        "shallows",
        TileFlags::WET,
        306,
        128,
        Terrain::Shallows,
    ),
];

/// The items the drawable world names beyond [`super::tiledata`]'s: (id, name, flags,
/// height).
fn showcase_items() -> [(u16, &'static str, TileFlags, u8); 12] {
    [
        (item::GOLD, "gold coin", TileFlags::GENERIC, 0),
        (item::CRATE, "crate", TileFlags::IMPASSABLE, 6),
        (item::BARREL, "barrel", TileFlags::IMPASSABLE, 6),
        (item::RUG, "rug", TileFlags::BACKGROUND, 0),
        (
            item::TABLE,
            "table",
            TileFlags::SURFACE.union(TileFlags::IMPASSABLE),
            6,
        ),
        (item::VASE, "vase", TileFlags::ARTICLE_A, 4),
        (
            item::BANNER,
            "banner",
            TileFlags::PARTIAL_HUE.union(TileFlags::IMPASSABLE),
            18,
        ),
        (item::CRYSTAL, "crystal", TileFlags::TRANSLUCENT, 12),
        (item::PUDDLE, "puddle", TileFlags::WET, 0),
        (
            item::TOWER,
            "tower",
            TileFlags::WALL.union(TileFlags::IMPASSABLE),
            100,
        ),
        (item::UNDRAWN_LOW, "marker 0x0001", TileFlags::empty(), 0),
        (item::UNDRAWN_HIGH, "marker 0x21BC", TileFlags::empty(), 0),
    ]
}

/// Every item the drawable world names in tiledata.mul: (id, name, flags, height). Each has
/// a picture in [`art`].
pub fn items() -> Vec<(u16, &'static str, TileFlags, u8)> {
    let mut all = item_tiles();
    all.extend(showcase_items());
    all
}

/// The picture of each item of [`items`].
fn item_shapes() -> Vec<(u16, Shape)> {
    let mut shapes: Vec<(u16, Shape)> = item::TREES
        .iter()
        .zip(0u8..)
        .map(|(&id, k)| (id, Shape::Tree(k)))
        .collect();
    shapes.extend([
        (item::BUSH, Shape::Bush),
        (item::BOULDER, Shape::Boulder),
        (item::WALL, Shape::Wall),
        (item::FLOOR, Shape::Floor),
        (item::ROOF, Shape::Roof),
        (item::LAMP, Shape::Lamp),
        (item::GOLD, Shape::Gold),
        (item::CRATE, Shape::Crate),
        (item::BARREL, Shape::Barrel),
        (item::RUG, Shape::Rug),
        (item::TABLE, Shape::Table),
        (item::VASE, Shape::Vase),
        (item::BANNER, Shape::Banner),
        (item::CRYSTAL, Shape::Crystal),
        (item::PUDDLE, Shape::Puddle),
        (item::TOWER, Shape::Tower),
        (item::UNDRAWN_LOW, Shape::Marker),
        (item::UNDRAWN_HIGH, Shape::Marker),
    ]);
    shapes
}

/// tiledata.mul of the drawable world: [`super::tiledata`]'s with the land kinds of
/// [`LANDS`] (their texture ids) and the items of [`items`].
pub fn tiledata() -> Vec<u8> {
    let mut lands: Vec<_> = LANDS
        .iter()
        .map(|l| (l.id, l.name, l.flags, l.texture))
        .collect();
    // Land the generator names that the drawable world does not place keeps its entry.
    for (id, name, flags) in land_tiles() {
        if !lands.iter().any(|l| l.0 == id) {
            lands.push((id, name, flags, 0));
        }
    }
    tiledata_of(&lands, &items())
}

/// radarcol.mul of the drawable world: [`super::radarcol`]'s with colours for the lava,
/// the shallows and the showcase's items.
pub fn radarcol() -> Vec<u8> {
    let mut bytes = super::radarcol();
    let mut set = |i: usize, c: u16| {
        if let Some(slot) = bytes.get_mut(2 * i..2 * i + 2) {
            slot.copy_from_slice(&c.to_le_bytes());
        }
    };
    set(usize::from(land::LAVA), rgb555(240, 110, 16));
    set(usize::from(land::SHALLOWS), rgb555(48, 136, 152));
    for (id, c) in [
        (item::GOLD, rgb555(232, 184, 32)),
        (item::CRATE, rgb555(160, 112, 56)),
        (item::BARREL, rgb555(136, 80, 32)),
        (item::RUG, rgb555(160, 24, 40)),
        (item::TABLE, rgb555(168, 112, 56)),
        (item::VASE, rgb555(128, 128, 128)),
        (item::BANNER, rgb555(144, 144, 144)),
        (item::CRYSTAL, rgb555(144, 224, 248)),
        (item::PUDDLE, rgb555(32, 80, 192)),
        (item::TOWER, rgb555(152, 152, 152)),
        (item::UNDRAWN_LOW, rgb555(248, 0, 248)),
        (item::UNDRAWN_HIGH, rgb555(248, 0, 248)),
    ] {
        set(LAND_TILES + usize::from(id), c);
    }
    bytes
}

/// The drawable world's art, `(artidx.mul, art.mul)`: the synthetic set of
/// [`crate::art::write::synthetic_art`] (same seed, same pictures, item 200 repeating item
/// 10, item 255 empty) with the world's pictures in place at its ids: a 44 x 44 diamond of
/// its terrain for each land kind of [`LANDS`] and a picture of its shape for each item of
/// [`items`]. The index runs to item 0x21BC, the highest the world places (0x4000 +
/// 0x21BD entries). The same seed gives the same bytes.
pub fn art(seed: u64) -> (Vec<u8>, Vec<u8>) {
    art_sized(seed, SYNTHETIC_LANDS, SYNTHETIC_ITEMS)
}

/// [`art`] over [`crate::art::write::synthetic_art_sized`]'s set of `lands` land tiles and
/// `items` items (the index runs to the larger of `items` and item 0x21BC).
pub fn art_sized(seed: u64, lands: usize, items: usize) -> (Vec<u8>, Vec<u8>) {
    let land_pixels: Vec<(u16, Vec<u16>)> = LANDS
        .iter()
        .map(|l| (l.id, pictures::land_tile(l.terrain)))
        .collect();
    let item_pictures: Vec<(u16, pictures::Canvas)> = item_shapes()
        .into_iter()
        .map(|(id, shape)| (id, pictures::item(shape)))
        .collect();
    let mut overlay: Vec<(usize, ArtPicture<'_>)> = land_pixels
        .iter()
        .map(|(id, p)| (usize::from(*id), ArtPicture::Land(p)))
        .collect();
    overlay.extend(item_pictures.iter().map(|(id, c)| {
        (
            ITEM_BASE + usize::from(*id),
            ArtPicture::Item {
                width: c.width,
                height: c.height,
                pixels: &c.pixels,
            },
        )
    }));
    synthetic_art_overlaid(seed, lands, items, &overlay)
}

/// The drawable world's texture maps, `(texidx.mul, texmaps.mul)`: the synthetic set of
/// [`crate::texmap::write::synthetic_texmaps`] (same seed) with id 0 empty (land of
/// texture id 0 then has no texture map: the client never stretches it) and, from
/// [`FIRST_TEXTURE`], the texture map of each land kind of [`LANDS`] that has one, drawn as
/// its land tile is, at its side: ids 0 to 306 ([`TEXMAPS`]). The same seed gives the same
/// bytes.
pub fn texmaps(seed: u64) -> (Vec<u8>, Vec<u8>) {
    let drawn: Vec<(usize, Vec<u16>)> = LANDS
        .iter()
        .filter(|l| l.texture != 0)
        .map(|l| (usize::from(l.texture), pictures::texmap(l.terrain, l.side)))
        .collect();
    let mut overlay: Vec<(usize, TexmapPicture<'_>)> = vec![(0, TexmapPicture::Empty)];
    overlay.extend(drawn.iter().map(|(id, p)| (*id, TexmapPicture::Pixels(p))));
    synthetic_texmaps_overlaid(seed, &overlay)
}
