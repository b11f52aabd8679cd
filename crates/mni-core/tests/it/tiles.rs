//! Tile images: plane decoding, masks, tables and map rendering.

use mni_core::raw::{MaskedTileRaw, SolidTileRaw};
use mni_core::tiles::{TILE_PIXELS, ega_rgba};
use mni_core::{
    EGA_PALETTE, ErrorKind, Map, MapFlags, MapTile, MaskedTiles, SolidTiles, TileImages, synth,
    write_map,
};
use zerocopy::FromBytes;

use crate::kind;

#[test]
fn solid_rows_are_blue_green_red_intensity_planes_msb_first() {
    let mut bytes = [0u8; 32];
    // Row 0: blue plane 0x80, green 0x40, red 0x20, intensity 0x10, and pixel 7 in all four.
    bytes[..4].copy_from_slice(&[0x81, 0x41, 0x21, 0x11]);
    // Row 7: only intensity + red on pixel 0 -> colour 12.
    bytes[28..32].copy_from_slice(&[0x00, 0x00, 0x80, 0x80]);
    let tile = SolidTileRaw::ref_from_bytes(&bytes).unwrap();
    let p = tile.pixels();
    assert_eq!(p[0], [1, 2, 4, 8, 0, 0, 0, 15]);
    assert_eq!(p[7][0], 12);
    assert_eq!(p[3], [0; 8]);
    assert_eq!(tile.rgba()[0][7], [0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(SolidTileRaw::from_pixels(&p), *tile);
}

#[test]
fn masked_rows_put_the_mask_first_and_one_means_transparent() {
    let mut bytes = [0u8; 40];
    // Row 0: mask 0x0F (right half transparent); blue + green set on every pixel.
    bytes[..5].copy_from_slice(&[0x0F, 0xFF, 0xFF, 0x00, 0x00]);
    let tile = MaskedTileRaw::ref_from_bytes(&bytes).unwrap();
    let p = tile.pixels();
    assert_eq!(
        p[0],
        [Some(3), Some(3), Some(3), Some(3), None, None, None, None]
    );
    assert_eq!(p[1], [Some(0); 8]);
    let rgba = tile.rgba();
    assert_eq!(
        rgba[0][0],
        [0x00, 0xAA, 0xAA, 0xFF],
        "colour 3 is cyan, opaque"
    );
    assert_eq!(
        rgba[0][4],
        [0, 0, 0, 0],
        "masked pixels are fully transparent"
    );
    // Colour bits under transparent pixels are not kept: compare decoded pixels.
    assert_eq!(MaskedTileRaw::from_pixels(&p).pixels(), p);
}

#[test]
fn palette_is_the_standard_ega_one() {
    assert_eq!(EGA_PALETTE[6], [0xAA, 0x55, 0x00]); // brown, not dark yellow
    assert_eq!(EGA_PALETTE[9], [0x55, 0x55, 0xFF]);
    assert_eq!(ega_rgba(15), [0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(ega_rgba(0x1F), ega_rgba(15), "only the low 4 bits count");
}

#[test]
fn tables_must_be_whole_tiles() {
    assert_eq!(SolidTiles::parse(&[0; 64]).unwrap().len(), 2);
    assert_eq!(MaskedTiles::parse(&[0; 80]).unwrap().len(), 2);
    assert!(matches!(
        kind(SolidTiles::parse(&[0; 33])),
        Some(ErrorKind::RecordMultiple {
            record: 32,
            found: 33,
            ..
        })
    ));
    assert!(matches!(
        kind(MaskedTiles::parse(&[0; 39])),
        Some(ErrorKind::RecordMultiple { record: 40, .. })
    ));
    assert!(SolidTiles::parse(&[]).unwrap().is_empty());
    assert!(SolidTiles::parse(&[0; 64]).unwrap().get(2).is_none());
}

#[test]
fn drawn_cells_skip_commands_and_images_decode_per_cell() {
    // One solid tile (index 10) all colour 4, one masked tile (0) with pixel (0,0) colour 14.
    let mut solid = vec![0u8; 11 * 32];
    for row in 0..8 {
        solid[10 * 32 + row * 4 + 2] = 0xFF; // red plane
    }
    let mut masked = vec![0xFFu8; 40]; // all transparent ...
    masked[..5].copy_from_slice(&[0x7F, 0x00, 0x80, 0x80, 0x80]); // ... but pixel 0 of row 0: G+R+I = 14
    let images = TileImages {
        solid: SolidTiles::parse(&solid).unwrap(),
        masked: MaskedTiles::parse(&masked).unwrap(),
    };
    let mut tiles = vec![0u16; 32_764];
    tiles[0] = 80; // solid 10 at (0, 0)
    tiles[1] = 16_000; // masked 0 at (1, 0)
    tiles[2] = 72; // solid 9: below 80, not scenery
    tiles[32 + 3] = 8 * 500; // solid 500 at (3, 1): no such image
    let bytes = write_map(MapFlags::default(), 32, &[], &tiles).unwrap();
    let map = Map::parse(&bytes).unwrap();
    let drawn: Vec<_> = map.drawn_cells().collect();
    assert_eq!(
        drawn,
        [
            (0, 0, MapTile::Solid(10)),
            (1, 0, MapTile::Masked(0)),
            (3, 1, MapTile::Solid(500)),
        ]
    );
    let solid_pixels = images.pixels(MapTile::Solid(10)).unwrap();
    assert!(solid_pixels.iter().flatten().all(|p| *p == Some(4)));
    let masked_pixels = images.pixels(MapTile::Masked(0)).unwrap();
    assert_eq!(masked_pixels[0][0], Some(14));
    assert_eq!(masked_pixels[0][1], None, "mask bit 1 is transparent");
    assert_eq!(images.pixels(MapTile::Solid(500)), None);
    assert_eq!(ega_rgba(14), [0xFF, 0xFF, 0x55, 0xFF]);
}

#[test]
fn synthetic_tile_set_decodes_to_what_was_drawn() {
    let solid = synth::solid_tiles();
    let table = SolidTiles::parse(&solid).unwrap();
    assert_eq!(table.len(), usize::from(synth::solid::COUNT));
    // The platform tile: a white top row, two cyan rows, then black.
    let p = table.get(synth::solid::PLATFORM).unwrap().pixels();
    assert_eq!(p[0], [15; TILE_PIXELS]);
    assert_eq!(p[1], [3; TILE_PIXELS]);
    assert_eq!(p[7], [0; TILE_PIXELS]);
    let masked = synth::masked_tiles();
    let m = MaskedTiles::parse(&masked).unwrap();
    let flower = m.get(synth::masked::FLOWER).unwrap().pixels();
    assert_eq!(flower[0][0], None);
    assert_eq!(flower[1][3], Some(14));
    assert_eq!(flower[4][3], Some(2));
}
