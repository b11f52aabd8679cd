//! Walks every reading path of `mul-core` over arbitrary bytes: what the fuzz targets
//! (`fuzz/fuzz_targets/uo_*.rs`) and the regression replay run. Each returns a number
//! derived from what it read, so the work cannot be optimised away; errors are results.
//! None of them may panic, on any input.
//!
//! Inputs that hold two files start with a little-endian u16: the length of the first
//! file (the index), which follows; the rest is the second file (the data).

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose), and their
// coordinates come from sizes the parsers checked. Their assertions are the properties
// the fuzzer checks: a failed one is a finding.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::panic,
    clippy::expect_used,
    clippy::indexing_slicing
)]

mod anim;
mod anim_uop;
mod animdata;
mod art;
mod def;
mod facet;
mod gump;
mod texmap;
mod verdata;

pub use anim::anim;
pub use anim_uop::anim_uop;
pub use animdata::animdata;
pub use art::art;
pub use def::def_text;
pub use facet::{folder, patched};
pub use gump::{bwt, gump};
pub use texmap::texmap;
pub use verdata::verdata;

use crate::io::split_parts;
use mul_core::colours::{Hues, RadarColours};

use mul_core::facet::map::{Map, MapSize};
use mul_core::facet::query;
use mul_core::facet::query::{LandStats, StaticsStats};
use mul_core::facet::statics::{StaticSlice, Statics};
use mul_core::facet::{Facet, FacetBytes};
use mul_core::multi::Multis;
use mul_core::tiledata::{TileData, TileFlags};

/// tiledata.mul: every land tile, a sample of item tiles, names and flags.
pub fn tiledata(data: &[u8]) -> u64 {
    let Ok(t) = TileData::parse(data) else {
        return 0;
    };
    let mut acc = u64::from(t.tile_zero_first()) + format!("{t:?}").len() as u64;
    assert_eq!(t.layout().file_len(), data.len());
    acc = acc.wrapping_add((t.land_count() + t.item_count()) as u64);
    for id in (0..=u16::MAX).step_by(7) {
        if let Some(l) = t.land(id) {
            acc = acc.wrapping_add(l.flags().bits() ^ u64::from(l.texture()));
            acc = acc.wrapping_add(l.name_lossy().len() as u64);
        }
        if let Some(i) = t.item(id) {
            // Every named flag set reads back by its name, in any case.
            for name in i.flags().names() {
                let mut lower = [0u8; 32];
                let lower = lower.get_mut(..name.len()).expect("flag names are short");
                lower.copy_from_slice(name.as_bytes());
                lower.make_ascii_lowercase();
                let lower = std::str::from_utf8(lower).expect("ASCII");
                let flag = TileFlags::from_name_ignoring_case(lower);
                assert!(flag.is_some_and(|f| i.flags().contains(f)), "{name}");
            }
            acc = acc.wrapping_add(u64::from(i.quality() ^ i.quantity() ^ i.hue()));
            acc = acc.wrapping_add(u64::from(i.animation()) + i.name_lossy().len() as u64);
            acc = acc.wrapping_add(i.flags().bits() ^ u64::from(i.height()));
            acc = acc.wrapping_add(i.name().len() as u64 + u64::from(i.weight()));
        }
    }
    acc.wrapping_add(t.item_table().len() as u64)
}

/// A map: the first byte is the width in blocks (1..=32), the rest the map file; every
/// cell, a region, and the land statistics both ways (they must agree).
pub fn map(data: &[u8]) -> u64 {
    let Some((&w, bytes)) = data.split_first() else {
        return 0;
    };
    let width = u32::from(w % 32) + 1;
    let blocks = bytes.len() / 196;
    let height = u32::try_from(blocks / width as usize).unwrap_or(0);
    let Ok(size) = MapSize::from_blocks(width, height.max(1)) else {
        return 1;
    };
    let map = match Map::parse(bytes, size) {
        Ok(m) => m,
        Err(e) => return e.to_string().len() as u64,
    };
    let seq = land_both_ways(&map);
    assert_eq!(map.len(), size.blocks());
    assert!(!map.is_empty() && !map.is_chunked() && map.patch().is_none());
    assert_eq!(map.as_slice().map(<[_]>::len), Some(size.blocks()));
    assert_eq!(map.padded(), bytes.len() > size.blocks() * 196);
    let mut acc = seq.cells + format!("{map:?}").len() as u64;
    for (x, y, c) in map.region(3, 5, 20, 20) {
        acc = acc.wrapping_add(u64::from(x ^ y) + u64::from(c.id.get()));
    }
    acc.wrapping_add(map.column(width - 1).map_or(0, |c| c.count() as u64))
        .wrapping_add(
            map.cell(size.width(), 0)
                .map_or(7, |c| u64::from(c.id.get())),
        )
}

/// Statics (index + data): validation, every block, the statistics both ways, and the
/// statics and top surface of a few tiles of a 4-block-high map.
pub fn statics(data: &[u8]) -> u64 {
    let [index, rest] = split_parts::<2, 2>(data);
    let Ok(statics) = Statics::parse(index, rest, None) else {
        return 0;
    };
    let blocks = statics.index().len();
    let mut acc = statics.validate(blocks + 1).total() + format!("{statics:?}").len() as u64;
    assert_eq!(statics.data().len(), rest.len());
    assert!(statics.patch().is_none());
    acc = acc.wrapping_add(statics.format().record_len() as u64);
    for block in 0..blocks.min(64) {
        if let Ok(list) = statics.block(block) {
            assert_eq!(list.is_empty(), list.iter().next().is_none());
            assert_eq!(list.iter().count(), list.len());
        }
    }
    acc = acc.wrapping_add(statics_both_ways(&statics, blocks).count);
    let Ok(size) = MapSize::from_blocks(u32::try_from(blocks / 4).unwrap_or(0).max(1), 4) else {
        return acc;
    };
    let found = query::find_statics(&statics, size, |s| s.z > 0);
    acc = acc.wrapping_add(found.len() as u64);
    let map = vec![0u8; size.blocks() * 196];
    if let Ok(facet) = Facet::parse(
        FacetBytes {
            map: &map,
            staidx: index,
            statics: rest,
        },
        size,
        None,
    ) {
        for (x, y) in [(0, 0), (9, 3), (size.width() - 1, size.height() - 1)] {
            acc = acc.wrapping_add(facet.statics_at(x, y).map_or(1, |s| s.count() as u64));
            if let Ok(Some(z)) = facet.top_surface(x, y) {
                acc = acc.wrapping_add(z.unsigned_abs().into());
            }
            acc = acc.wrapping_add(u64::from(facet.has_flags(
                &mul_core::raw::StaticRecord {
                    id: 0.into(),
                    x: 0,
                    y: 0,
                    z: 0,
                    hue: 0.into(),
                },
                TileFlags::all(),
            )));
        }
    }
    acc
}

/// Multis (index + data): validation and every multi's components.
pub fn multi(data: &[u8]) -> u64 {
    let [index, rest] = split_parts::<2, 2>(data);
    let Ok(multis) = Multis::parse(index, rest, None) else {
        return 0;
    };
    let problems = multis.validate();
    let mut acc = problems.total() + format!("{multis:?}").len() as u64;
    assert_eq!(multis.index().len(), multis.len());
    assert_eq!(multis.is_empty(), multis.index().is_empty());
    let record = multis.format().record_len();
    acc = acc.wrapping_add(record as u64);
    // Each entry read here from the index bytes: (offset, length), `None` when empty.
    let entry = |id: usize| -> Option<(usize, usize)> {
        let r = index.get(id * 12..id * 12 + 8)?;
        let offset = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
        let length = u32::from_le_bytes([r[4], r[5], r[6], r[7]]);
        (offset != u32::MAX && length != 0 && length != u32::MAX)
            .then_some((offset as usize, length as usize))
    };
    // Entries inside multi.mul holding whole components, and which of them share a byte
    // with another such entry (a sort by start: each against its neighbours' reach).
    let good: Vec<(usize, usize, usize)> = (0..multis.len())
        .filter_map(|id| entry(id).map(|(o, l)| (o, o + l, id)))
        .filter(|&(o, end, _)| end <= rest.len() && (end - o) % record == 0)
        .collect();
    let mut by_start = good.clone();
    by_start.sort_unstable();
    let mut shares = vec![false; multis.len()];
    let mut reach: Option<(usize, usize)> = None; // (end, id) of the farthest so far
    for &(start, end, id) in &by_start {
        if let Some((far, other)) = reach
            && start < far
        {
            shares[id] = true;
            shares[other] = true;
        }
        if reach.is_none_or(|(far, _)| end > far) {
            reach = Some((end, id));
        }
    }
    let past = u32::try_from(multis.len()).expect("a small index");
    assert!(matches!(
        multis.get(past).map_err(|e| e.kind()),
        Err(mul_core::ErrorKind::MissingIndexEntry { .. })
    ));
    let mut errors = 0u64;
    for (id, &shared) in shares.iter().enumerate() {
        let id32 = u32::try_from(id).expect("a small id");
        match (multis.get(id32), entry(id)) {
            (Ok(None), None) => {}
            (Ok(None), Some(found)) => panic!("multi {id}: {found:?} read as empty"),
            (Ok(Some(m)), None) => {
                panic!("multi {id}: an empty entry read as {} components", m.len())
            }
            (Ok(Some(m)), Some((offset, length))) => {
                // The components are the bytes the entry points at, in order.
                assert_eq!(m.len() * record, length);
                for (k, c) in m.iter().enumerate() {
                    let at = offset + k * record;
                    assert_eq!(c.id.get(), u16::from_le_bytes([rest[at], rest[at + 1]]));
                    acc = acc.wrapping_add(c.z.get().unsigned_abs().into());
                }
            }
            (Err(e), found) => {
                errors += 1;
                // Bad: outside multi.mul, not whole components, or sharing bytes.
                let (offset, length) = found.expect("an empty entry is never an error");
                let bad = offset + length > rest.len() || length % record != 0 || shared;
                assert!(bad, "multi {id}: {e}");
                acc = acc.wrapping_add(e.to_string().len() as u64);
            }
        }
    }
    // Of entries that share bytes, at least one is read.
    assert!(by_start.is_empty() || multis.ids().count() > 0 || good.iter().all(|g| g.1 == g.0));
    assert_eq!(
        problems.total(),
        errors,
        "validate counts the entries that fail"
    );
    acc.wrapping_add(multis.ids().count() as u64)
}

/// radarcol.mul and hues.mul over the same bytes.
pub fn colours(data: &[u8]) -> u64 {
    // A little-endian word of `data` at `at`, read here from the bytes.
    let word = |at: usize| {
        data.get(at..at + 2)
            .map(|w| u16::from_le_bytes([w[0], w[1]]))
    };
    let mut acc = 0u64;
    if let Ok(r) = RadarColours::parse(data) {
        assert_eq!(r.colours().len(), data.len() / 2);
        assert_eq!(r.item_count() + 0x4000, r.colours().len());
        for id in (0..=u16::MAX).step_by(13) {
            // Land colours are the first 0x4000 words (`land` reads word `id` for any id:
            // land ids past 0x3FFF reach the item colours), item colours the rest.
            let land = word(usize::from(id) * 2);
            assert_eq!(r.land(id), land, "land {id}");
            assert_eq!(
                r.item(id),
                word((0x4000 + usize::from(id)) * 2),
                "item {id}"
            );
            if let Some(c) = land {
                // 5 bits a channel, widened by repeating the top bits.
                let widen = |v: u16| {
                    let v = u8::try_from(v & 0x1F).expect("5 bits");
                    v << 3 | v >> 2
                };
                assert_eq!(
                    mul_core::rgb555_to_rgb8(c),
                    [widen(c >> 10), widen(c >> 5), widen(c)]
                );
                acc = acc.wrapping_add(u64::from(c));
            }
        }
    }
    if let Ok(h) = Hues::parse(data) {
        assert_eq!(h.len(), h.groups().len() * 8);
        assert_eq!(h.is_empty(), h.groups().is_empty());
        for i in 0..=h.len() {
            // Group i / 8 (708 bytes: a 4-byte header, then 8 hues of 88 bytes: 32 colours,
            // the table's start and end, a 20-byte name).
            let at = i / 8 * 708 + 4 + i % 8 * 88;
            match h.get(i) {
                Some(e) => {
                    assert!(i < h.len());
                    assert_eq!(e.colours[31].get(), word(at + 62).expect("in the file"));
                    assert_eq!(e.table_end.get(), word(at + 66).expect("in the file"));
                    assert_eq!(&e.name[..], &data[at + 68..at + 88]);
                    acc = acc.wrapping_add(e.name_lossy().len() as u64);
                }
                None => assert_eq!(i, h.len()),
            }
        }
    }
    acc
}

/// The container read as AnimationFrame1.uop: bodies 0 to 7, actions 0 to 3, each entry
/// found decoded as itself and from its stream inflated once for longer than it asks
/// ([`gump::shared`]), the same either way.
fn anim_streams(data: &[u8], limits: &gamedata_io::Limits) -> u64 {
    let Ok(animations) = mul_core::UopAnimations::parse([(1, data)], limits) else {
        return 0;
    };
    let mut acc = 0u64;
    for body in 0..8u16 {
        for action in 0..4u16 {
            let Some(stream) = animations.stream(body, action) else {
                continue;
            };
            let decoded = animations.decoded(body, action, limits);
            let inflated = match &stream {
                Ok(stream) => {
                    let what = match stream.compression {
                        1 => "a UOP entry",
                        _ => "a UOP animation",
                    };
                    gump::shared(what, stream.stored, u64::from(stream.declared), limits)
                }
                Err(_) => Ok(Vec::new()),
            };
            if stream.is_ok() {
                let again = animations.decoded_from(body, action, inflated, limits);
                assert_eq!(format!("{again:?}"), format!("{decoded:?}"));
            }
            acc = acc.wrapping_add(format!("{decoded:?}").len() as u64);
        }
    }
    acc
}

/// A UOP container: the table, every entry's stored bytes, contents and Adler-32, its
/// entries read as AnimationFrame1.uop's (bodies 0 to 7), and
/// facet 0's and 1's map chunks as a map one block wide, scanned both ways (which must
/// agree), and read back as a MUL. Read by ranges too ([`by_ranges`]), as a page reads it.
pub fn uop(data: &[u8]) -> u64 {
    let limits = gamedata_io::Limits::default()
        .with_max_decoded_bytes(16 << 20)
        .with_max_records(1 << 16);
    let ranged = by_ranges(data, &limits);
    let container = match mul_core::uop::Uop::parse(data, &limits) {
        Ok(c) => c,
        Err(e) => return (e.to_string().len() as u64).wrapping_add(ranged),
    };
    let mut acc = container.table_blocks() as u64 + format!("{container:?}").len() as u64;
    acc = acc.wrapping_add(ranged);
    acc = acc.wrapping_add(u64::from(container.header().magic.get()));
    for entry in container.entries() {
        assert!(container.find(entry.hash()).is_some());
        assert_eq!(entry.raw().hash.get(), entry.hash());
        acc = acc.wrapping_add(entry.index() as u64 + entry.compression().name().len() as u64);
        acc = acc.wrapping_add(format!("{entry:?}").len() as u64);
        acc = acc.wrapping_add(container.stored(entry).map_or(1, |s| s.len() as u64));
        acc = acc.wrapping_add(
            container
                .contents(entry, &limits)
                .map_or(2, |c| c.len() as u64),
        );
        acc = acc.wrapping_add(u64::from(container.check_adler32(entry).unwrap_or(false)));
    }
    acc = acc.wrapping_add(anim_streams(data, &limits));
    for facet in 0..2 {
        let chunks = match mul_core::facet::map_uop::map_chunks(&container, facet, &limits) {
            Ok(c) => c,
            Err(e) => {
                acc = acc.wrapping_add(e.to_string().len() as u64);
                continue;
            }
        };
        let blocks: usize = chunks
            .iter()
            .map(mul_core::facet::map_uop::MapChunk::len)
            .sum();
        let height = u32::try_from(blocks).unwrap_or(u32::MAX);
        // The chunks were read: the MUL they hold reads too, and is the map's blocks.
        let mul = mul_core::facet::map_uop::read_map_mul(&container, facet, &limits)
            .expect("the chunks just located read as a MUL");
        assert_eq!(mul.len(), blocks * mul_core::raw::MAP_BLOCK_LEN);
        acc = acc.wrapping_add(mul.len() as u64);
        if let Ok(size) = MapSize::from_blocks(1, height)
            && let Ok(map) = Map::from_chunks(data, &chunks, size)
        {
            // The two reads of the map agree block for block, and with the MUL map read flat.
            let flat = Map::parse(&mul, size).expect("the MUL of the same blocks");
            assert!(map.blocks().eq(flat.blocks()), "UOP and MUL reads differ");
            assert!(
                map.blocks()
                    .map(zerocopy::IntoBytes::as_bytes)
                    .eq(mul.chunks(196))
            );
            acc = acc.wrapping_add(land_both_ways(&map).cells);
            assert_eq!(land_both_ways(&map), land_both_ways(&flat));
            acc = acc.wrapping_add(map.blocks().count() as u64);
            acc = acc.wrapping_add(
                map.cell(3, size.height() / 2)
                    .map_or(0, |c| u64::from(c.z.unsigned_abs())),
            );
        }
    }
    acc
}

/// The container read by ranges (`mul_core::uop::UopFetch`, with the gumps' sizes and
/// without): every range asked inside the data, all of them together within twice its
/// length plus 4 MiB; unless given up, the entries are those read whole, and the art's and
/// gumps' slots (`UopIndex::from_tables`) are the whole bytes' (records, compressed marks,
/// problems) or the same error.
pub fn by_ranges(data: &[u8], limits: &gamedata_io::Limits) -> u64 {
    use mul_core::{UopIndex, UopPictures};
    let len = data.len() as u64;
    let mut acc = 0u64;
    for pictures in [UopPictures::Art, UopPictures::Gumps] {
        let mut fetch = mul_core::uop::UopFetch::new(len, limits);
        if pictures == UopPictures::Gumps {
            fetch = fetch.with_gump_sizes();
        }
        let mut asked = 0u64;
        while let Some((at, size)) = fetch.wanted() {
            let range = usize::try_from(at)
                .ok()
                .zip(usize::try_from(size).ok())
                .and_then(|(at, size)| data.get(at..at.checked_add(size)?))
                .expect("a range inside the data");
            asked = asked.saturating_add(size);
            assert!(
                asked <= len.saturating_mul(2).saturating_add(4 << 20),
                "{asked} asked"
            );
            fetch.give(range.to_vec());
        }
        let Some(tables) = fetch.finish() else {
            acc = acc.wrapping_add(1);
            continue;
        };
        assert!(
            tables.held_bytes() <= len / 2 + (1 << 20) + 64,
            "held past the budget"
        );
        if let (Ok(entries), Ok(whole)) = (
            tables.entries(limits),
            mul_core::uop::Uop::parse(data, limits),
        ) {
            assert!(
                entries
                    .iter()
                    .map(|e| (e.index(), e.hash()))
                    .eq(whole.entries().iter().map(|e| (e.index(), e.hash())))
            );
            acc = acc.wrapping_add(entries.len() as u64);
        }
        let whole = UopIndex::build(data, limits, pictures);
        let ranged = UopIndex::from_tables(&tables, limits, pictures);
        match (&whole, &ranged) {
            (Ok(whole), Ok(ranged)) => {
                assert!(whole.records() == ranged.records(), "the slots differ");
                assert_eq!(whole.problems(), ranged.problems());
                for slot in 0..whole.records().len() {
                    assert_eq!(whole.is_compressed(slot), ranged.is_compressed(slot));
                }
                acc = acc.wrapping_add(whole.problems() as u64);
            }
            (Err(whole), Err(ranged)) => assert_eq!(whole.to_string(), ranged.to_string()),
            _ => panic!(
                "read whole {:?}, by ranges {:?}",
                whole.as_ref().err(),
                ranged.as_ref().err()
            ),
        }
    }
    acc
}

/// Map sizes and facet shapes: the input is read as little-endian words. Checked for each:
/// a size that [`MapSize::from_blocks`] accepts has a block count, map length and tile
/// sides that agree with each other, every block number maps to its coordinates and back,
/// and one past the last is refused; [`MapSize::detect`] only answers a known size of the
/// facet whose block count is the length's (with or without one padding block); the text
/// form reads back as the same size.
pub fn sizes(data: &[u8]) -> u64 {
    let mut acc = 0u64;
    for words in data.chunks(16) {
        let word = |i: usize| {
            words
                .get(i * 4..i * 4 + 4)
                .and_then(|b| <[u8; 4]>::try_from(b).ok())
                .map_or(0, u32::from_le_bytes)
        };
        let (w, h, a, b) = (word(0), word(1), word(2), word(3));
        for (w, h) in [(w, h), (w % 1024 + 1, h % 1024 + 1), (w >> 3, h >> 3)] {
            let Ok(size) = MapSize::from_blocks(w, h) else {
                continue;
            };
            assert_eq!(u64::from(size.width()), u64::from(w) * 8);
            assert_eq!(u64::from(size.height()), u64::from(h) * 8);
            assert_eq!(size.blocks() as u64, u64::from(w) * u64::from(h));
            assert_eq!(size.map_len(), size.blocks() as u64 * 196);
            for index in [0, (a as usize) % size.blocks(), size.blocks() - 1] {
                let (bx, by) = size.block_coords(index).expect("a block inside the map");
                assert_eq!(size.block_index(bx, by), Some(index));
            }
            assert_eq!(size.block_coords(size.blocks()), None);
            assert_eq!(size.block_index(w, 0), None);
            assert_eq!(size.block_index(0, h), None);
            let text = format!("{}x{}", size.width(), size.height());
            let back: MapSize = text.parse().expect("a size's text reads back");
            assert_eq!(back, size);
            acc = acc.wrapping_add(size.map_len());
        }
        let facet = (a % 8) as u8;
        let len = u64::from(b) << (a % 16);
        if let Ok(size) = MapSize::detect(facet, len) {
            let blocks = len / 196;
            assert_eq!(len % 196, 0);
            assert!(blocks == size.blocks() as u64 || blocks == size.blocks() as u64 + 1);
            assert!(MapSize::known(facet).any(|k| k == size));
            acc = acc.wrapping_add(size.blocks() as u64);
        }
        if let Ok(text) = std::str::from_utf8(words)
            && let Ok(size) = text.parse::<MapSize>()
        {
            acc = acc.wrapping_add(size.blocks() as u64);
        }
    }
    acc
}

/// Round trips between the two forms of a map: the input's whole blocks, as a map one block
/// wide, are written as a map UOP ([`mul_core::facet::write::write_map_uop`]) of the facet the first
/// byte names (its value modulo 6), which must read back as the same blocks, in place and
/// decoded to a MUL map. When the first byte is 0xFA or above, the blocks are repeated to
/// 4,100 (two chunks, the second short), so that small inputs reach a second chunk.
pub fn round_trip(data: &[u8]) -> u64 {
    use gamedata_io::Limits;
    let Some((&first, bytes)) = data.split_first() else {
        return 0;
    };
    let facet = (first & 0x7F) % 6;
    let mut whole = bytes
        .get(..bytes.len() / 196 * 196)
        .unwrap_or_default()
        .to_vec();
    if first >= 0xFA && !whole.is_empty() {
        whole = whole.iter().copied().cycle().take(4100 * 196).collect();
    }
    let whole = &whole[..];
    let Ok(size) = MapSize::from_blocks(1, u32::try_from(whole.len() / 196).unwrap_or(0)) else {
        return 1;
    };
    let uop =
        mul_core::facet::write::write_map_uop(whole, facet).expect("a MUL map writes as a UOP");
    let limits = Limits::default();
    let container = mul_core::uop::Uop::parse(&uop, &limits).expect("the UOP written reads");
    let chunks =
        mul_core::facet::map_uop::map_chunks(&container, facet, &limits).expect("its chunks read");
    let map = Map::from_chunks(&uop, &chunks, size).expect("its map reads");
    let mul = Map::parse(whole, size).expect("the MUL map reads");
    assert!(
        map.blocks().eq(mul.blocks()),
        "the UOP's blocks are the MUL's"
    );
    let back = mul_core::facet::map_uop::read_map_mul(&container, facet, &limits).expect("decodes");
    assert_eq!(back, whole, "the UOP decodes to the MUL map");
    land_both_ways(&map).cells
}

/// The land scan sequentially and over rayon's pool.
///
/// # Panics
///
/// If the two differ: they must agree on every input, and a fuzz run that finds one that
/// they do not agree on has found a bug.
#[allow(clippy::panic)]
fn land_both_ways(map: &Map<'_>) -> LandStats {
    let seq = query::land_stats(map);
    let par = query::land_stats_par(map);
    if seq != par {
        panic!("land_stats and land_stats_par disagree: {seq:?} against {par:?}");
    }
    check_top(&seq.top(5), |id| seq.count(id));
    assert_eq!(seq.histogram.iter().sum::<u64>(), seq.cells);
    seq
}

/// The statics scan sequentially and over rayon's pool.
///
/// # Panics
///
/// If the two differ (see [`land_both_ways`]).
#[allow(clippy::panic)]
fn statics_both_ways(statics: &Statics<'_>, blocks: usize) -> StaticsStats {
    let seq = query::statics_stats(statics, blocks);
    let par = query::statics_stats_par(statics, blocks);
    if seq != par {
        panic!("statics_stats and statics_stats_par disagree: {seq:?} against {par:?}");
    }
    check_top(&seq.top(5), |id| seq.count_of(id));
    assert_eq!(seq.histogram.iter().sum::<u64>(), seq.count);
    seq
}

/// A "top n" list: each count is the id's, none zero, most common first, ties by id.
fn check_top(top: &[(u16, u64)], count: impl Fn(u16) -> u64) {
    for &(id, n) in top {
        assert!(n > 0);
        assert_eq!(count(id), n);
    }
    for pair in top.windows(2) {
        let [(a, na), (b, nb)] = [pair[0], pair[1]];
        assert!(na > nb || (na == nb && a < b), "{top:?}");
    }
}
