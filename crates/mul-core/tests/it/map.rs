use mul_core::{ArgumentProblem, ErrorKind, Map, MapSize};

use crate::block_bytes;

use crate::kind;

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
    assert!(
        matches!(err.kind(), ErrorKind::MapLength { found: 1568, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("1176"), "{err}");
    assert!(Map::parse(&bytes[..1175], size).is_err());
}

#[test]
fn sizes_are_detected_only_where_the_length_proves_them() {
    let block = 196u64;
    assert_eq!(MapSize::detect(0, 768 * 512 * block).unwrap().width(), 6144);
    assert_eq!(MapSize::detect(1, 896 * 512 * block).unwrap().width(), 7168);
    // With the padding block.
    let padded = MapSize::detect(0, (896 * 512 + 1) * block).unwrap();
    assert_eq!((padded.width(), padded.height()), (7168, 4096));
    assert_eq!(MapSize::detect(0, 77_070_336).unwrap().width_blocks(), 768);
    assert_eq!(MapSize::detect(0, 89_915_392).unwrap().width_blocks(), 896);
    // Not whole blocks, two extra blocks, nothing, or whole columns of an unknown width.
    for len in [
        896 * 512 * block + 5,
        (896 * 512 + 2) * block,
        0,
        32 * 512 * block,
        800 * 512 * block,
    ] {
        assert!(
            matches!(kind(MapSize::detect(0, len)), Some(ErrorKind::MapSizeUnknown { length, .. }) if length == len),
            "{len}"
        );
    }
    // The others have one size each, which the length must match too.
    for (facet, w, h) in [
        (2, 2304, 1600),
        (3, 2560, 2048),
        (4, 1448, 1448),
        (5, 1280, 4096),
    ] {
        let s = MapSize::preset(facet).unwrap();
        assert_eq!((s.width(), s.height()), (w, h), "facet {facet}");
        assert_eq!(MapSize::detect(facet, s.map_len()).unwrap(), s);
        assert_eq!(MapSize::detect(facet, s.map_len() + block).unwrap(), s);
        assert!(MapSize::detect(facet, s.map_len() - block).is_err());
        assert_eq!(MapSize::known(facet).collect::<Vec<_>>(), [s]);
    }
    assert_eq!(MapSize::preset(0).unwrap().width(), 7168);
    assert_eq!(MapSize::known(1).count(), 2);
    assert!(matches!(
        kind(MapSize::preset(6)),
        Some(ErrorKind::Argument(ArgumentProblem::UnknownFacet {
            facet: 6
        }))
    ));
    assert!(matches!(
        kind(MapSize::detect(6, 64 * block)),
        Some(ErrorKind::MapSizeUnknown {
            facet: 6,
            blocks: 64,
            square: Some(8),
            ..
        })
    ));
}

#[test]
fn sizes_at_the_edges_of_u32_are_refused_not_wrapped() {
    for (w, h) in [
        (u32::MAX / 8, u32::MAX),
        (u32::MAX, u32::MAX),
        (u32::MAX, 1),
        (1, u32::MAX),
        (1 << 29, 1),
    ] {
        assert!(
            matches!(
                kind(MapSize::from_blocks(w, h)),
                Some(ErrorKind::Argument(ArgumentProblem::Dimensions { .. }))
            ),
            "{w} x {h}"
        );
    }
    assert!(MapSize::from_tiles(u32::MAX, 8).is_err());
    let s = MapSize::from_blocks((1 << 29) - 1, 1).unwrap();
    assert_eq!(s.width(), u32::MAX - 7);
    // The block arithmetic at the largest width: the last block, one past it, u32::MAX.
    let last = (1u32 << 29) - 2;
    assert_eq!(s.block_index(last, 0), Some(last as usize));
    assert_eq!(s.block_coords(last as usize), Some((last, 0)));
    assert_eq!(s.block_index(last + 1, 0), None);
    assert_eq!(s.block_index(u32::MAX, u32::MAX), None);
    assert_eq!(s.block_coords(usize::MAX), None);
    assert_eq!(s.map_len(), u64::from(last + 1) * 196);
    // A length whose block count is past u32 squares is no known size.
    assert!(MapSize::detect(0, u64::MAX).is_err());
    assert!(MapSize::detect(0, u64::MAX - u64::MAX % 196).is_err());
    // A map of another size than its bytes, at the edge: refused, not wrapped.
    assert!(Map::parse(&[0; 196], s).is_err());
}

#[test]
fn dimensions_are_checked() {
    assert!(matches!(
        kind(MapSize::from_blocks(0, 5)),
        Some(ErrorKind::Argument(ArgumentProblem::Dimensions { .. }))
    ));
    assert!(MapSize::from_tiles(1024, 1024).is_ok());
    assert!(matches!(
        kind(MapSize::from_tiles(1020, 1024)),
        Some(ErrorKind::Argument(ArgumentProblem::Dimensions { .. }))
    ));
    assert_eq!(
        MapSize::from_tiles(7168, 4096).unwrap().to_string(),
        "7168 x 4096 tiles (896 x 512 blocks)"
    );
}
