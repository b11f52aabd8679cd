//! Adversarial cases against the picture readers and converters, found by an attack
//! (`tools/attack/measure.sh` measures the command on each at 1x and 10x): crafted inputs
//! whose heap once passed the contract's `n + 64 MiB` (plus the output, for the
//! converters). Each doc names what the code did then; the assertions hold the contract.

use mul_core::art::ITEM_BASE;
use mul_core::art::write::art_to_uop;
use mul_core::gump::write::gumps_to_uop;
use mul_core::{Art, Gumps, UopIndex, UopPictures};

use super::*;

/// A UOP container with one table block of `entries` (name hash, offset, stored length)
/// followed by `data`; offsets are counted from the start of `data`.
fn uop_over(entries: impl ExactSizeIterator<Item = (u64, u64, u32)>, data: &[u8]) -> Vec<u8> {
    let count = entries.len();
    let data_at = 28 + 12 + 34 * count as u64;
    let mut out = Vec::with_capacity(data_at as usize + data.len());
    out.extend(0x0050_594Du32.to_le_bytes());
    out.extend(5u32.to_le_bytes());
    out.extend(0xFD23_EC43u32.to_le_bytes());
    out.extend(28u64.to_le_bytes());
    out.extend((count as u32).to_le_bytes());
    out.extend((count as u32).to_le_bytes());
    out.extend((count as u32).to_le_bytes());
    out.extend(0u64.to_le_bytes());
    for (hash, offset, len) in entries {
        out.extend((data_at + offset).to_le_bytes());
        out.extend(0u32.to_le_bytes());
        out.extend(len.to_le_bytes());
        out.extend(len.to_le_bytes());
        out.extend(hash.to_le_bytes());
        out.extend(0u32.to_le_bytes());
        out.extend(0u16.to_le_bytes());
    }
    out.extend_from_slice(data);
    out
}

/// A 1 x 1 item: header, one row offset, one run of one pixel, the row's end.
fn one_pixel_item() -> Vec<u8> {
    [0u16, 0, 1, 1, 0, 0, 1, 0x7FFF, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

fn art_slot_name(slot: usize) -> u64 {
    name_hash(&format!("build/artlegacymul/{slot:08}.tga"))
}

/// `UopIndex::build` over an artLegacyMUL.uop of 2,000,000 entries, each a slot's name,
/// all over the same 14-byte item (exact repeats, as the contract allows): 68 MB of input.
/// The table is read into `Uop` (a `Vec` of entries and a `HashMap` by hash), then a
/// second `HashMap<u64, Option<usize>>` by hash and the 12-byte records: about 3.3 heap
/// bytes an input byte. Measured with the command (`uo art DIR --art-format uop`) on the
/// same shape at 10,000,000 entries (340 MB): 1.30 GB resident.
#[test]
fn a_picture_uop_index_costs_at_most_its_input_plus_64_mib() {
    let serial = heap::serial();
    // The slot names of the first 81,919 slots are hashed once a process: not this call's.
    let warm = uop_over([(art_slot_name(0), 0, 14)].into_iter(), &one_pixel_item());
    UopIndex::build(&warm, &Limits::default(), UopPictures::Art).unwrap();
    let n = 2_000_000usize;
    let item = one_pixel_item();
    let names: Vec<u64> = (0..n).map(|i| art_slot_name(ITEM_BASE + i)).collect();
    let file = uop_over(names.iter().map(|&h| (h, 0, item.len() as u32)), &item);
    drop(names);
    let (index, peak) = heap::peak(&serial, || {
        UopIndex::build(&file, &Limits::default(), UopPictures::Art).unwrap()
    });
    let art = Art::from_uop(&index, &file);
    assert_eq!(art.item_at(0x4000 + 123_456).unwrap().unwrap().width(), 1);
    let allowed = file.len() as u64 + 64 * MIB;
    assert!(
        peak < allowed,
        "peak heap {peak} for a {} byte UOP (allowed {allowed})",
        file.len()
    );
}

/// `Uop::parse` (reached through `UopIndex::build`, hence every `--art-format uop`
/// command) over a chain of 4,000,000 table blocks of no entry, 12 bytes each, back to back
/// (48 MB): each block is kept in the `occupied` `BTreeMap` (an 8-byte key and a 24-byte
/// value a block, in nodes), about 5 heap bytes an input byte. Nothing bounds the blocks
/// but the file: `max_records` counts entries only. Measured with the command at
/// 10,000,000 blocks (120 MB): 769 MB resident.
#[test]
fn a_chain_of_empty_table_blocks_costs_at_most_its_input_plus_64_mib() {
    let serial = heap::serial();
    let blocks = 4_000_000u64;
    let mut file = Vec::with_capacity(28 + 12 * blocks as usize);
    file.extend(0x0050_594Du32.to_le_bytes());
    file.extend(5u32.to_le_bytes());
    file.extend(0xFD23_EC43u32.to_le_bytes());
    file.extend(28u64.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    for i in 0..blocks {
        let at = 28 + 12 * i;
        let next = if i + 1 < blocks { at + 12 } else { 0 };
        file.extend(0u32.to_le_bytes());
        file.extend(next.to_le_bytes());
    }
    let (index, peak) = heap::peak(&serial, || {
        UopIndex::build(&file, &Limits::default(), UopPictures::Art)
    });
    assert_eq!(index.unwrap().problems(), 0);
    let allowed = file.len() as u64 + 64 * MIB;
    assert!(
        peak < allowed,
        "peak heap {peak} for a {} byte UOP of empty blocks (allowed {allowed})",
        file.len()
    );
}

/// `gumps_to_uop` (`picture::convert::pictures_to_uop` with `UopPictures::Gumps`) copies every
/// used entry's bytes behind its 8-byte size into `owned` before it looks for exact
/// repeats, so 200 ids over the same 1 MiB gump hold 200 MiB, while the container written
/// stores the gump once (about 1 MiB). Measured with the command (`uo convert --gumps --to
/// uop`): a 4.2 MB gumpart.mul under 100 ids, 423 MB resident; under 1,000 ids (10.8 KB
/// more of index), 4.1 GB resident for a 4.2 MB output; 10,000 ids would ask 41 GB.
#[test]
fn gumps_to_uop_holds_a_repeated_gump_once() {
    let serial = heap::serial();
    let len = 1usize << 20;
    let data = vec![0u8; len];
    let mut idx = Vec::new();
    for _ in 0..200 {
        idx.extend(0u32.to_le_bytes());
        idx.extend((len as u32).to_le_bytes());
        idx.extend(((1u32 << 16) | 1).to_le_bytes());
    }
    let gumps = Gumps::parse(&idx, &data).unwrap();
    let (uop, peak) = heap::peak(&serial, || gumps_to_uop(&gumps).unwrap().files);
    let allowed = (idx.len() + data.len() + uop.len()) as u64 + 64 * MIB;
    assert!(uop.len() < 2 * len, "{} bytes written", uop.len());
    assert!(
        peak < allowed,
        "peak heap {peak} for {} bytes in, {} out (allowed {allowed})",
        idx.len() + data.len(),
        uop.len()
    );
}

/// `art_to_uop` (`pictures_to_uop` then `write::write_uop`) of an artidx.mul of 3,000,000
/// items over one 14-byte item (36 MB): besides the container it returns (34 bytes a
/// record, 102 MB), it holds a `used` list (32 bytes an entry), the `UopWrite` list (32),
/// the `placed` list (16) and the entry names formatted one by one: about 80 heap bytes an
/// input record of 12. Measured with the command (`uo convert --art --to uop`) at
/// 10,000,000 records (120 MB): 1.16 GB resident for a 340 MB output.
#[test]
fn art_to_uop_of_repeats_costs_at_most_its_input_and_output_plus_64_mib() {
    let serial = heap::serial();
    let item = one_pixel_item();
    let mut idx = index(ITEM_BASE, u32::MAX, u32::MAX);
    idx.extend(index(3_000_000, 0, item.len() as u32));
    let art = Art::parse(&idx, &item).unwrap();
    let (uop, peak) = heap::peak(&serial, || art_to_uop(&art).unwrap().files);
    let allowed = (idx.len() + item.len() + uop.len()) as u64 + 64 * MIB;
    assert!(
        peak < allowed,
        "peak heap {peak} for {} bytes in, {} out (allowed {allowed})",
        idx.len() + item.len(),
        uop.len()
    );
}

/// The overlaps of an artidx.mul of 8,000,000 entries each starting a byte after the last
/// (96 MB of index, 8 MB of art.mul): `Overlaps::find_allowing_repeats` sorts the used
/// entries' numbers (8 bytes each) and pushes the 7.9 million left out as 16-byte pairs
/// into a `Vec` grown by doubling: about 2.7 heap bytes an index byte, where the contract
/// allows the input plus 64 MiB. (The crate's own test of this row bounds it by 3 times the
/// index.) Measured with the command (`uo art DIR --item 1`) at 10,000,000 entries (125 MB):
/// 354 MB resident.
#[test]
fn chained_art_overlaps_cost_at_most_the_input_plus_64_mib() {
    let serial = heap::serial();
    let n = 8_000_000u32;
    let mut idx = index(ITEM_BASE, u32::MAX, u32::MAX);
    idx.reserve(12 * n as usize);
    for i in 0..n {
        idx.extend(i.to_le_bytes());
        idx.extend(64u32.to_le_bytes());
        idx.extend(0u32.to_le_bytes());
    }
    let data = vec![0u8; n as usize + 64];
    let art = Art::parse(&idx, &data).unwrap();
    let (second, peak) = heap::peak(&serial, || art.item(1).is_err());
    assert!(second, "entry 0x4001 overlaps 0x4000");
    let allowed = (idx.len() + data.len()) as u64 + 64 * MIB;
    assert!(
        peak < allowed,
        "peak heap {peak} for {} bytes in (allowed {allowed})",
        idx.len() + data.len()
    );
}

/// A gumpartLegacyMUL.uop of one gump stored with compression 3 whose BWT stage says its
/// symbol 7 comes `count` times while the table's first place holds no symbol (place 5 is
/// 7's): the client gives out symbol 0 `count` times without reading a byte, so a 1 KB
/// zlib stream decodes to `count` bytes. Past `Limits::max_decoded_bytes` it is refused
/// before the output is allocated; within it the output is the heap's only growth.
fn bwt_claim(count: u32) -> Vec<u8> {
    // The list: the counts (symbol 7's at bytes 28 to 31), then place 5; coded
    // move-to-front (each 0 at place 0 until another value comes to the front).
    let mut list = vec![0u8; 1024];
    list[28..32].copy_from_slice(&count.to_le_bytes());
    list.push(5);
    let mut table: Vec<u8> = (0..=255).collect();
    let mut stage = 0u32.to_le_bytes().to_vec();
    for v in list {
        let place = table.iter().position(|&t| t == v).unwrap();
        table[..=place].rotate_right(1);
        stage.push(place as u8);
    }
    stage.push(0);
    let mut z = ZlibEncoder::new(Vec::new(), Level::default());
    z.write_all(&stage).unwrap();
    let stored = z.finish().unwrap();
    let name = name_hash("build/gumpartlegacymul/00000000.tga");
    let mut file = uop_over([(name, 0, stored.len() as u32)].into_iter(), &stored);
    // The entry's decompressed length and compression 3.
    let entry = 28 + 12;
    file[entry + 16..entry + 20].copy_from_slice(&(stage.len() as u32).to_le_bytes());
    file[entry + 32..entry + 34].copy_from_slice(&3u16.to_le_bytes());
    file
}

#[test]
fn a_compressed_gump_decodes_within_the_limit_and_no_further() {
    let serial = heap::serial();
    let limits = Limits::default().with_max_decoded_bytes(16 * MIB);
    // Within the limit: 8 MiB of zeros from a few hundred bytes, as the client decodes it.
    let file = bwt_claim(8 << 20);
    let slots = UopIndex::build(&file, &limits, UopPictures::Gumps).unwrap();
    let gumps = Gumps::from_uop(&slots, &file);
    let (decoded, peak) = heap::peak(&serial, || gumps.decoded(0, &limits));
    // Symbol 0 then bytes 0, 0, 0, 0 ...: a width and height of 0, no gump.
    let error = decoded.unwrap().unwrap().gump().unwrap_err();
    assert!(error.to_string().contains("gump 0x0000"), "{error}");
    let allowed = file.len() as u64 + 64 * MIB + 16 * MIB;
    assert!(peak < allowed, "peak heap {peak} (allowed {allowed})");
    // Past it: refused before the output is allocated.
    let file = bwt_claim(1 << 30);
    let slots = UopIndex::build(&file, &limits, UopPictures::Gumps).unwrap();
    let gumps = Gumps::from_uop(&slots, &file);
    let (decoded, peak) = heap::peak(&serial, || gumps.decoded(0, &limits));
    assert!(matches!(
        decoded.unwrap_err().kind(),
        ErrorKind::Limit(l) if l.found == 1 << 30
    ));
    assert!(peak < 1 << 20, "peak heap {peak}");
}
