//! verdata.mul: the table as `docs/formats/uo.md` ("Patches: verdata.mul") gives it, built
//! here byte by byte, and art and gump patches read instead of the entries they name.

use mul_core::art::ITEM_BASE;
use mul_core::art::write::{ArtPicture, write_art};
use mul_core::gump::write::{GumpPicture, write_gumps};
use mul_core::{Art, ErrorKind, Gumps, IndexProblem, Limits, Verdata};

/// verdata.mul: the count `declared`, the entries, then `data` (offsets count from the
/// file's start, so the caller adds the table's length).
fn verdata(declared: i32, entries: &[[u32; 5]], data: &[u8]) -> Vec<u8> {
    let mut out = declared.to_le_bytes().to_vec();
    for entry in entries {
        for word in entry {
            out.extend(word.to_le_bytes());
        }
    }
    out.extend(data);
    out
}

/// A 1 x 1 item of colour `c`: flag, size, row offset 0, one run, the row's end.
fn item(c: u16) -> Vec<u8> {
    [0u16, 0, 1, 1, 0, 0, 1, c, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

#[test]
fn the_table_holds_the_entries_that_fit() {
    let file = verdata(2, &[[4, 7, 44, 3, 9], [12, 1, 47, 1, 0]], &[1, 2, 3, 4]);
    let v = Verdata::parse(&file).unwrap();
    assert_eq!((v.declared(), v.entries().len()), (2, 2));
    let e = &v.entries()[1];
    assert_eq!(
        (e.file.get(), e.block.get(), e.offset.get(), e.length.get()),
        (12, 1, 47, 1)
    );
    // A count past the file: the entries that fit; a negative count or a short file: none.
    let cut = verdata(5, &[[4, 7, 44, 3, 9]], &[0; 10]);
    assert_eq!(Verdata::parse(&cut).unwrap().entries().len(), 1);
    assert!(
        Verdata::parse(&verdata(-1, &[[4, 7, 44, 3, 9]], &[]))
            .unwrap()
            .entries()
            .is_empty()
    );
    for short in [&[][..], &[1, 0]] {
        let v = Verdata::parse(short).unwrap();
        assert!(v.entries().is_empty() && v.declared() == 0);
    }
}

/// The view keeps the whole file (patches lie anywhere in it), and its `Debug` says the
/// count, the entries and the length, never every byte.
#[test]
fn the_view_holds_the_file_and_prints_its_size() {
    let mut data = vec![0xAB; 5000];
    data[0] = 7;
    let file = verdata(1, &[[4, 7, 24, 3, 9]], &data);
    let v = Verdata::parse(&file).unwrap();
    assert_eq!(v.data().len(), 4 + 20 + 5000);
    assert_eq!(v.data(), &file[..]);
    assert_eq!(v.data()[24], 7);
    let debug = format!("{v:?}");
    assert!(
        debug.starts_with("Verdata { declared: 1, entries: 1, data: 5024 bytes [01 00 00 00"),
        "{debug}"
    );
    assert!(debug.len() < 200, "{debug}");
}

/// Items 0, 1 and 2 in art.mul (colours 1, 2, 3); verdata patches item 1 twice (the second
/// wins: colour 0x7C00), item 2 with bytes past the file, land tile 5 and a number past the
/// index (skipped), and a gump patch (another file: not art's).
#[test]
fn art_patches_are_read_instead_of_the_entries_they_name() {
    let pixels = [[1u16], [2], [3], [4], [5]];
    let mut pictures = vec![ArtPicture::Empty; ITEM_BASE + 5];
    for (i, p) in pixels.iter().enumerate() {
        pictures[ITEM_BASE + i] = ArtPicture::Item {
            width: 1,
            height: 1,
            pixels: p,
        };
    }
    let (index, data) = write_art(&pictures).unwrap();
    let table = 4 + 7 * 20;
    let patch = item(0x7C00);
    let mut bytes = item(0x0011);
    bytes.extend(&patch);
    let one = (ITEM_BASE + 1) as u32;
    let file = verdata(
        7,
        &[
            [4, one, table, patch.len() as u32, 0],
            [4, one, table + patch.len() as u32, patch.len() as u32, 0],
            [4, one + 1, table, 9_999, 0],
            [4, 0x10_0000, table, patch.len() as u32, 0],
            [12, one, table, 4, 0],
            // Patches of no byte (length 0 or 0xFFFFFFFF): items 3 and 4 are empty.
            [4, one + 2, table, 0, 0],
            [4, one + 3, table, u32::MAX, 0],
        ],
        &bytes,
    );
    let v = Verdata::parse(&file).unwrap();
    let art = Art::parse(&index, &data).unwrap();
    let patched = art.clone().with_verdata(&v);
    assert_eq!(patched.patched(), 4);
    assert_eq!(
        patched.entry(ITEM_BASE as u32 + 1).unwrap().unwrap(),
        &file[table as usize + patch.len()..]
    );
    let run_colour = |a: &Art<'_>, id: u16| {
        let item = a.item(id).unwrap().unwrap();
        let run = item.runs().next().unwrap().unwrap();
        run.pixels[0].get()
    };
    assert_eq!(run_colour(&patched, 1), 0x7C00);
    assert_eq!(run_colour(&art, 1), 2);
    assert_eq!(run_colour(&patched, 0), 1);
    let err = patched.item(2).unwrap_err();
    match err.kind() {
        ErrorKind::IndexEntry {
            file: "verdata.mul",
            entry,
            problem: IndexProblem::PastEnd,
            ..
        } => assert_eq!(entry, ITEM_BASE + 2),
        _ => panic!("{err}"),
    }
    for id in [3, 4] {
        assert!(patched.item(id).unwrap().is_none(), "{id}");
        assert_eq!(run_colour(&art, id), id + 1);
    }
}

/// Gump 1 patched with a 2 x 1 gump whose size is the patch's extra word; two patches over
/// partly the same bytes: the later-starting one is an error for its id alone.
#[test]
fn gump_patches_bring_their_size() {
    let pixels = [0x001Fu16; 4];
    let gumps = [
        GumpPicture::Picture {
            width: 2,
            height: 2,
            pixels: &pixels,
        },
        GumpPicture::Picture {
            width: 1,
            height: 1,
            pixels: &pixels[..1],
        },
        GumpPicture::Empty,
    ];
    let (index, data) = write_gumps(&gumps).unwrap();
    // A 2 x 1 gump: row offset 1 (words), one run of 2 pixels of red.
    let patch: Vec<u8> = [1u32, (2 << 16) | 0x7C00]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let patch_bytes = patch.clone();
    let table = 4 + 3 * 20;
    let file = verdata(
        3,
        &[
            [12, 1, table, 8, (2 << 16) | 1],
            [12, 2, table, 6, (1 << 16) | 1],
            [12, 0, table + 2, 4, (1 << 16) | 1],
        ],
        &patch,
    );
    let v = Verdata::parse(&file).unwrap();
    let patched = Gumps::parse(&index, &data).unwrap().with_verdata(&v);
    let gump = patched.gump(1).unwrap().unwrap();
    assert_eq!((gump.width(), gump.height()), (2, 1));
    assert_eq!(patched.entry(1).unwrap().unwrap().1, (2 << 16) | 1);
    // Gump 2's patch starts where gump 1's does and ends inside it: an overlap.
    let err = patched.entry(2).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::IndexEntry {
                problem: IndexProblem::Overlap { other: 1 },
                ..
            }
        ),
        "{err}"
    );
    assert!(patched.entry(0).is_err());
    // Three ids patched, each its own table entry; the gumps alone have none.
    assert_eq!(patched.patched(), 3);
    let patch = patched.patch(1).unwrap();
    assert_eq!(
        (patch.offset.get(), patch.length.get(), patch.extra.get()),
        (table, 8, (2 << 16) | 1)
    );
    assert_eq!(patched.patch(2).unwrap().length.get(), 6);
    assert!(patched.patch(3).is_none());
    let plain = Gumps::parse(&index, &data).unwrap();
    assert_eq!((plain.patched(), plain.patch(1).is_none()), (0, true));
    // `stored` gives the patch's bytes in place, as `entry` does.
    let stored = patched.stored(1).unwrap().unwrap();
    assert_eq!(stored, &patch_bytes[..]);
    assert_eq!(stored.as_ptr(), file[table as usize..].as_ptr());
    // A gump read in place prints its id, size word and that it is not decoded.
    let decoded = plain.decoded(0, &Limits::default()).unwrap().unwrap();
    let (bytes, extra) = plain.entry(0).unwrap().unwrap();
    assert_eq!((decoded.extra(), extra), (0x0002_0002, 0x0002_0002));
    assert_eq!(decoded.bytes().as_ptr(), bytes.as_ptr());
    assert_eq!(decoded.bytes().len(), bytes.len());
    assert_eq!(bytes.len(), 4 * (2 + 2));
    let printed = format!("{decoded:?}");
    assert!(
        printed.starts_with("DecodedGump { id: 0, extra: 0x00020002, decoded: false, bytes: "),
        "{printed}"
    );
}

/// A gump stored compressed in gumpartLegacyMUL.uop that verdata patches is read from the
/// patch, in place (the patch's bytes are a gump as is); its neighbours stay compressed.
#[test]
fn a_patched_compressed_gump_is_read_from_its_patch() {
    use mul_core::gump::write::{GumpCompression, gumps_to_compressed_uop};
    use mul_core::{Limits, UopIndex, UopPictures};

    let pixels = [0x001Fu16; 4];
    let gumps = [
        GumpPicture::Picture {
            width: 2,
            height: 2,
            pixels: &pixels,
        },
        GumpPicture::Picture {
            width: 1,
            height: 1,
            pixels: &pixels[..1],
        },
    ];
    let (index, data) = write_gumps(&gumps).unwrap();
    let mul = Gumps::parse(&index, &data).unwrap();
    let uop = gumps_to_compressed_uop(&mul, GumpCompression::ZlibBwt)
        .unwrap()
        .files;
    let slots = UopIndex::build(&uop, &Limits::default(), UopPictures::Gumps).unwrap();
    // Gump 1 becomes 2 x 1 red: row offset 1 (words), one run of 2 pixels.
    let patch: Vec<u8> = [1u32, (2 << 16) | 0x7C00]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let file = verdata(1, &[[12, 1, 4 + 20, 8, (2 << 16) | 1]], &patch);
    let v = Verdata::parse(&file).unwrap();
    let plain = Gumps::from_uop(&slots, &uop);
    assert!(plain.is_compressed(1) && plain.gump(1).is_err());
    let patched = Gumps::from_uop(&slots, &uop).with_verdata(&v);
    assert!(!patched.is_compressed(1) && patched.declared_len(1).is_none());
    let gump = patched.gump(1).unwrap().unwrap();
    assert_eq!((gump.width(), gump.height()), (2, 1));
    let decoded = patched.decoded(1, &Limits::default()).unwrap().unwrap();
    assert!(!decoded.is_decoded());
    let gump = decoded.gump().unwrap();
    assert_eq!((gump.width(), gump.height()), (2, 1));
    // Gump 0 is unpatched and still decoded from its compressed entry.
    assert!(patched.is_compressed(0));
    let zero = patched.decoded(0, &Limits::default()).unwrap().unwrap();
    assert!(zero.is_decoded());
    let gump = zero.gump().unwrap();
    assert_eq!((gump.width(), gump.height()), (2, 2));
}
