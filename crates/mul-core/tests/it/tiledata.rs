use mul_core::synth;
use mul_core::{ErrorKind, ItemTile, LandTile, TileData, TileDataLayout, TileFlags};

/// An old-layout file (1,036,288 bytes) with land 3 and item 2 written at offsets computed
/// here from the layout: land groups of 4 + 32 * 26 bytes, then item groups of 4 + 32 * 37.
fn old_layout() -> Vec<u8> {
    let mut d = vec![0u8; 1_036_288];
    let land3 = 4 + 3 * 26;
    d[land3..land3 + 4].copy_from_slice(&0x0000_0040u32.to_le_bytes()); // impassable
    d[land3 + 4..land3 + 6].copy_from_slice(&0x0123u16.to_le_bytes()); // texture
    d[land3 + 6..land3 + 11].copy_from_slice(b"grass");
    let item2 = 512 * 836 + 4 + 2 * 37;
    d[item2..item2 + 4].copy_from_slice(&0x8000_0200u32.to_le_bytes()); // stair right | surface
    d[item2 + 4] = 12; // weight
    d[item2 + 16] = 9; // height
    d[item2 + 17..item2 + 37].copy_from_slice(b"a name of 20 bytes!!"); // no NUL at all
    // Item 40 is in item group 1: past its header.
    let item40 = 512 * 836 + 1188 + 4 + 8 * 37;
    d[item40 + 17..item40 + 21].copy_from_slice(b"ankh");
    d
}

#[test]
fn the_old_layout_reads_land_and_items_by_group() {
    let d = old_layout();
    let t = TileData::parse(&d).unwrap();
    assert_eq!(t.layout(), TileDataLayout::Old);
    assert_eq!((t.land_count(), t.item_count()), (16_384, 16_384));
    let land = t.land(3).unwrap();
    assert!(matches!(land, LandTile::Old(_)));
    assert_eq!((land.name(), land.texture()), (&b"grass"[..], 0x0123));
    assert_eq!(land.flags(), TileFlags::IMPASSABLE);
    let item = t.item(2).unwrap();
    assert!(matches!(item, ItemTile::Old(_)));
    assert_eq!(
        item.name(),
        b"a name of 20 bytes!!",
        "all 20 bytes, no further"
    );
    assert_eq!((item.weight(), item.height()), (12, 9));
    assert_eq!(item.flags(), TileFlags::SURFACE | TileFlags::STAIR_RIGHT);
    assert_eq!(t.item(40).unwrap().name(), b"ankh");
    assert!(t.item(16_384).is_none());
    assert!(t.land(16_384).is_none());
}

#[test]
fn other_sizes_are_refused_with_the_three_that_are_valid() {
    for len in [0, 1_036_287, 3_188_737] {
        let err = TileData::parse(&vec![0; len]).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::TileDataLength { found } if found == len as u64),
            "{len}"
        );
        assert!(err.to_string().contains("3188736 (High Seas)"), "{err}");
    }
    let extended = vec![0; 1_644_544];
    let t = TileData::parse(&extended).unwrap();
    assert_eq!(
        (t.layout(), t.item_count()),
        (TileDataLayout::OldExtended, 32_768)
    );
}

#[test]
fn the_high_seas_layout_with_each_header_first() {
    let d = synth::tiledata();
    assert_eq!(d.len(), 3_188_736);
    let t = TileData::parse(&d).unwrap();
    assert_eq!(
        (t.layout(), t.item_count()),
        (TileDataLayout::HighSeas, 65_536)
    );
    // The synthetic file puts headers first; land 0 has no name there, so either order reads
    // tile 0 as empty, and every other tile is where both orders put it.
    let grass = t.land(synth::land::GRASS).unwrap();
    assert_eq!(grass.name(), b"grass");
    let water = t.land(synth::land::WATER).unwrap();
    assert_eq!(water.flags(), TileFlags::WET | TileFlags::IMPASSABLE);
    let wall = t.item(synth::item::WALL).unwrap();
    assert!(matches!(wall, ItemTile::New(_)));
    assert_eq!(
        (wall.name_lossy(), wall.height()),
        ("stone wall".into(), 20)
    );
    assert!(wall.flags().contains(TileFlags::NO_SHOOT));
    assert_eq!(t.item_table()[usize::from(synth::item::ROOF)].1, 3);
}

#[test]
fn land_tile_zero_before_or_after_the_first_header() {
    // High Seas, tile 0 first (the real files): flags 0..8, texture 8..10, name 10..30,
    // then group 0's header at 30..34, then tile 1 at 34.
    let mut real = vec![0u8; 3_188_736];
    real[10..16].copy_from_slice(b"UNUSED");
    real[30..34].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    real[34..42].copy_from_slice(&0x50u64.to_le_bytes());
    real[44..54].copy_from_slice(b"VOID!!!!!!");
    let t = TileData::parse(&real).unwrap();
    assert!(t.tile_zero_first());
    assert_eq!(t.land(0).unwrap().name(), b"UNUSED");
    assert_eq!(t.land(1).unwrap().name(), b"VOID!!!!!!");
    assert_eq!(t.land(1).unwrap().flags().bits(), 0x50);

    // Re-saved by an editor: header 0..4, tile 0 at 4 (name at 14), tile 1 at 34 as before.
    let mut resaved = real.clone();
    resaved[..34].fill(0);
    resaved[0..4].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    resaved[14..20].copy_from_slice(b"UNUSED");
    let t = TileData::parse(&resaved).unwrap();
    assert!(!t.tile_zero_first());
    assert_eq!(t.land(0).unwrap().name(), b"UNUSED");
    assert_eq!(t.land(1).unwrap().name(), b"VOID!!!!!!");
}

#[test]
fn flag_names_ignore_case_and_separators() {
    assert_eq!(
        TileFlags::from_name_ignoring_case("impassable"),
        Some(TileFlags::IMPASSABLE)
    );
    assert_eq!(
        TileFlags::from_name_ignoring_case("NoShoot"),
        Some(TileFlags::NO_SHOOT)
    );
    assert_eq!(
        TileFlags::from_name_ignoring_case("light-source"),
        Some(TileFlags::LIGHT_SOURCE)
    );
    assert_eq!(TileFlags::from_name_ignoring_case("nonsense"), None);
    let names: Vec<&str> = (TileFlags::WET | TileFlags::SURFACE).names().collect();
    assert_eq!(names, ["WET", "SURFACE"]);
    // Unnamed bits are kept.
    let raw = TileFlags::from_bits_retain(1 << 60);
    assert_eq!(raw.bits(), 1 << 60);
    assert_eq!(raw.names().count(), 0);
}
