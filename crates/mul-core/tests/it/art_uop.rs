//! artLegacyMUL.uop: its slots as the client numbers them, read in place like art.mul,
//! and the conversions both ways byte for byte.

use std::fs;

use mul_core::art::ITEM_BASE;
use mul_core::art::write::{ArtPicture, art_to_mul, art_to_uop, synthetic_art, write_art};
use mul_core::picture::MIN_UOP_SLOTS;
use mul_core::uop::name_hash;
use mul_core::{
    Art, ArtFiles, ArtFormat, ErrorKind, FileOptions, Limits, PictureData, Uop, UopEntryProblem,
    UopIndex, UopPictures,
};

use crate::uop::{Foreign, foreign_container};

/// A land tile's 2,048 bytes: `colour` in every pixel, then zeros.
fn land_bytes(colour: u16) -> Vec<u8> {
    let mut bytes: Vec<u8> = std::iter::repeat_n(colour.to_le_bytes(), 1012)
        .flatten()
        .collect();
    bytes.resize(2048, 0);
    bytes
}

/// A 2 x 1 item: pixels `a` and `b` in one run.
fn item_bytes(a: u16, b: u16) -> Vec<u8> {
    [0u16, 0, 2, 1, 0, 0, 2, a, b, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

fn art_name(slot: usize) -> u64 {
    // Spelt out here, not taken from the crate: the client's format string.
    name_hash(&format!("build/artlegacymul/{slot:08}.tga"))
}

fn plain(gaps: usize) -> Foreign {
    Foreign {
        padding: 100,
        capacity: 7,
        compress_every: 0,
        gaps,
        reverse: false,
    }
}

#[test]
fn slots_are_named_as_the_client_names_them_and_read_in_place() {
    let files = vec![
        (art_name(0), land_bytes(0x1234), false),
        (art_name(5), land_bytes(0x0421), false),
        (art_name(ITEM_BASE + 3), item_bytes(0x7C00, 0x001F), false),
        // Not a slot's name: ignored, as the client ignores it.
        (
            name_hash("build/gumpartlegacymul/00000001.tga"),
            land_bytes(9),
            false,
        ),
    ];
    let uop = foreign_container(&files, &plain(0));
    let index = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    // Four entries in blocks of 7: the client's minimum, 65,535 + 0x4000 slots.
    assert_eq!(index.records().len(), 65_535 + 0x4000);
    assert_eq!(index.problems(), 0);
    let art = Art::from_uop(&index, &uop);
    assert_eq!(art.format(), ArtFormat::Uop);
    assert_eq!(art.data_file(), "artLegacyMUL.uop");
    let land = art.land(5).unwrap().unwrap();
    assert!(land.pixels().iter().all(|p| p.get() == 0x0421));
    assert_eq!(art.land(0).unwrap().unwrap().pixels()[1011].get(), 0x1234);
    assert!(art.land(1).unwrap().is_none());
    let item = art.item(3).unwrap().unwrap();
    assert_eq!((item.width(), item.height()), (2, 1));
    let run = item.runs().next().unwrap().unwrap();
    assert_eq!(
        run.pixels.iter().map(|p| p.get()).collect::<Vec<_>>(),
        [0x7C00, 0x001F]
    );
    // In place: the item's pixels are bytes of the container itself.
    let inside = uop.as_ptr_range();
    assert!(inside.contains(&run.pixels.as_ptr().cast::<u8>()));
    assert!(art.item(4).unwrap().is_none());
    // Past the slots: no picture.
    assert!(art.item(65_535).unwrap().is_none());
}

#[test]
fn the_tables_entry_count_sets_the_slots_unused_entries_too() {
    // 70,000 table entries (one used): max(70,000, 65,535) + 0x4000 slots.
    let files = vec![(art_name(70_000 + ITEM_BASE - 1), item_bytes(1, 2), false)];
    let foreign = Foreign {
        padding: 0,
        capacity: 1000,
        compress_every: 0,
        gaps: 69_999,
        reverse: false,
    };
    let uop = foreign_container(&files, &foreign);
    assert_eq!(
        Uop::parse(&uop, &Limits::default())
            .unwrap()
            .table_entries(),
        70_000
    );
    let index = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    assert_eq!(index.records().len(), 70_000 + 0x4000);
    let art = Art::from_uop(&index, &uop);
    // The last slot is item 69,999 (past the 16-bit ids: by its art number).
    assert!(art.item_at(0x4000 + 69_999).unwrap().is_some());
    assert_eq!(art.item_count(), 70_000);
}

/// A name shared by three entries, the first of them bad (outside the file), and one
/// shared by two good entries: each slot is refused once, naming the name's first entry.
#[test]
fn a_shared_name_names_its_first_entry_however_the_first_went() {
    let item = |k: usize| art_name(ITEM_BASE + k);
    let names = [item(5), item(6), item(7), item(6), item(7), item(7)];
    let mut uop = uop_of_names(&names);
    // Entry 2 (item 7's first): a stored length past the file's end.
    let entry_at = 28 + 12 + 2 * 34;
    uop[entry_at + 12..entry_at + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    let index = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    assert_eq!(index.problems(), 2);
    let art = Art::from_uop(&index, &uop);
    assert_eq!(art.item(5).unwrap().unwrap().width(), 2);
    for (id, first) in [(6, 1), (7, 2)] {
        let err = art.item(id).unwrap_err();
        match err.kind() {
            ErrorKind::UopEntry {
                index,
                problem: UopEntryProblem::SharedName,
                ..
            } => assert_eq!(index, first, "{err}"),
            _ => panic!("item {id}: {err}"),
        }
    }
    // Alone, that entry is refused for its bytes.
    let mut alone = uop_of_names(&[item(7)]);
    alone[28 + 12 + 12..28 + 12 + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    let index = UopIndex::build(&alone, &Limits::default(), UopPictures::Art).unwrap();
    assert_eq!(index.problems(), 1);
    let err = index.problem(&alone, ITEM_BASE + 7).unwrap();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::UopEntry {
                index: 0,
                problem: UopEntryProblem::OutsideFile { .. },
                ..
            }
        ),
        "{err}"
    );
    assert!(index.problem(&alone, ITEM_BASE + 6).is_none());
}

#[test]
fn bad_entries_are_errors_for_their_slots_alone() {
    let mut files = vec![
        (art_name(1), land_bytes(1), false),
        // Two entries under one name: the client refuses the file, here that slot.
        (art_name(2), land_bytes(2), false),
        (art_name(2), land_bytes(3), false),
        // Compressed art is read as stored, as the client reads it: here a zlib stream,
        // which is no land tile (too short).
        (art_name(3), land_bytes(4), true),
        (art_name(4), land_bytes(5), false),
    ];
    files.push((art_name(ITEM_BASE), item_bytes(5, 6), false));
    let uop = foreign_container(&files, &plain(1));
    let index = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    assert_eq!(index.problems(), 1);
    let art = Art::from_uop(&index, &uop);
    assert!(art.land(1).unwrap().is_some());
    let shared = art.land(2).unwrap_err();
    assert!(
        matches!(
            shared.kind(),
            // The first entry of the name: table position 1.
            ErrorKind::UopEntry {
                index: 1,
                problem: UopEntryProblem::SharedName,
                ..
            }
        ),
        "{shared}"
    );
    assert!(shared.to_string().contains("same name hash"), "{shared}");
    assert!(index.problem(&uop, 2).is_some() && index.problem(&uop, 1).is_none());
    let compressed = art.land(3).unwrap_err();
    assert!(compressed.to_string().contains("2024"), "{compressed}");
    assert!(art.land(4).unwrap().is_some());
    assert!(art.item(0).unwrap().is_some());
}

#[test]
fn an_entry_outside_the_container_is_its_slots_error() {
    let files = vec![
        (art_name(0), land_bytes(1), false),
        (art_name(1), land_bytes(2), false),
    ];
    let mut uop = foreign_container(&files, &plain(0));
    // The first table's entries start at 28 + 100 + 12: make entry 0's length huge.
    let entry0 = 28 + 100 + 12;
    uop[entry0 + 12..entry0 + 16].copy_from_slice(&0x7FFF_0000u32.to_le_bytes());
    let index = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    let art = Art::from_uop(&index, &uop);
    let results = [art.land(0), art.land(1)];
    let bad: Vec<_> = results.iter().filter(|r| r.is_err()).collect();
    assert_eq!(bad.len(), 1, "one slot is bad, the other reads");
    let message = bad[0].as_ref().unwrap_err().to_string();
    assert!(message.contains("outside"), "{message}");
}

#[test]
fn mul_to_uop_and_back_is_the_same_bytes() {
    // The synthetic set: 0x4000 + 256 numbers, fewer than the client's minimum of slots.
    let (index, data) = synthetic_art(7);
    let mul = Art::parse(&index, &data).unwrap();
    let uop = art_to_uop(&mul).unwrap().files;
    // Independently of the slot index: the container's entries under the client's names.
    let container = Uop::parse(&uop, &Limits::default()).unwrap();
    let item10 = container.find(art_name(ITEM_BASE + 10)).unwrap();
    let item200 = container.find(art_name(ITEM_BASE + 200)).unwrap();
    assert_eq!(
        container.stored(item10).unwrap(),
        mul.entry(ITEM_BASE as u32 + 10).unwrap().unwrap()
    );
    // An exact repeat is stored once, both names pointing at it.
    assert_eq!(item10.raw().offset.get(), item200.raw().offset.get());
    assert!(container.find(art_name(ITEM_BASE + 255)).is_none());
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    let back = Art::from_uop(&slots, &uop);
    assert_eq!(back.len(), MIN_UOP_SLOTS);
    for number in 0..mul.len() as u32 {
        assert_eq!(
            back.entry(number).unwrap(),
            mul.entry(number).unwrap(),
            "{number}"
        );
    }
    // Back to MUL: the same art.mul; the index has the client's slots, the extra ones empty.
    let (index2, data2) = art_to_mul(&back).unwrap().files;
    assert_eq!(data2, data);
    assert_eq!(index2[..index.len()], index[..]);
    assert!(
        index2[index.len()..]
            .chunks(12)
            .all(|r| r[..8] == [0xFF; 8])
    );
    // That MUL to UOP again holds the same entries; its tables now count the client's
    // 65,535 (the original's counted its 319 entries), so the two differ there alone.
    let again = art_to_uop(&Art::parse(&index2, &data2).unwrap())
        .unwrap()
        .files;
    let again = Uop::parse(&again, &Limits::default()).unwrap();
    assert_eq!(
        (again.table_entries(), container.table_entries()),
        (65_535, 319)
    );
    for (a, b) in again.entries().iter().zip(container.entries()) {
        assert_eq!(a.hash(), b.hash());
        assert!(again.stored(a).unwrap() == container.stored(b).unwrap());
    }
}

#[test]
fn a_full_size_art_set_round_trips_exactly() {
    // 0x14000 numbers, as High Seas clients have: the count comes back too.
    let land = vec![0x0123u16; 1012];
    let pixels = [0x7FFFu16, 0, 0x0001, 0x4210];
    let mut pictures = vec![ArtPicture::Empty; 0x14000];
    pictures[0] = ArtPicture::Land(&land);
    pictures[0x3FFF] = ArtPicture::Repeat(0);
    pictures[ITEM_BASE] = ArtPicture::Item {
        width: 2,
        height: 2,
        pixels: &pixels,
    };
    pictures[0x13FFF] = ArtPicture::Repeat(ITEM_BASE);
    let (index, data) = write_art(&pictures).unwrap();
    let uop = art_to_uop(&Art::parse(&index, &data).unwrap())
        .unwrap()
        .files;
    assert_eq!(
        Uop::parse(&uop, &Limits::default())
            .unwrap()
            .table_entries(),
        0x14000 - ITEM_BASE
    );
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    let (index2, data2) = art_to_mul(&Art::from_uop(&slots, &uop)).unwrap().files;
    assert!(index2 == index && data2 == data);
    // And UOP to MUL to UOP: the same container.
    let again = art_to_uop(&Art::parse(&index2, &data2).unwrap())
        .unwrap()
        .files;
    assert!(again == uop);
}

#[test]
fn the_owner_takes_the_form_the_folder_holds_or_the_one_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (index, data) = synthetic_art(3);
    let uop = art_to_uop(&Art::parse(&index, &data).unwrap())
        .unwrap()
        .files;
    fs::write(dir.path().join("ArtLegacyMUL.uop"), &uop).unwrap();
    let owned = ArtFiles::open(dir.path(), None).unwrap();
    assert_eq!(owned.format(), ArtFormat::Uop);
    assert!(owned.view().unwrap().item(10).unwrap().is_some());
    let debug = format!("{owned:?}");
    assert!(debug.contains("slots: 81919"), "{debug}");
    // Asking for the MUL form names the missing index.
    let err = ArtFiles::open(dir.path(), Some(ArtFormat::Mul)).unwrap_err();
    assert!(err.to_string().contains("artidx.mul"), "{err}");
    // Both forms present: the MUL pair by default, the UOP when asked.
    fs::write(dir.path().join("artidx.mul"), &index).unwrap();
    fs::write(dir.path().join("art.mul"), &data).unwrap();
    assert_eq!(
        ArtFiles::open(dir.path(), None).unwrap().format(),
        ArtFormat::Mul
    );
    // SAFETY: private files, unchanged while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { ArtFiles::map(dir.path(), Some(ArtFormat::Uop)) }.unwrap();
    assert_eq!(mapped.format(), ArtFormat::Uop);
    assert_eq!(
        mapped.view().unwrap().entry(ITEM_BASE as u32 + 7).unwrap(),
        Art::parse(&index, &data)
            .unwrap()
            .entry(ITEM_BASE as u32 + 7)
            .unwrap()
    );
    // Bytes handed over; a container that is not one names the file.
    let handed =
        ArtFiles::from_data(None, PictureData::Uop(uop.into()), &FileOptions::default()).unwrap();
    assert_eq!(handed.view().unwrap().len(), MIN_UOP_SLOTS);
    fs::write(dir.path().join("ArtLegacyMUL.uop"), b"not a container").unwrap();
    let err = ArtFiles::open(dir.path(), Some(ArtFormat::Uop)).unwrap_err();
    assert_eq!(err.file(), Some("ArtLegacyMUL.uop"));
}

/// A one-block artLegacyMUL.uop whose entries (name hashes, in this order) all point at the
/// same 14-byte item.
fn uop_of_names(names: &[u64]) -> Vec<u8> {
    let item = item_bytes(1, 2);
    let data_at = 28 + 12 + 34 * names.len() as u64;
    let mut out = Vec::new();
    for word in [0x0050_594Du32, 5, 0xFD23_EC43] {
        out.extend(word.to_le_bytes());
    }
    out.extend(28u64.to_le_bytes());
    out.extend((names.len() as u32).to_le_bytes());
    out.extend((names.len() as u32).to_le_bytes());
    out.extend((names.len() as u32).to_le_bytes());
    out.extend(0u64.to_le_bytes());
    for &hash in names {
        out.extend(data_at.to_le_bytes());
        out.extend(0u32.to_le_bytes());
        out.extend((item.len() as u32).to_le_bytes());
        out.extend((item.len() as u32).to_le_bytes());
        out.extend(hash.to_le_bytes());
        out.extend(0u32.to_le_bytes());
        out.extend(0u16.to_le_bytes());
    }
    out.extend(item);
    out
}

/// k slot names each held by two entries, the first copies of all then the second ones
/// (found by an attack: the index once looked for each shared name's first entry by a scan
/// from the table's start, k^2 / 2 comparisons; 400,000 entries took 16.7 s). Each slot is
/// refused naming its first entry, found in one more pass over the table. No timing is
/// asserted (the machine is shared); at this size the old scan took minutes.
#[test]
fn entries_sharing_names_name_their_first_entry() {
    let k = 100_000;
    let names: Vec<u64> = (0..k).map(|i| art_name(ITEM_BASE + i)).collect();
    let twice: Vec<u64> = names.iter().chain(&names).copied().collect();
    let uop = uop_of_names(&twice);
    let index = UopIndex::build(&uop, &Limits::default(), UopPictures::Art).unwrap();
    assert_eq!(index.problems(), k);
    let art = Art::from_uop(&index, &uop);
    for id in [0, 1, 4_321, k - 1] {
        match art.item_at(0x4000 + id as u32).unwrap_err().kind() {
            ErrorKind::UopEntry {
                index,
                problem: UopEntryProblem::SharedName,
                ..
            } => assert_eq!(index, id),
            other => panic!("item {id}: {other:?}"),
        }
    }
}

/// An art set with item 2 overlapping item 1's bytes (an error for item 2 alone): both
/// conversions write every other entry and list item 2 as left out, its slot empty.
#[test]
fn conversions_leave_out_an_unreadable_entry_and_keep_the_rest() {
    let pixels = [0x7C00u16; 4];
    let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + 4];
    for id in 0..4 {
        pictures[ITEM_BASE + id] = ArtPicture::Item {
            width: 2,
            height: 2,
            pixels: &pixels,
        };
    }
    let (mut index, data) = write_art(&pictures).unwrap();
    // Item 2 starts a byte into item 1.
    let one = (ITEM_BASE + 1) * 12;
    let offset = u32::from_le_bytes(index[one..one + 4].try_into().unwrap()) + 1;
    let two = (ITEM_BASE + 2) * 12;
    index[two..two + 4].copy_from_slice(&offset.to_le_bytes());
    let art = Art::parse(&index, &data).unwrap();
    assert!(art.item(2).is_err());
    let uop = art_to_uop(&art).unwrap();
    assert_eq!(uop.left_out.total(), 1);
    assert_eq!(uop.left_out.kept()[0].0, ITEM_BASE + 2);
    let slots = UopIndex::build(&uop.files, &Limits::default(), UopPictures::Art).unwrap();
    let back = Art::from_uop(&slots, &uop.files);
    let mul = art_to_mul(&art).unwrap();
    assert_eq!(mul.left_out.total(), 1);
    let (index2, data2) = &mul.files;
    let again = Art::parse(index2, data2).unwrap();
    for id in [0u32, 1, 3] {
        let want = art.entry(ITEM_BASE as u32 + id).unwrap().unwrap();
        assert_eq!(back.entry(ITEM_BASE as u32 + id).unwrap().unwrap(), want);
        assert_eq!(again.entry(ITEM_BASE as u32 + id).unwrap().unwrap(), want);
    }
    assert!(back.item(2).unwrap().is_none());
    assert!(again.item(2).unwrap().is_none());
}

/// The names reports and files use, spelt out from the client's format strings.
#[test]
fn forms_and_entry_names_are_the_clients() {
    assert_eq!(
        (ArtFormat::Mul.name(), ArtFormat::Uop.name()),
        ("mul", "uop")
    );
    assert_eq!(
        UopPictures::Art.entry_name(0x4001),
        "build/artlegacymul/00016385.tga"
    );
    assert_eq!(
        UopPictures::Gumps.entry_name(7),
        "build/gumpartlegacymul/00000007.tga"
    );
    assert_eq!(
        (UopPictures::Art.file_name(), UopPictures::Gumps.file_name()),
        ("artLegacyMUL.uop", "gumpartLegacyMUL.uop")
    );
}
