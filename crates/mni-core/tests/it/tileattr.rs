//! TILEATTR.MNI: lookups, flags and the summary.

use mni_core::{ErrorKind, TileAttrTable, TileAttributes, synth};

#[test]
fn must_be_exactly_7000_bytes() {
    for len in [0, 6999, 7001] {
        let err = TileAttrTable::parse(&vec![0; len]).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::WrongSize { found, expected: 7000, .. } if found == len
        ));
    }
}

#[test]
fn value_over_8_indexes_solid_and_masked_alike() {
    let mut bytes = vec![0u8; 7000];
    bytes[10] = 0x01; // solid tile 10 = value 80
    bytes[1999] = 0x02; // solid tile 1999 = value 15992
    bytes[2000] = 0x04; // masked tile 0 = value 16000
    bytes[2005] = 0x08; // masked tile 1 = value 16040
    bytes[2001] = 0xFF; // slack byte: no tile uses it
    bytes[6995] = 0x80; // masked tile 999 = value 16000 + 999 * 40 = 55960
    let t = TileAttrTable::parse(&bytes).unwrap();
    assert_eq!(t.for_value(80), Some(TileAttributes(1)));
    assert_eq!(t.solid(10), Some(TileAttributes(1)));
    assert_eq!(t.for_value(15992), Some(TileAttributes(2)));
    assert_eq!(t.for_value(16000), Some(TileAttributes(4)));
    assert_eq!(t.masked(0), Some(TileAttributes(4)));
    assert_eq!(t.for_value(16040), Some(TileAttributes(8)));
    assert_eq!(t.masked(1), Some(TileAttributes(8)));
    assert_eq!(t.masked(999), Some(TileAttributes(0x80)));
    assert_eq!(t.for_value(55960), Some(TileAttributes(0x80)));
    assert_eq!(t.solid(2000), None);
    assert_eq!(t.masked(1000), None);
    assert_eq!(t.for_value(56000), None); // 56000 / 8 = 7000: past the end
    assert_eq!(t.tiles().len(), 3000);
    assert_eq!(
        t.tiles().filter(|a| a.0 == 0xFF).count(),
        0,
        "slack bytes are not tiles"
    );
}

#[test]
fn flag_accessors_follow_the_bit_order() {
    type Accessor = fn(TileAttributes) -> bool;
    let checks: [(u8, Accessor); 8] = [
        (0, TileAttributes::block_south),
        (1, TileAttributes::block_north),
        (2, TileAttributes::block_west),
        (3, TileAttributes::block_east),
        (4, TileAttributes::slippery),
        (5, TileAttributes::in_front),
        (6, TileAttributes::sloped),
        (7, TileAttributes::clingable),
    ];
    for (bit, get) in checks {
        let a = TileAttributes(1 << bit);
        assert!(get(a), "bit {bit}");
        assert!(a.has(u32::from(bit)));
        for (other, get_other) in checks {
            if other != bit {
                assert!(!get_other(a), "bit {bit} must not read as bit {other}");
            }
        }
    }
    assert_eq!(TileAttributes(0xA5).movement(), 0x5);
    assert!(!TileAttributes(0xFF).has(8));
    assert_eq!(
        format!("{:?}", TileAttributes(0x11)),
        r#"{"block_south", "slippery"}"#
    );
}

#[test]
fn summary_counts_movement_classes_and_flags() {
    // Synthetic table (see synth::solid_attr / masked_attr): DIRT, GRASS, BRICK, ICE block
    // everything; PLATFORM and the GIRDER (masked) block only south; ONE_WAY blocks only
    // east; SLOPE and LEAVES block nothing like the remaining 2,993 tiles.
    let bytes = synth::tile_attributes();
    let s = TileAttrTable::parse(&bytes).unwrap().summary();
    assert_eq!(s.tiles, 3000);
    assert_eq!(s.blocks_everything, 4);
    assert_eq!(s.south_only, 2);
    assert_eq!(s.other_mix, 1);
    assert_eq!(s.blocks_nothing, 2993);
    // block_south, north, west, east, slippery, in_front, sloped, clingable
    assert_eq!(s.flags, [6, 4, 4, 5, 1, 2, 1, 2]);
}
