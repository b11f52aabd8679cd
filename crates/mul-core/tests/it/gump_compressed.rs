//! Gumps stored compressed in the UOP as newer clients store them (compression 3: zlib then
//! the BWT stage): the BWT stage and its writer, compressed gumps decoding to the MUL's,
//! and crafted compressed entries each an error for its id alone.

use mul_core::gump::bwt::{self, HEADER_KEY};
use mul_core::gump::write::{
    GumpCompression, SYNTHETIC_GUMPS, gumps_to_compressed_uop, gumps_to_mul, gumps_to_uop,
    synthetic_gumps,
};
use mul_core::picture::MIN_UOP_SLOTS;
use mul_core::{BwtProblem, ErrorKind, Gumps, Limits, Uop, UopEntryProblem, UopIndex, UopPictures};

use crate::gump::{gump_name, hand_gump, pixels, uop_gump};
use crate::uop::{Foreign, foreign_container};

/// Inputs for the BWT stage's round trip: edge cases and seeded random bytes of several
/// shapes (every value, few values, long runs, a skewed mix).
fn bwt_inputs() -> Vec<Vec<u8>> {
    use gamedata_testkit::{ChaCha8Rng, RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(0xB177);
    let mut inputs = vec![
        vec![],
        vec![0],
        vec![255],
        vec![7; 1000],
        (0..=255).collect(),
        (0..=255).rev().collect(),
        (0..4096).map(|i| (i % 256) as u8).collect(),
        (0..3000).map(|i| (i / 300) as u8).collect(),
    ];
    for round in 0..60 {
        let len = (rng.next_u32() % 5000) as usize + round;
        let alphabet = [1, 2, 3, 17, 255, 256][round % 6];
        let input = (0..len)
            .map(|_| {
                let r = rng.next_u32();
                // A skewed mix: low values far more often.
                let v = if round % 2 == 0 {
                    r % alphabet
                } else {
                    (r % alphabet) * (r >> 24) / 255
                };
                v as u8
            })
            .collect();
        inputs.push(input);
    }
    // A real gump's decoded bytes: the synthetic set's largest.
    let (index, data) = synthetic_gumps(3);
    let gumps = Gumps::parse(&index, &data).unwrap();
    let (bytes, extra) = gumps.entry(119).unwrap().unwrap();
    let mut plain = Vec::new();
    plain.extend_from_slice(&(extra >> 16).to_le_bytes());
    plain.extend_from_slice(&(extra & 0xFFFF).to_le_bytes());
    plain.extend_from_slice(bytes);
    inputs.push(plain);
    inputs
}

#[test]
fn the_bwt_stage_undoes_its_writer_on_many_inputs() {
    for input in bwt_inputs() {
        let stored = bwt::compress(&input).unwrap();
        // The header, the counts, one byte a symbol, then the final byte.
        assert_eq!(stored.len(), 4 + 1024 + input.len() + 1);
        let back = bwt::decompress(stored, &Limits::default()).unwrap();
        assert!(back == input, "{} bytes do not come back", input.len());
    }
}

/// The writer's output for [1, 2, 1, 1] is the input worked by hand in `bwt`'s unit test:
/// counts, then 1's segment (place 0, re-insert places 1 and 0), 2's (place 1), coded
/// move-to-front: 3 and 1 at places 3 and 2, a 0 after each at place 1, the segments'
/// bytes at places 0, 1, 1, 1.
#[test]
fn the_bwt_writer_gives_the_hand_worked_bytes() {
    let stored = bwt::compress(&[1, 2, 1, 1]).unwrap();
    assert_eq!(stored[..4], (4u32 ^ HEADER_KEY).to_le_bytes());
    let mut codes = vec![0u8; 1024];
    codes[4..12].copy_from_slice(&[3, 1, 0, 0, 2, 1, 0, 0]);
    assert_eq!(stored[4..1028], codes[..]);
    assert_eq!(stored[1028..], [0, 1, 1, 1, 0]);
}

#[test]
fn compressed_uop_gumps_decode_to_the_mul_gumps() {
    let (index, data) = synthetic_gumps(5);
    let mul = Gumps::parse(&index, &data).unwrap();
    for how in [GumpCompression::ZlibBwt, GumpCompression::Zlib] {
        let converted = gumps_to_compressed_uop(&mul, how).unwrap();
        assert!(converted.left_out.is_empty());
        let uop = converted.files;
        let file = Uop::parse(&uop, &Limits::default()).unwrap();
        assert!(
            file.entries()
                .iter()
                .all(|e| e.raw().compression.get() == how.value())
        );
        let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
        assert_eq!(slots.problems(), 0);
        let gumps = Gumps::from_uop(&slots, &uop);
        assert_eq!(gumps.len(), MIN_UOP_SLOTS);
        for id in 0..SYNTHETIC_GUMPS {
            let want = mul.gump(id as u32).unwrap();
            let got = gumps.decoded(id as u32, &Limits::default()).unwrap();
            let (Some(want), Some(got)) = (want, got) else {
                assert_eq!(id, 199, "only gump 199 is empty");
                assert!(!gumps.is_compressed(id as u32));
                continue;
            };
            assert!(gumps.is_compressed(id as u32) && got.is_decoded());
            let gump = got.gump().unwrap();
            assert_eq!((gump.width(), gump.height()), (want.width(), want.height()));
            assert_eq!(pixels(&gump), pixels(&want), "gump {id}");
            // In place, a compressed gump is an error naming it.
            let error = gumps.gump(id as u32).unwrap_err();
            assert!(matches!(
                error.kind(),
                ErrorKind::UopEntry {
                    problem: UopEntryProblem::PictureCompression(v),
                    ..
                } if v == how.value()
            ));
            assert!(
                error.to_string().contains(&format!("gump {id:#06X}")),
                "{error}"
            );
        }
        // Conversions leave compressed gumps out, each with its error.
        let back = gumps_to_mul(&gumps).unwrap();
        assert_eq!(back.left_out.total(), SYNTHETIC_GUMPS as u64 - 1);
        // A decoder's limit below a gump's decoded bytes is an error for it alone.
        let declared = u64::from(gumps.declared_len(119).unwrap());
        assert!(u64::from(gumps.declared_len(0).unwrap()) < declared);
        let tight = Limits::default().with_max_decoded_bytes(declared - 1);
        let big = gumps.decoded(119, &tight).unwrap_err();
        assert!(matches!(big.kind(), ErrorKind::Limit(_)), "{big}");
        assert!(gumps.decoded(0, &tight).unwrap().is_some());
    }
    // A set past the client's least count of slots keeps its count (the table's entries
    // + 0x4000), compressed as stored as is.
    let mut big_index = index.clone();
    let empty: Vec<u8> = [0xFFu8; 8].into_iter().chain([0; 4]).collect();
    for _ in SYNTHETIC_GUMPS..MIN_UOP_SLOTS + 10 {
        big_index.extend_from_slice(&empty);
    }
    let big = Gumps::parse(&big_index, &data).unwrap();
    assert_eq!(big.len(), MIN_UOP_SLOTS + 10);
    let uop = gumps_to_compressed_uop(&big, GumpCompression::Zlib)
        .unwrap()
        .files;
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    assert_eq!(Gumps::from_uop(&slots, &uop).len(), MIN_UOP_SLOTS + 10);
    // Gumps stored as is are given in place.
    let plain = gumps_to_uop(&mul).unwrap().files;
    let slots = UopIndex::build(&plain, &Limits::default(), UopPictures::Gumps).unwrap();
    let gumps = Gumps::from_uop(&slots, &plain);
    let got = gumps.decoded(20, &Limits::default()).unwrap().unwrap();
    assert!(!got.is_decoded() && !gumps.is_compressed(20));
    assert_eq!(
        pixels(&got.gump().unwrap()),
        pixels(&mul.gump(20).unwrap().unwrap())
    );
}

/// A container of compressed gump entries given as (name hash, stored bytes, decompressed
/// length, compression), through the writer's own table.
fn compressed_container(entries: &[(usize, Vec<u8>, u32, u16)]) -> Vec<u8> {
    let files: Vec<(u64, Vec<u8>, bool)> = entries
        .iter()
        .map(|(id, bytes, _, _)| (gump_name(*id), bytes.clone(), false))
        .collect();
    let foreign = Foreign {
        padding: 0,
        capacity: 4,
        compress_every: 0,
        gaps: 0,
        reverse: true,
    };
    let mut uop = foreign_container(&files, &foreign);
    // Set each entry's decompressed length and compression in the table.
    let file = Uop::parse(&uop, &Limits::default()).unwrap();
    let places: Vec<(usize, u64)> = file
        .entries()
        .iter()
        .map(|e| (e.index(), e.hash()))
        .collect();
    drop(file);
    for (index, hash) in places {
        let (_, _, declared, compression) = entries
            .iter()
            .find(|(id, ..)| gump_name(*id) == hash)
            .unwrap();
        // One block of capacity 4 after the 28-byte header: entry k at 28 + 12 + 34 k.
        let at = 28 + 12 * (index / 4 + 1) + 34 * index;
        uop[at + 16..at + 20].copy_from_slice(&declared.to_le_bytes());
        uop[at + 32..at + 34].copy_from_slice(&compression.to_le_bytes());
    }
    uop
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

#[test]
fn crafted_compressed_gumps_are_errors_for_their_ids_alone() {
    // A hand-made 3 x 2 gump, through the writer's BWT.
    let mut plain = Vec::new();
    plain.extend_from_slice(&3u32.to_le_bytes());
    plain.extend_from_slice(&2u32.to_le_bytes());
    plain.extend_from_slice(&hand_gump());
    let good = bwt::compress(&plain).unwrap();
    // Counts adding up past the limit: symbol 0 counts 2^30.
    // Move-to-front of the list: 0, 0, 0 at place 0, 0x40 at place 0x40, then 0 again at
    // place 1, and the other zeros at place 0.
    let mut huge = vec![0u8; 1028 + 1];
    huge[4..9].copy_from_slice(&[0, 0, 0, 0x40, 1]);
    // A decoded size past 0xFFFF: through zlib alone (compression 1).
    let mut wide = Vec::new();
    wide.extend_from_slice(&0x1_0000u32.to_le_bytes());
    wide.extend_from_slice(&2u32.to_le_bytes());
    let mut wide_stored = uop_gump(3, 2, &[]);
    wide_stored.extend_from_slice(&zlib(&wide));
    // Compression 1 of no size (both sides 0): no gump, as the client shows none.
    let mut unsized_stored = uop_gump(0, 0, &[]);
    unsized_stored.extend_from_slice(&zlib(&plain));
    let entries = vec![
        (0, zlib(&good), good.len() as u32, 3),
        (1, zlib(&good[..1000]), 1000, 3),
        (2, zlib(&huge), huge.len() as u32, 3),
        (3, wide_stored, wide.len() as u32, 1),
        (4, unsized_stored, plain.len() as u32, 1),
        // Declares one byte more than its stream decodes to.
        (5, zlib(&good), good.len() as u32 + 1, 3),
        (6, zlib(&good), good.len() as u32, 2),
    ];
    let uop = compressed_container(&entries);
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    assert_eq!(slots.problems(), 1);
    let gumps = Gumps::from_uop(&slots, &uop);
    let limits = Limits::default().with_max_decoded_bytes(1 << 20);
    let got = gumps.decoded(0, &limits).unwrap().unwrap();
    assert_eq!(
        pixels(&got.gump().unwrap()),
        [0x7C00, 0x7C00, 0x7C00, 0, 0x001F, 0x001F]
    );
    let kind = |id: u32| gumps.decoded(id, &limits).unwrap_err().kind();
    assert_eq!(
        kind(1),
        ErrorKind::Bwt(BwtProblem::TooShort { found: 1000 })
    );
    assert!(matches!(kind(2), ErrorKind::Limit(l) if l.found == 1 << 30));
    assert!(matches!(
        kind(3),
        ErrorKind::UopEntry {
            problem: UopEntryProblem::GumpSize {
                width: Some(0x1_0000),
                height: Some(2)
            },
            ..
        }
    ));
    assert!(gumps.decoded(4, &limits).unwrap().is_none());
    assert!(matches!(
        kind(5),
        ErrorKind::UopEntry {
            problem: UopEntryProblem::Inflate(_),
            ..
        }
    ));
    assert_eq!(
        gumps.gump(6).unwrap_err().kind(),
        ErrorKind::UopEntry {
            index: 0,
            hash: gump_name(6),
            problem: UopEntryProblem::PictureCompression(2)
        }
    );
    let message = gumps.decoded(1, &limits).unwrap_err().to_string();
    assert!(message.contains("gump 0x0001"), "{message}");
}
