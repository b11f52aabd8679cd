//! UOP containers: the name hash against lookup3's published vectors and a UO name hashed
//! by an independent program; containers written here the way another program might (a
//! padded header, several small table blocks, unused entries between used ones, entries in
//! shuffled order, some chunks zlib-compressed); every broken table and entry; maps read
//! from their UOP form the same as from their MUL form.

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use gamedata_io::Limits;
use mul_core::facet::map_uop::{self, map_chunk_name};
use mul_core::synth::World;
use mul_core::uop::{hashlittle2, name_hash};
use mul_core::{
    ErrorKind, Map, MapChunk, MapSize, OverlapWith, Uop, UopEntryProblem, UopTableProblem,
    facet::query,
};

use crate::kind;

#[test]
fn the_hash_matches_lookup3_and_the_uo_names() {
    // lookup3.c's own test vectors (driver5): (key, c seed, b seed) -> (c, b).
    assert_eq!(hashlittle2(b"", 0, 0), (0xDEAD_BEEF, 0xDEAD_BEEF));
    assert_eq!(hashlittle2(b"", 0, 0xDEAD_BEEF), (0xBD5B_7DDE, 0xDEAD_BEEF));
    assert_eq!(
        hashlittle2(b"", 0xDEAD_BEEF, 0xDEAD_BEEF),
        (0x9C09_3CCD, 0xBD5B_7DDE)
    );
    let four = b"Four score and seven years ago";
    assert_eq!(hashlittle2(four, 0, 0), (0x1777_0551, 0xCE72_26E6));
    assert_eq!(hashlittle2(four, 0, 1), (0xE360_7CAE, 0xBD37_1DE4));
    assert_eq!(hashlittle2(four, 1, 0), (0xCD62_8161, 0x6CBE_A4B3));
    // A UO name, hashed by an independent program.
    assert_eq!(
        name_hash("build/soundlegacymul/00000000.dat"),
        0xCB36_450C_320C_D308
    );
    assert_eq!(map_chunk_name(3, 17), "build/map3legacymul/00000017.dat");
    // Keys of 12, 13 and 24 bytes take the block loop's edges (the 12- and 24-byte values
    // from an independent Python port of lookup3.c checked against the vectors above).
    let a = hashlittle2(b"abcdefghijkl", 0, 0);
    let b = hashlittle2(b"abcdefghijklm", 0, 0);
    let c = hashlittle2(b"abcdefghijklmnopqrstuvwx", 0, 0);
    assert!(a != b && b != c && a != c);
    assert_eq!(a, (0x4012_F87B, 0x75B5_0EC0));
    assert_eq!(c, (0x1B63_1FEA, 0xE0BD_774E));
}

/// How the foreign writer lays a container out.
pub(crate) struct Foreign {
    /// Bytes between the 28-byte header and the first table block.
    pub(crate) padding: usize,
    /// Entries a table block holds.
    pub(crate) capacity: usize,
    /// Compress every chunk whose number is a multiple of this (0: none).
    pub(crate) compress_every: usize,
    /// Unused entries put before each used one.
    pub(crate) gaps: usize,
    /// Reverse the entry order.
    pub(crate) reverse: bool,
}

/// A container written independently of the crate's writer: (name hash, data, compress)
/// entries after `f.padding` bytes of header padding.
pub(crate) fn foreign_container(files: &[(u64, Vec<u8>, bool)], f: &Foreign) -> Vec<u8> {
    let mut order: Vec<usize> = (0..files.len()).collect();
    if f.reverse {
        order.reverse();
    } else {
        // A fixed shuffle: odd positions first.
        order.sort_by_key(|&i| (i % 2 == 0, i));
    }
    let mut slots: Vec<Option<usize>> = Vec::new();
    for &i in &order {
        slots.extend(std::iter::repeat_n(None, f.gaps));
        slots.push(Some(i));
    }
    let tables = slots.len().div_ceil(f.capacity).max(1);
    let table_len = 12 + f.capacity * 34;
    let first_table = 28 + f.padding;
    let data_start = first_table + tables * table_len;
    let stored: Vec<Vec<u8>> = files
        .iter()
        .map(|(_, data, compress)| {
            if *compress {
                let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            } else {
                data.clone()
            }
        })
        .collect();
    let mut offsets = vec![0u64; files.len()];
    let mut at = data_start as u64;
    // Data in reverse file order, so neither table nor data order is the name order.
    for i in (0..files.len()).rev() {
        offsets[i] = at;
        at += stored[i].len() as u64;
    }
    let mut out = Vec::new();
    out.extend_from_slice(&0x0050_594Du32.to_le_bytes());
    out.extend_from_slice(&5u32.to_le_bytes());
    out.extend_from_slice(&0xFD23_EC43u32.to_le_bytes());
    out.extend_from_slice(&(first_table as u64).to_le_bytes());
    out.extend_from_slice(&(f.capacity as u32).to_le_bytes());
    out.extend_from_slice(&(files.len() as u32).to_le_bytes());
    out.resize(first_table, 0xAB);
    for (t, group) in slots.chunks(f.capacity).enumerate() {
        let next = if t + 1 < tables {
            (first_table + (t + 1) * table_len) as u64
        } else {
            0
        };
        out.extend_from_slice(&(group.len() as u32).to_le_bytes());
        out.extend_from_slice(&next.to_le_bytes());
        for slot in group {
            let mut entry = [0u8; 34];
            if let Some(i) = *slot {
                let (hash, data, compress) = &files[i];
                entry[0..8].copy_from_slice(&offsets[i].to_le_bytes());
                entry[12..16].copy_from_slice(&(stored[i].len() as u32).to_le_bytes());
                entry[16..20].copy_from_slice(&(data.len() as u32).to_le_bytes());
                entry[20..28].copy_from_slice(&hash.to_le_bytes());
                entry[28..32].copy_from_slice(&adler32(&stored[i]).to_le_bytes());
                entry[32..34].copy_from_slice(&u16::from(*compress).to_le_bytes());
            }
            out.extend_from_slice(&entry);
        }
        out.resize(first_table + (t + 1) * table_len, 0);
    }
    for i in (0..files.len()).rev() {
        out.extend_from_slice(&stored[i]);
    }
    out
}

/// Adler-32 written out from its definition (RFC 1950), not the crate's.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// A MUL map's chunks as container files for facet `facet`.
fn map_files(map: &[u8], facet: u8, compress_every: usize) -> Vec<(u64, Vec<u8>, bool)> {
    map.chunks(4096 * 196)
        .enumerate()
        .map(|(i, chunk)| {
            let compress = compress_every > 0 && i % compress_every == 0;
            (
                name_hash(&map_chunk_name(facet, i)),
                chunk.to_vec(),
                compress,
            )
        })
        .collect()
}

/// 64 x 160 blocks: 10,240 blocks, three chunks (4,096, 4,096 and 2,048).
fn world() -> World {
    World::generate(MapSize::from_blocks(64, 160).unwrap(), 5)
}

#[test]
fn a_foreign_map_uop_reads_like_its_mul() {
    let w = world();
    let mul = Map::parse(&w.map, w.size).unwrap();
    let want = query::land_stats(&mul);
    for f in [
        Foreign {
            padding: 0x1D4,
            capacity: 2,
            compress_every: 2,
            gaps: 1,
            reverse: false,
        },
        Foreign {
            padding: 3,
            capacity: 100,
            compress_every: 0,
            gaps: 0,
            reverse: true,
        },
    ] {
        let mut files = map_files(&w.map, 2, f.compress_every);
        // Other files in the same container, as a real package might hold.
        files.push((name_hash("build/other/0.dat"), vec![7; 300], false));
        let bytes = foreign_container(&files, &f);
        let container = Uop::parse(&bytes, &Limits::default()).unwrap();
        assert_eq!(container.entries().len(), 4);
        for entry in container.entries() {
            assert!(container.check_adler32(entry).unwrap());
        }
        let chunks = map_uop::map_chunks(&container, 2, &Limits::default()).unwrap();
        assert_eq!(
            chunks.iter().map(MapChunk::len).collect::<Vec<_>>(),
            [4096, 4096, 2048]
        );
        assert_eq!(
            chunks
                .iter()
                .filter(|c| matches!(c, MapChunk::InPlace { .. }))
                .count(),
            if f.compress_every == 2 { 1 } else { 3 }
        );
        let map = Map::from_chunks(&bytes, &chunks, w.size).unwrap();
        assert!(map.is_chunked());
        assert_eq!(query::land_stats(&map), want);
        assert_eq!(query::land_stats_par(&map), want);
        // Cell by cell, and block by block in order.
        for (x, y) in [(0, 0), (511, 1279), (100, 655), (257, 640), (3, 1000)] {
            assert_eq!(map.cell(x, y), mul.cell(x, y), "({x}, {y})");
        }
        assert!(map.blocks().eq(mul.blocks()));
        assert!(map.column(63).unwrap().eq(mul.column(63).unwrap()));
        assert_eq!(
            map_uop::read_map_mul(&container, 2, &Limits::default()).unwrap(),
            w.map
        );
    }
}

#[test]
fn the_writer_round_trips_a_mul_map_byte_for_byte() {
    let w = world();
    for padded in [false, true] {
        let mut map = w.map.clone();
        if padded {
            map.extend_from_slice(&[0; 196]);
        }
        let bytes = mul_core::write_map_uop(&map, 0).unwrap();
        let container = Uop::parse(&bytes, &Limits::default()).unwrap();
        assert_eq!(container.header().first_table.get(), 0x200);
        assert_eq!(container.table_blocks(), 1);
        assert_eq!(container.entries().len(), 3);
        for entry in container.entries() {
            assert!(container.check_adler32(entry).unwrap());
            assert_eq!(
                entry.raw().adler32.get(),
                adler32(container.stored(entry).unwrap())
            );
        }
        assert_eq!(
            map_uop::read_map_mul(&container, 0, &Limits::default()).unwrap(),
            map
        );
        let chunks = map_uop::map_chunks(&container, 0, &Limits::default()).unwrap();
        let view = Map::from_chunks(&bytes, &chunks, w.size).unwrap();
        assert_eq!(view.padded(), padded);
        assert_eq!(view.blocks().count(), w.size.blocks());
        // Written by the foreign writer and read back: the same map bytes.
        let f = Foreign {
            padding: 100,
            capacity: 1,
            compress_every: 1,
            gaps: 2,
            reverse: false,
        };
        let foreign = foreign_container(&map_files(&map, 0, 1), &f);
        let c2 = Uop::parse(&foreign, &Limits::default()).unwrap();
        assert_eq!(
            c2.table_blocks(),
            9,
            "three entries, each after two unused ones"
        );
        assert_eq!(
            map_uop::read_map_mul(&c2, 0, &Limits::default()).unwrap(),
            map
        );
    }
    assert!(matches!(
        kind(mul_core::write_map_uop(&[0; 195], 0)),
        Some(ErrorKind::ChunkSize { .. })
    ));
}

fn one_file(data: Vec<u8>, compress: bool) -> Vec<u8> {
    foreign_container(
        &[(name_hash(&map_chunk_name(0, 0)), data, compress)],
        &Foreign {
            padding: 0,
            capacity: 4,
            compress_every: 0,
            gaps: 0,
            reverse: false,
        },
    )
}

fn put(bytes: &mut [u8], at: usize, value: &[u8]) {
    bytes[at..at + value.len()].copy_from_slice(value);
}

#[test]
fn broken_containers_and_entries_are_clear_errors() {
    let limits = Limits::default();
    let good = one_file(vec![1; 196 * 3], false);
    // Not a container, or too short for a header.
    let err = Uop::parse(b"MUL\0 and more bytes than a header needs..", &limits).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UopMagic { found: 0x004C_554D }),
        "{err}"
    );
    // Too short for a header: the bytes there are, as a little-endian number.
    assert!(matches!(
        kind(Uop::parse(b"MYP", &limits)),
        Some(ErrorKind::UopMagic { found: 0x0050_594D })
    ));
    // The first table past the end.
    let mut bad = good.clone();
    put(&mut bad, 12, &(good.len() as u64).to_le_bytes());
    let err = Uop::parse(&bad, &limits).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UopTable { block: 0, .. }),
        "{err}"
    );
    // A table whose count runs past the end (a truncated table).
    let mut bad = good.clone();
    put(&mut bad, 28, &1_000_000u32.to_le_bytes());
    let err = Uop::parse(&bad, &limits).unwrap_err();
    assert!(
        err.to_string()
            .contains("1000000 entries of 34 bytes do not fit"),
        "{err}"
    );
    let err = Uop::parse(&good[..28 + 12 + 20], &limits).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UopTable { .. }), "{err}");
    // A chain that loops back to itself: the block (one entry: 12 + 34 bytes) overlaps itself.
    let mut bad = good.clone();
    put(&mut bad, 28 + 4, &28u64.to_le_bytes());
    let err = Uop::parse(&bad, &limits).unwrap_err();
    assert_eq!(
        err.to_string(),
        "UOP table block 1 at byte 28: bytes 28..74 overlap bytes 28..74 (table block 0)"
    );
    // Offsets and counts at the edges of their words: errors, not wraps.
    for first in [u64::MAX, u64::MAX - 11, 1 << 63] {
        let mut bad = good.clone();
        put(&mut bad, 12, &first.to_le_bytes());
        assert!(matches!(
            kind(Uop::parse(&bad, &limits)),
            Some(ErrorKind::UopTable { block: 0, .. })
        ));
    }
    let mut bad = good.clone();
    put(&mut bad, 28, &u32::MAX.to_le_bytes());
    assert!(matches!(
        kind(Uop::parse(&bad, &limits)),
        Some(ErrorKind::UopTable {
            problem: UopTableProblem::Entries {
                count: u32::MAX,
                ..
            },
            ..
        })
    ));
    for (offset, header_len, stored) in [
        (u64::MAX, 0u32, 1u32),
        (u64::MAX - 3, 4, 0),
        (1, u32::MAX, u32::MAX),
    ] {
        let mut bad = good.clone();
        put(&mut bad, 28 + 12, &offset.to_le_bytes());
        put(&mut bad, 28 + 12 + 8, &header_len.to_le_bytes());
        put(&mut bad, 28 + 12 + 12, &stored.to_le_bytes());
        let c = Uop::parse(&bad, &limits).unwrap();
        let e = *c.entries().first().unwrap();
        assert!(matches!(
            kind(c.stored(&e)),
            Some(ErrorKind::UopEntry {
                problem: UopEntryProblem::OutsideFile { .. },
                ..
            })
        ));
    }
    // A block inside the container header.
    let mut bad = good.clone();
    put(&mut bad, 12, &20u64.to_le_bytes());
    assert!(matches!(
        kind(Uop::parse(&bad, &limits)),
        Some(ErrorKind::UopTable {
            block: 0,
            offset: 20,
            problem: UopTableProblem::Overlap {
                other: OverlapWith::Header,
                other_end: 28,
                ..
            }
        })
    ));
    // Too many entries for the caller's limit.
    let few = Limits::default().with_max_records(0);
    assert!(Uop::parse(&good, &few).is_err());

    // An entry past the end: the table reads, the entry's data is an error naming it, and
    // a good entry beside it still reads.
    let files = vec![
        (name_hash("a"), vec![1; 10], false),
        (name_hash("b"), vec![2; 10], false),
    ];
    let f = Foreign {
        padding: 0,
        capacity: 4,
        compress_every: 0,
        gaps: 0,
        reverse: false,
    };
    let mut two = foreign_container(&files, &f);
    // The first table slot holds file 1 ("b"): its offset moves past the end.
    let len = two.len() as u64;
    put(&mut two, 28 + 12, &(len - 4).to_le_bytes());
    let c = Uop::parse(&two, &limits).unwrap();
    let b = c.find_name("b").unwrap();
    let err = c.stored(b).unwrap_err();
    assert!(err.to_string().contains("lie outside the"), "{err}");
    assert!(matches!(err.kind(), ErrorKind::UopEntry { index: 0, .. }));
    assert_eq!(c.stored(c.find_name("a").unwrap()).unwrap(), &[1; 10]);

    // Unknown compression; a zlib entry whose declared length is wrong; bad zlib.
    let mut bad = one_file(vec![3; 196], true);
    let c = Uop::parse(&bad, &limits).unwrap();
    let e = *c.entries().first().unwrap();
    assert_eq!(&c.contents(&e, &limits).unwrap()[..], &[3; 196][..]);
    put(&mut bad, 28 + 12 + 32, &7u16.to_le_bytes());
    let c = Uop::parse(&bad, &limits).unwrap();
    let err = c
        .contents(c.entries().first().unwrap(), &limits)
        .unwrap_err();
    assert!(
        err.to_string().contains("compression 7 is not known"),
        "{err}"
    );
    let mut bad = one_file(vec![3; 196], true);
    put(&mut bad, 28 + 12 + 16, &195u32.to_le_bytes());
    let c = Uop::parse(&bad, &limits).unwrap();
    let err = c
        .contents(c.entries().first().unwrap(), &limits)
        .unwrap_err();
    assert!(
        err.to_string()
            .ends_with("the zlib stream decodes to 196 bytes, 195 declared"),
        "{err}"
    );
    let small = Limits::default().with_max_decoded_bytes(100);
    let zlib_file = one_file(vec![3; 196], true);
    let c = Uop::parse(&zlib_file, &limits).unwrap();
    assert!(matches!(
        kind(c.contents(c.entries().first().unwrap(), &small)),
        Some(ErrorKind::Limit(_))
    ));

    // Map chunks: missing, not whole blocks, a short chunk that is not the last.
    let c = Uop::parse(&good, &limits).unwrap();
    let err = map_uop::map_chunks(&c, 1, &limits).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the map UOP has no entry named build/map1legacymul/00000000.dat (chunk 0 of 1)"
    );
    let c2 = one_file(vec![1; 200], false);
    let c = Uop::parse(&c2, &limits).unwrap();
    assert!(matches!(
        kind(map_uop::map_chunks(&c, 0, &limits)),
        Some(ErrorKind::ChunkSize {
            chunk: 0,
            found: 200,
            ..
        })
    ));
    let short_first = foreign_container(
        &[
            (name_hash(&map_chunk_name(0, 0)), vec![1; 196], false),
            (name_hash(&map_chunk_name(0, 1)), vec![1; 196], false),
        ],
        &f,
    );
    let c = Uop::parse(&short_first, &limits).unwrap();
    assert!(matches!(
        kind(map_uop::map_chunks(&c, 0, &limits)),
        Some(ErrorKind::ChunkSize { chunk: 0, .. })
    ));
    // A map of the wrong size for its chunks.
    let c = Uop::parse(&good, &limits).unwrap();
    let chunks = map_uop::map_chunks(&c, 0, &limits).unwrap();
    let err = Map::from_chunks(&good, &chunks, MapSize::from_blocks(2, 2).unwrap()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::MapLength { .. }), "{err}");
    assert!(Map::from_chunks(&good, &chunks, MapSize::from_blocks(1, 3).unwrap()).is_ok());
}

/// The crafted container of issue 13: 150 KB whose table blocks start 12 bytes apart, each
/// declaring entries up to the end of the file, so each block's entries run over the blocks
/// after it. Read naively, the chain yields millions of entries from 150 KB.
#[test]
fn overlapping_table_blocks_are_refused_before_their_entries_pile_up() {
    let len = 150 * 1024;
    let mut data = vec![0u8; len];
    put(&mut data, 0, b"MYP\0");
    put(&mut data, 12, &28u64.to_le_bytes());
    let mut at = 28;
    while at + 12 <= len {
        let count = ((len - at - 12) / 34) as u32;
        put(&mut data, at, &count.to_le_bytes());
        let next = if at + 24 <= len { at as u64 + 12 } else { 0 };
        put(&mut data, at + 4, &next.to_le_bytes());
        at += 12;
    }
    // Every entry (each is the bytes of later blocks) has a non-zero offset field somewhere:
    // without the overlap check each block adds thousands of entries.
    let err = Uop::parse(&data, &Limits::default()).unwrap_err();
    match err.kind() {
        ErrorKind::UopTable {
            block: 1,
            offset: 40,
            problem:
                UopTableProblem::Overlap {
                    start: 40,
                    other_start: 28,
                    other: OverlapWith::Block(0),
                    ..
                },
        } => {}
        _ => panic!("{err}"),
    }
    // Blocks laid end to end read; their entries are at most the bytes they hold.
    let files: Vec<_> = (0..10u64)
        .map(|i| (name_hash(&i.to_string()), vec![i as u8; 5], false))
        .collect();
    let f = Foreign {
        padding: 0,
        capacity: 3,
        compress_every: 0,
        gaps: 0,
        reverse: false,
    };
    let container = foreign_container(&files, &f);
    let c = Uop::parse(&container, &Limits::default()).unwrap();
    assert_eq!(c.table_blocks(), 4);
    assert_eq!(c.entries().len(), 10);
}

#[test]
fn a_facet_reads_its_map_from_the_mul_or_the_uop() {
    use mul_core::{FacetData, FacetFiles, FacetOptions, FacetPaths, MapFormat};
    let read = |paths: FacetPaths, options: &FacetOptions| -> mul_core::Result<FacetFiles> {
        let data = FacetData::read_files(&paths, &options.limits)?;
        Ok(FacetFiles::from_data(paths, data, options)?)
    };
    let w = World::generate(MapSize::from_blocks(40, 128).unwrap(), 9);
    let size = FacetOptions::default().with_size(w.size);
    let both = tempfile::tempdir().unwrap();
    w.write_as(both.path(), 2, MapFormat::Mul).unwrap();
    w.write_as(both.path(), 2, MapFormat::Uop).unwrap();
    let only_uop = tempfile::tempdir().unwrap();
    w.write_as(only_uop.path(), 2, MapFormat::Uop).unwrap();
    assert!(only_uop.path().join("map2LegacyMUL.uop").exists());

    // The MUL when present, else the UOP; or as told.
    let mul_paths = FacetPaths::find(both.path(), 2).unwrap();
    assert_eq!(mul_paths.map_format, MapFormat::Mul);
    let uop_paths = FacetPaths::find_as(both.path(), 2, Some(MapFormat::Uop)).unwrap();
    assert_eq!(uop_paths.map_format, MapFormat::Uop);
    assert_eq!(
        FacetPaths::find(only_uop.path(), 2).unwrap().map_format,
        MapFormat::Uop
    );
    let err = FacetPaths::find_as(only_uop.path(), 2, Some(MapFormat::Mul)).unwrap_err();
    assert!(err.to_string().starts_with("no map2.mul in"), "{err}");

    let mul_files = read(mul_paths, &size).unwrap();
    let uop_files = read(uop_paths, &size).unwrap();
    assert_eq!(uop_files.map_len(), mul_files.map_len());
    let a = mul_files.view().unwrap();
    let b = uop_files.view().unwrap();
    assert!(!a.map.is_chunked() && b.map.is_chunked());
    assert_eq!(query::land_stats(&a.map), query::land_stats_par(&b.map));
    for (x, y) in [(0, 0), (319, 1023), (160, 512), (7, 600)] {
        assert_eq!(a.map.cell(x, y), b.map.cell(x, y));
        assert_eq!(a.top_surface(x, y).unwrap(), b.top_surface(x, y).unwrap());
    }
    // A broken UOP names its file.
    let broken = tempfile::tempdir().unwrap();
    w.write_as(broken.path(), 2, MapFormat::Uop).unwrap();
    let path = broken.path().join("map2LegacyMUL.uop");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 1000);
    std::fs::write(&path, bytes).unwrap();
    let err = FacetFiles::open(broken.path(), 2).unwrap_err();
    assert_eq!(err.file(), Some("map2LegacyMUL.uop"));
    assert!(
        err.to_string().starts_with("map2LegacyMUL.uop: UOP entry "),
        "{err}"
    );
    assert!(
        matches!(
            err.kind(),
            Some(ErrorKind::UopEntry {
                problem: UopEntryProblem::OutsideFile { .. },
                ..
            })
        ),
        "{err:?}"
    );
}

#[test]
fn map_chunks_say_their_length_and_print_a_preview() {
    let stored = MapChunk::InPlace {
        offset: 40,
        blocks: 3,
    };
    assert_eq!((stored.len(), stored.is_empty()), (3, false));
    assert_eq!(format!("{stored:?}"), "InPlace { offset: 40, blocks: 3 }");
    let decoded = MapChunk::Decoded(vec![7u8; 2 * 196]);
    assert_eq!((decoded.len(), decoded.is_empty()), (2, false));
    assert_eq!(
        format!("{decoded:?}"),
        "Decoded(392 bytes [07 07 07 07 ..])"
    );
    let empty = MapChunk::Decoded(Vec::new());
    assert_eq!((empty.len(), empty.is_empty()), (0, true));
    assert!(
        MapChunk::InPlace {
            offset: 0,
            blocks: 0
        }
        .is_empty()
    );
}

#[test]
fn a_chunk_of_more_than_4096_blocks_or_none_is_refused_before_decoding() {
    let limits = Limits::default();
    for (len, compress) in [(4097 * 196, false), (4097 * 196, true), (0, false)] {
        let file = one_file(vec![1; len], compress);
        let c = Uop::parse(&file, &limits).unwrap();
        let err = map_uop::map_chunks(&c, 0, &limits).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::ChunkSize { chunk: 0, found, .. } if found == len as u64
            ),
            "{len} bytes, compressed {compress}: {err}"
        );
    }
}

#[test]
fn entries_their_indexes_compression_names_and_debug() {
    let limits = Limits::default();
    let files = [
        (name_hash("build/a/0.dat"), vec![1; 300], true),
        (name_hash("build/a/1.dat"), vec![2; 300], false),
    ];
    let f = Foreign {
        padding: 0,
        capacity: 100,
        compress_every: 0,
        gaps: 0,
        reverse: false,
    };
    let data = foreign_container(&files, &f);
    let file = Uop::parse(&data, &limits).unwrap();
    let entries = file.entries();
    assert_eq!(entries.len(), 2);
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e.index(), i);
    }
    assert_eq!(
        [
            mul_core::Compression::None,
            mul_core::Compression::Zlib,
            mul_core::Compression::Other(3)
        ]
        .map(mul_core::Compression::name),
        ["none", "zlib", "other"]
    );
    let debug = format!("{:?}", entries[0]);
    assert!(
        debug.starts_with("UopEntry {") && debug.len() < 1024,
        "{debug}"
    );
    let debug = format!("{file:?}");
    assert!(debug.starts_with("Uop {") && debug.len() < 1024, "{debug}");
    // The Adler-32 of the stored bytes: right as written, wrong after a byte changes.
    assert!(entries.iter().all(|e| file.check_adler32(e).unwrap()));
    let stored = file.stored(&entries[1]).unwrap();
    let at = stored.as_ptr() as usize - data.as_ptr() as usize;
    let mut changed = data.clone();
    changed[at] ^= 0xFF;
    let file = Uop::parse(&changed, &limits).unwrap();
    let entries = file.entries();
    assert!(!file.check_adler32(&entries[1]).unwrap());
    assert!(file.check_adler32(&entries[0]).unwrap());
}
