//! Maps: header, actors, tile values, attributes, error paths and the writer.

use mni_core::map::{MAX_WIDTH, MIN_WIDTH};
use mni_core::{
    Actor, ActorKind, ActorListProblem, ErrorKind, Map, MapFlags, MapTile, TileAttrTable, write_map,
};

use crate::kind;

/// A map file by hand: flags, width, actor words, the actor words, then 32,764 tile values
/// where cell i holds `tile(i)`.
fn map_bytes(flags: u16, width: u16, actor_words: &[u16], tile: impl Fn(usize) -> u16) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&flags.to_le_bytes()); // flags
    b.extend_from_slice(&width.to_le_bytes()); // width in tiles
    b.extend_from_slice(&u16::try_from(actor_words.len()).unwrap().to_le_bytes()); // actor list, words
    for w in actor_words {
        b.extend_from_slice(&w.to_le_bytes());
    }
    for i in 0..32_764 {
        b.extend_from_slice(&tile(i).to_le_bytes());
    }
    b
}

#[test]
fn decodes_header_actors_and_tiles() {
    // flags: backdrop 11, h-scroll, palette animation 3, music 8 (as in A1.MNI but palette).
    let flags = 11 | 1 << 6 | 3 << 8 | 8 << 11;
    let actors = [
        0,
        2,
        60,
        /* special 0 at (2,60) */ 31 + 7,
        100,
        3, /* actor type 7 */
    ];
    let bytes = map_bytes(flags, 512, &actors, |i| {
        u16::try_from(i % 3000).unwrap() * 8
    });
    assert_eq!(bytes.len(), 6 + 12 + 65_528);
    let map = Map::parse(&bytes).unwrap();
    assert_eq!((map.width(), map.height()), (512, 64));
    assert_eq!(
        map.flags(),
        MapFlags {
            backdrop: 11,
            rain: false,
            backdrop_h_scroll: true,
            backdrop_v_scroll: false,
            palette_animation: 3,
            music: 8
        }
    );
    assert_eq!(map.flags().to_bits(), flags);
    let a: Vec<Actor> = map.actors().collect();
    assert_eq!(
        a,
        [
            Actor {
                kind: ActorKind::Special(0),
                x: 2,
                y: 60
            },
            Actor {
                kind: ActorKind::Normal(7),
                x: 100,
                y: 3
            },
        ]
    );
    assert_eq!(map.tile_values().len(), 32_764);
    // Cell (x=5, y=1) is index 517: value 517 * 8 = 4136, solid tile 517.
    assert_eq!(map.tile_value(5, 1), Some(4136));
    assert_eq!(map.tile(5, 1), Some(MapTile::Solid(517)));
    assert!(map.trailing().is_empty());
}

#[test]
fn out_of_grid_and_unstored_cells_are_none() {
    let bytes = map_bytes(0, 64, &[], |_| 8);
    let map = Map::parse(&bytes).unwrap();
    assert_eq!(map.height(), 512);
    assert_eq!(map.tile_value(64, 0), None);
    assert_eq!(map.tile_value(0, 512), None);
    assert_eq!(map.tile_value(59, 511), Some(8)); // index 32,763: the last stored cell
    for x in 60..64 {
        assert_eq!(
            map.tile_value(x, 511),
            None,
            "cell {x} of the last row is not stored"
        );
    }
}

#[test]
fn tile_values_decode_solid_and_masked() {
    assert_eq!(MapTile::from_value(0), MapTile::Solid(0));
    assert_eq!(MapTile::from_value(15_992), MapTile::Solid(1999));
    assert_eq!(MapTile::from_value(16_000), MapTile::Masked(0));
    assert_eq!(MapTile::from_value(16_040), MapTile::Masked(1));
    assert_eq!(MapTile::from_value(55_960), MapTile::Masked(999));
    assert_eq!(ActorKind::from_stored(30), ActorKind::Special(30));
    assert_eq!(ActorKind::from_stored(31), ActorKind::Normal(0));
    assert_eq!(ActorKind::Normal(0).to_stored(), 31);
}

#[test]
fn attributes_of_a_cell_come_from_the_table() {
    let mut attrs = vec![0u8; 7000];
    attrs[12] = 0x0F; // solid tile 12 (value 96) blocks everything
    attrs[2000 + 5 * 2] = 0x81; // masked tile 2 (value 16080): south + clingable
    let table = TileAttrTable::parse(&attrs).unwrap();
    let bytes = map_bytes(0, 32, &[], |i| match i {
        0 => 96,
        1 => 16_080,
        2 => 60_000, // no attribute byte
        _ => 0,
    });
    let map = Map::parse(&bytes).unwrap();
    assert_eq!(map.attributes(0, 0, &table).unwrap().movement(), 0x0F);
    let a = map.attributes(1, 0, &table).unwrap();
    assert!(a.block_south() && a.clingable() && !a.block_north());
    assert_eq!(map.attributes(2, 0, &table), None);
    assert_eq!(map.attributes(40, 0, &table), None);
    let cells: Vec<_> = map.cell_attributes(&table).take(3).map(|a| a.0).collect();
    assert_eq!(cells, [0x0F, 0x81, 0]);
}

#[test]
fn rejects_bad_widths() {
    for width in [0, 16, 31, 48, 100, 4096, u16::MAX] {
        let bytes = map_bytes(0, width, &[], |_| 0);
        let err = Map::parse(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::MapWidth { found } if found == width),
            "{width}: {err}"
        );
    }
    for width in [MIN_WIDTH, 64, 128, 256, 512, 1024, MAX_WIDTH] {
        let bytes = map_bytes(0, width, &[], |_| 0);
        let map = Map::parse(&bytes).unwrap();
        assert_eq!(usize::from(map.width()) * usize::from(map.height()), 32_768);
    }
}

#[test]
fn rejects_actor_lists_that_are_not_whole_or_overrun() {
    let bytes = map_bytes(0, 64, &[1, 2, 3, 4], |_| 0);
    let err = Map::parse(&bytes).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::ActorList {
            words: 4,
            problem: ActorListProblem::NotWholeActors,
            ..
        }
    ));

    // Header claims 33,000 words (66,000 bytes) of actors in a file of 6 + 65,528 bytes.
    let mut bytes = map_bytes(0, 64, &[], |_| 0);
    bytes[4..6].copy_from_slice(&33_000u16.to_le_bytes());
    let err = Map::parse(&bytes).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::ActorList {
                words: 33_000,
                problem: ActorListProblem::PastEnd { available: 65_528 },
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("33000 words"), "{err}");

    // An actor list that fits but leaves too few tile bytes.
    let mut bytes = map_bytes(0, 64, &[], |_| 0);
    bytes[4..6].copy_from_slice(&3u16.to_le_bytes());
    let err = Map::parse(&bytes).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::TooShort {
                found: 65_522,
                expected: 65_528,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn rejects_truncated_files_and_keeps_trailing_bytes() {
    let full = map_bytes(0, 64, &[], |_| 0);
    for len in [0, 5, 6, 1000, full.len() - 1] {
        assert!(
            matches!(
                kind(Map::parse(&full[..len])),
                Some(ErrorKind::TooShort { .. })
            ),
            "{len}"
        );
    }
    let mut longer = full.clone();
    longer.extend_from_slice(b"xyz");
    assert_eq!(Map::parse(&longer).unwrap().trailing(), b"xyz");
}

#[test]
fn writer_round_trips_and_refuses_bad_input() {
    let flags = MapFlags {
        backdrop: 31,
        rain: true,
        backdrop_h_scroll: false,
        backdrop_v_scroll: true,
        palette_animation: 7,
        music: 31,
    };
    let actors = [Actor {
        kind: ActorKind::Normal(5),
        x: 1,
        y: 2,
    }];
    let tiles: Vec<u16> = (0..100).map(|i| i * 8).collect();
    let bytes = write_map(flags, 128, &actors, &tiles).unwrap();
    assert_eq!(bytes.len(), 6 + 6 + 65_528);
    assert_eq!(&bytes[..12], &[0xBF, 0xFF, 128, 0, 3, 0, 36, 0, 1, 0, 2, 0]);
    let map = Map::parse(&bytes).unwrap();
    assert_eq!(map.flags(), flags);
    assert_eq!(map.actors().collect::<Vec<_>>(), actors);
    assert_eq!(map.tile_value(99, 0), Some(792));
    assert_eq!(map.tile_value(100, 0), Some(0), "padded with air");

    assert!(matches!(
        kind(write_map(flags, 100, &[], &[])),
        Some(ErrorKind::Write(_))
    ));
    assert!(matches!(
        kind(write_map(flags, 64, &[], &vec![0; 32_765])),
        Some(ErrorKind::Write(_))
    ));
    let many = vec![actors[0]; 21_846];
    assert!(matches!(
        kind(write_map(flags, 64, &many, &[])),
        Some(ErrorKind::Write(_))
    ));
}

#[test]
fn actor_records_the_actor_list_s_bytes_and_debug() {
    let map = map_bytes(0, 64, &[31, 2, 3, 0, 5, 6], |_| 0);
    let m = Map::parse(&map).unwrap();
    assert_eq!(m.actor_records().len(), 2);
    assert_eq!(m.actor_records()[1].kind.get(), 0);
    let debug = format!("{m:?}");
    assert!(debug.starts_with("Map {") && debug.len() < 1024, "{debug}");
    // Four words are not whole actors: the error gives them in words and bytes.
    let bad = map_bytes(0, 64, &[31, 2, 3, 0], |_| 0);
    assert!(matches!(
        kind(Map::parse(&bad)),
        Some(ErrorKind::ActorList {
            words: 4,
            bytes: 8,
            problem: ActorListProblem::NotWholeActors,
        })
    ));
}
