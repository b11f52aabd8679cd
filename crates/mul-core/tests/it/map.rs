use mul_core::{Error, Map, MapSize};

use crate::block_bytes;

/// A 2 x 3-block map where block number n (column-major) has base id 1000 * n.
fn map_2x3() -> Vec<u8> {
    (0..6).flat_map(|n| block_bytes(1000 * n)).collect()
}

#[test]
fn blocks_are_column_major_and_cells_row_major() {
    let bytes = map_2x3();
    let size = MapSize::from_blocks(2, 3).unwrap();
    let map = Map::parse(&bytes, size).unwrap();
    assert_eq!((size.width(), size.height(), size.blocks()), (16, 24, 6));
    // Block (1, 0) is number 1 * 3 + 0 = 3.
    assert_eq!(map.block(1, 0).unwrap().cells[0].id.get(), 3000);
    assert_eq!(map.block(0, 2).unwrap().cells[0].id.get(), 2000);
    // Tile (9, 2): block (1, 0), cell (1, 2) = index 17.
    let c = map.cell(9, 2).unwrap();
    assert_eq!((c.id.get(), c.z), (3017, 17 - 32));
    assert_eq!(map.cell(16, 0), None);
    assert_eq!(map.cell(0, 24), None);
    assert_eq!(map.block(2, 0), None);
    // Columns are contiguous runs of 3 blocks.
    let col: Vec<_> = map.column(1).unwrap().collect();
    assert_eq!(col.len(), 3);
    assert_eq!(col[2].cells[63].id.get(), 5063);
    assert!(map.column(2).is_none());
    let runs: Vec<_> = map.runs().collect();
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r.len() == 3));
    assert_eq!(size.block_coords(5), Some((1, 2)));
    assert_eq!(size.block_coords(6), None);
}

#[test]
fn regions_are_clipped_and_row_major() {
    let bytes = map_2x3();
    let map = Map::parse(&bytes, MapSize::from_blocks(2, 3).unwrap()).unwrap();
    let cells: Vec<(u32, u32, u16)> = map
        .region(14, 22, 10, 10)
        .map(|(x, y, c)| (x, y, c.id.get()))
        .collect();
    // Tiles 14..16 x 22..24 of block (1, 2) = number 5: cells (6,6) (7,6) (6,7) (7,7).
    assert_eq!(
        cells,
        [
            (14, 22, 5054),
            (15, 22, 5055),
            (14, 23, 5062),
            (15, 23, 5063)
        ]
    );
    assert_eq!(map.region(16, 0, 5, 5).count(), 0);
}

#[test]
fn one_padding_block_is_accepted_and_other_lengths_are_not() {
    let mut bytes = map_2x3();
    let size = MapSize::from_blocks(2, 3).unwrap();
    bytes.extend(block_bytes(0));
    let map = Map::parse(&bytes, size).unwrap();
    assert!(map.padded());
    assert_eq!(
        map.blocks().count(),
        6,
        "the padding block is not a block of the map"
    );
    assert_eq!(map.as_slice().unwrap().len(), 6);
    bytes.extend(block_bytes(0));
    let err = Map::parse(&bytes, size).unwrap_err();
    assert!(matches!(err, Error::FileSize { found: 1568, .. }), "{err}");
    assert!(err.to_string().contains("1176"), "{err}");
    assert!(Map::parse(&bytes[..1175], size).is_err());
}

#[test]
fn presets_take_facet_0_and_1_widths_from_the_length() {
    let block = 196u64;
    assert_eq!(MapSize::preset(0, 768 * 512 * block).unwrap().width(), 6144);
    assert_eq!(MapSize::preset(1, 896 * 512 * block).unwrap().width(), 7168);
    // With the padding block.
    let padded = MapSize::preset(0, (896 * 512 + 1) * block).unwrap();
    assert_eq!((padded.width(), padded.height()), (7168, 4096));
    assert_eq!(MapSize::preset(0, 77_070_336).unwrap().width_blocks(), 768);
    assert_eq!(MapSize::preset(0, 89_915_392).unwrap().width_blocks(), 896);
    assert!(matches!(
        MapSize::preset(0, 896 * 512 * block + 5),
        Err(Error::FileSize { .. })
    ));
    assert!(MapSize::preset(0, (896 * 512 + 2) * block).is_err());
    assert!(MapSize::preset(0, 0).is_err());
    // The others are fixed, whatever the length.
    for (facet, w, h) in [
        (2, 2304, 1600),
        (3, 2560, 2048),
        (4, 1448, 1448),
        (5, 1280, 4096),
    ] {
        let s = MapSize::preset(facet, 0).unwrap();
        assert_eq!((s.width(), s.height()), (w, h), "facet {facet}");
    }
    assert!(matches!(
        MapSize::preset(6, 0),
        Err(Error::UnknownFacet { facet: 6 })
    ));
}

#[test]
fn dimensions_are_checked() {
    assert!(matches!(
        MapSize::from_blocks(0, 5),
        Err(Error::Dimensions { .. })
    ));
    assert!(MapSize::from_tiles(1024, 1024).is_ok());
    assert!(matches!(
        MapSize::from_tiles(1020, 1024),
        Err(Error::Dimensions { .. })
    ));
    assert_eq!(
        MapSize::from_tiles(7168, 4096).unwrap().to_string(),
        "7168 x 4096 tiles (896 x 512 blocks)"
    );
}
