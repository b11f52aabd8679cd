//! The generator's tile tables: tiledata.mul, radarcol.mul and hues.mul for the tiles it
//! places (`docs/formats/uo.md`, "Synthetic world").

// Generators: their arithmetic is on the caller's sizes and on small constants, never on
// values read from a file.
#![allow(clippy::arithmetic_side_effects)]

use zerocopy::IntoBytes;
use zerocopy::little_endian::{U16, U32, U64};

use super::{item, land};
use crate::raw::{HueEntry, HueGroup, ItemTileNew, LAND_TILES, LandTileNew, TILES_PER_GROUP};
use crate::tiledata::{TileDataLayout, TileFlags};

/// A 20-byte NUL-padded name.
fn name20(name: &str) -> [u8; 20] {
    let mut out = [0u8; 20];
    for (o, b) in out.iter_mut().zip(name.bytes()) {
        *o = b;
    }
    out
}

/// The land tiles the generator names: (id, name, flags).
pub(super) fn land_tiles() -> [(u16, &'static str, TileFlags); 7] {
    [
        (
            land::WATER,
            "water",
            TileFlags::WET.union(TileFlags::IMPASSABLE),
        ),
        (land::SAND, "sand", TileFlags::empty()),
        (land::GRASS, "grass", TileFlags::empty()),
        (land::FOREST, "forest", TileFlags::empty()),
        (land::DIRT, "dirt", TileFlags::empty()),
        (land::ROCK, "rock", TileFlags::IMPASSABLE),
        (land::SNOW, "snow", TileFlags::empty()),
    ]
}

/// The item tiles the generator names: (id, name, flags, height).
pub(super) fn item_tiles() -> Vec<(u16, &'static str, TileFlags, u8)> {
    let tree = TileFlags::IMPASSABLE
        .union(TileFlags::FOLIAGE)
        .union(TileFlags::ARTICLE_A);
    let mut items: Vec<_> = item::TREES
        .iter()
        .map(|&id| (id, "tree", tree, 20))
        .collect();
    items.extend([
        (
            item::BUSH,
            "bush",
            TileFlags::FOLIAGE.union(TileFlags::ARTICLE_A),
            3,
        ),
        (
            item::BOULDER,
            "boulder",
            TileFlags::IMPASSABLE.union(TileFlags::ARTICLE_A),
            10,
        ),
        (
            item::WALL,
            "stone wall",
            TileFlags::WALL
                .union(TileFlags::IMPASSABLE)
                .union(TileFlags::NO_SHOOT),
            20,
        ),
        (
            item::FLOOR,
            "wooden floor",
            TileFlags::SURFACE.union(TileFlags::BACKGROUND),
            0,
        ),
        (
            item::ROOF,
            "roof",
            TileFlags::ROOF.union(TileFlags::SURFACE),
            3,
        ),
        (
            item::LAMP,
            "lamp post",
            TileFlags::IMPASSABLE.union(TileFlags::LIGHT_SOURCE),
            18,
        ),
    ]);
    items
}

/// tiledata.mul in the High Seas layout, each group's header first.
pub fn tiledata() -> Vec<u8> {
    let lands: Vec<_> = land_tiles()
        .into_iter()
        .map(|(id, name, flags)| (id, name, flags, 0))
        .collect();
    tiledata_of(&lands, &item_tiles())
}

/// tiledata.mul in the High Seas layout, each group's header first, naming `lands` (id,
/// name, flags, texture id) and `items` (id, name, flags, height); the other tiles have no
/// name, flags or texture, the items weight 255.
pub(super) fn tiledata_of(
    lands: &[(u16, &str, TileFlags, u16)],
    items: &[(u16, &str, TileFlags, u8)],
) -> Vec<u8> {
    let layout = TileDataLayout::HighSeas;
    let mut out = Vec::with_capacity(layout.file_len());
    for id in 0..LAND_TILES {
        if id % TILES_PER_GROUP == 0 {
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        let named = lands.iter().find(|l| usize::from(l.0) == id);
        let tile = LandTileNew {
            flags: U64::new(named.map_or(0, |l| l.2.bits())),
            texture: U16::new(named.map_or(0, |l| l.3)),
            name: name20(named.map_or("", |l| l.1)),
        };
        out.extend_from_slice(tile.as_bytes());
    }
    for id in 0..layout.items() {
        if id % TILES_PER_GROUP == 0 {
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        let named = items.iter().find(|i| usize::from(i.0) == id);
        let tile = ItemTileNew {
            flags: U64::new(named.map_or(0, |i| i.2.bits())),
            weight: 255,
            quality: 0,
            misc: U16::new(0),
            unknown2: 0,
            quantity: 0,
            animation: U16::new(0),
            unknown3: 0,
            hue: 0,
            stacking_offset: U16::new(0),
            height: named.map_or(0, |i| i.3),
            name: name20(named.map_or("", |i| i.1)),
        };
        out.extend_from_slice(tile.as_bytes());
    }
    out
}

/// An RGB555 colour from 8-bit channels.
pub(super) const fn rgb555(r: u8, g: u8, b: u8) -> u16 {
    ((r as u16 >> 3) << 10) | ((g as u16 >> 3) << 5) | (b as u16 >> 3)
}

/// radarcol.mul: natural colours for the generator's tiles, grey for the rest.
pub fn radarcol() -> Vec<u8> {
    let mut colours = vec![rgb555(96, 96, 96); LAND_TILES + 0x10000];
    let mut set = |i: usize, c: u16| {
        if let Some(slot) = colours.get_mut(i) {
            *slot = c;
        }
    };
    for (id, c) in [
        (land::WATER, rgb555(24, 56, 140)),
        (land::SAND, rgb555(214, 196, 140)),
        (land::GRASS, rgb555(72, 140, 48)),
        (land::FOREST, rgb555(48, 104, 40)),
        (land::DIRT, rgb555(140, 100, 60)),
        (land::ROCK, rgb555(120, 112, 104)),
        (land::SNOW, rgb555(240, 240, 248)),
    ] {
        set(usize::from(id), c);
    }
    for &t in &item::TREES {
        set(LAND_TILES + usize::from(t), rgb555(24, 72, 24));
    }
    for (id, c) in [
        (item::BUSH, rgb555(56, 112, 40)),
        (item::BOULDER, rgb555(88, 84, 80)),
        (item::WALL, rgb555(160, 160, 168)),
        (item::FLOOR, rgb555(150, 110, 70)),
        (item::ROOF, rgb555(168, 48, 40)),
        (item::LAMP, rgb555(232, 216, 96)),
    ] {
        set(LAND_TILES + usize::from(id), c);
    }
    colours.iter().flat_map(|c| c.to_le_bytes()).collect()
}

/// hues.mul: 8 groups of 8 hues, each a ramp from black to a colour of the wheel.
pub fn hues() -> Vec<u8> {
    let mut out = Vec::new();
    for g in 0..8u16 {
        let mut group = HueGroup {
            header: U32::new(0),
            entries: [HueEntry {
                colours: [U16::new(0); 32],
                table_start: U16::new(0),
                table_end: U16::new(0),
                name: [0; 20],
            }; 8],
        };
        for (e, entry) in group.entries.iter_mut().enumerate() {
            let n = g * 8 + e as u16;
            let (r, gr, b) = ((n * 37) % 32, (n * 17 + 8) % 32, (n * 11 + 16) % 32);
            for (i, c) in entry.colours.iter_mut().enumerate() {
                let i = i as u16;
                *c = U16::new(((r * i / 31) << 10) | ((gr * i / 31) << 5) | (b * i / 31));
            }
            entry.table_start = entry.colours.first().copied().unwrap_or_default();
            entry.table_end = entry.colours.last().copied().unwrap_or_default();
            entry.name = name20(&format!("synthetic hue {}", n + 1));
        }
        out.extend_from_slice(group.as_bytes());
    }
    out
}
