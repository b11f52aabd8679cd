//! The art thumbnails on synthetic art given by size and a reader, as a page gives a
//! folder: the ids listed are those whose index records hold a picture (read here from
//! artidx.mul's 12-byte records by hand), each picture is the one `gamedata uo art` draws
//! (mul-core's `Art` over both whole files, then gamedata-render's picture), hues included,
//! and art.mul is never read whole: only the entries drawn, each alone.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

use std::cell::RefCell;
use std::rc::Rc;

use gamedata_io::Limits;
use gamedata_render::uo::art::{ArtHue, item_picture, land_picture};
use gamedata_web::{ArtKind, Library};
use mul_core::art::write::synthetic_art;

/// The reads a lazy file was asked for: (offset, length).
type Reads = Rc<RefCell<Vec<(u64, u32)>>>;

fn lazy(library: &mut Library, path: &str, bytes: Vec<u8>) -> Reads {
    let reads: Reads = Rc::default();
    let seen = Rc::clone(&reads);
    let size = bytes.len() as u64;
    library.add_lazy_file(
        path,
        size,
        Box::new(move |offset, length| {
            seen.borrow_mut().push((offset, length));
            let at = usize::try_from(offset).unwrap();
            Ok(bytes[at..at + length as usize].to_vec())
        }),
    );
    reads
}

/// The art numbers whose 12-byte records have an offset and a length (not 0xFFFFFFFF, not
/// a length of 0).
fn numbers_with_pictures(idx: &[u8]) -> Vec<u32> {
    idx.chunks_exact(12)
        .enumerate()
        .filter(|(_, r)| {
            let offset = u32::from_le_bytes(r[0..4].try_into().unwrap());
            let length = u32::from_le_bytes(r[4..8].try_into().unwrap());
            offset != u32::MAX && length != 0 && length != u32::MAX
        })
        .map(|(n, _)| u32::try_from(n).unwrap())
        .collect()
}

#[test]
fn thumbnails_read_their_entries_alone_and_are_the_command_s_pictures() {
    let (idx, mul) = synthetic_art(7);
    let hues = mul_core::synth::hues();
    let mut library = Library::new();
    let idx_reads = lazy(&mut library, "client/artidx.mul", idx.clone());
    let mul_reads = lazy(&mut library, "client/ART.MUL", mul.clone());
    library.add_file("client/hues.mul", hues.clone());
    library.scan();
    assert!(
        library
            .found()
            .contains(&"Ultima Online art: ART.MUL in client".to_owned()),
        "{:?}",
        library.found()
    );
    assert!(mul_reads.borrow().is_empty(), "nothing read at the scan");

    let numbers = numbers_with_pictures(&idx);
    let lands: Vec<u32> = numbers.iter().copied().filter(|&n| n < 0x4000).collect();
    let items: Vec<u32> = numbers
        .iter()
        .filter_map(|&n| n.checked_sub(0x4000))
        .collect();
    assert_eq!(library.art_ids(ArtKind::Land, "").unwrap(), lands);
    assert_eq!(library.art_ids(ArtKind::Item, "").unwrap(), items);
    assert!(
        lands.len() > 10 && items.len() > 100,
        "{} {}",
        lands.len(),
        items.len()
    );
    assert_eq!(library.art_ids(ArtKind::Item, "0x0A").unwrap(), [10]);
    assert_eq!(library.art_ids(ArtKind::Item, "10").unwrap(), [10]);
    assert_eq!(
        library.art_ids(ArtKind::Item, "12345").unwrap(),
        Vec::<u32>::new()
    );
    assert!(
        mul_reads.borrow().is_empty(),
        "listing reads only the index"
    );
    assert_eq!(idx_reads.borrow().as_slice(), [(0, idx.len() as u32)]);

    // The command's pictures: the whole files through mul-core's Art.
    let art = mul_core::Art::parse(&idx, &mul).unwrap();
    let hue_table = mul_core::Hues::parse(&hues).unwrap();
    for hue in [0u16, 3, 0x8000 | 3, 60] {
        let with = ArtHue::from_value(&hue_table, hue).unwrap();
        for &id in &lands[..4] {
            let want = land_picture(&art.land(id as u16).unwrap().unwrap(), with).unwrap();
            let got = library
                .art_picture(ArtKind::Land, id, hue)
                .unwrap()
                .unwrap();
            assert_eq!((got.width(), got.height()), (want.width(), want.height()));
            assert!(got.pixels() == want.pixels(), "land {id}, hue {hue:#x}");
        }
        for &id in items.iter().step_by(23) {
            let item = art.item(id as u16).unwrap().unwrap();
            let got = library.art_picture(ArtKind::Item, id, hue).unwrap();
            if item.width() == 0 || item.height() == 0 {
                assert!(got.is_none(), "item {id}");
                continue;
            }
            let want = item_picture(&item, with, &Limits::default()).unwrap();
            let got = got.unwrap_or_else(|| panic!("item {id}"));
            assert_eq!((got.width(), got.height()), (want.width(), want.height()));
            assert!(got.pixels() == want.pixels(), "item {id}, hue {hue:#x}");
        }
    }
    // Each read was one entry's range, as its record gives it; never the whole file.
    let records: Vec<(u64, u32)> = idx
        .chunks_exact(12)
        .map(|r| {
            let offset = u32::from_le_bytes(r[0..4].try_into().unwrap());
            let length = u32::from_le_bytes(r[4..8].try_into().unwrap());
            (u64::from(offset), length)
        })
        .collect();
    let reads = mul_reads.borrow();
    assert!(reads.len() > 40);
    for read in reads.iter() {
        assert!(records.contains(read), "{read:?} is no entry's range");
        assert!(u64::from(read.1) < mul.len() as u64 / 10);
    }
    assert!(library.loaded_bytes() < mul.len() as u64);

    // An empty entry, a land id past the land tiles, and a spectral hue.
    assert!(
        library
            .art_picture(ArtKind::Item, 255, 0)
            .unwrap()
            .is_none()
    );
    let e = library.art_picture(ArtKind::Land, 0x4000, 0).unwrap_err();
    assert!(
        format!("{e:#}").contains("land 0x4000 is no land tile"),
        "{e:#}"
    );
    assert!(library.art_picture(ArtKind::Item, 10, 0x4001).is_err());
}

#[test]
fn a_bad_entry_names_itself_and_the_others_still_draw() {
    let (mut idx, mul) = synthetic_art(7);
    // Item 20's record (art number 0x4014) points past art.mul's end.
    let at = (0x4000 + 20) * 12;
    idx[at..at + 4].copy_from_slice(&(mul.len() as u32 - 4).to_le_bytes());
    let mut library = Library::new();
    library.add_file("artidx.mul", idx);
    lazy(&mut library, "art.mul", mul);
    library.scan();
    let e = library.art_picture(ArtKind::Item, 20, 0).unwrap_err();
    let sentence = format!("{e:#}");
    assert!(sentence.starts_with("art.mul: item 0x0014: "), "{sentence}");
    assert!(sentence.contains("past its"), "{sentence}");
    assert!(library.art_picture(ArtKind::Item, 21, 0).unwrap().is_some());
    // Without art: the sentence says what to give.
    let e = Library::new().art_ids(ArtKind::Land, "").unwrap_err();
    assert!(format!("{e:#}").contains("no Ultima Online art"), "{e:#}");
}

#[test]
fn the_uop_form_lists_and_draws_the_same_art() {
    let (idx, mul) = synthetic_art(9);
    let art = mul_core::Art::parse(&idx, &mul).unwrap();
    let uop = mul_core::art::write::art_to_uop(&art).unwrap().files;
    let mut from_mul = Library::new();
    from_mul.add_file("artidx.mul", idx);
    from_mul.add_file("art.mul", mul);
    from_mul.scan();
    let mut from_uop = Library::new();
    let size = uop.len() as u64;
    let reads = lazy(&mut from_uop, "artLegacyMUL.uop", uop);
    from_uop.scan();
    let mut drawn = 0;
    for kind in [ArtKind::Land, ArtKind::Item] {
        let ids = from_mul.art_ids(kind, "").unwrap();
        assert_eq!(from_uop.art_ids(kind, "").unwrap(), ids);
        for &id in ids.iter().step_by(17) {
            drawn += 1;
            let a = from_mul
                .art_picture(kind, id, 0)
                .unwrap()
                .map(|p| p.pixels().to_vec());
            let b = from_uop
                .art_picture(kind, id, 0)
                .unwrap()
                .map(|p| p.pixels().to_vec());
            assert_eq!(a, b, "{kind:?} {id}");
        }
    }
    // The container is never read whole: its table by ranges, then each picture alone.
    let reads = reads.borrow();
    let read: u64 = reads.iter().map(|&(_, len)| u64::from(len)).sum();
    assert!(reads.iter().all(|&(_, len)| u64::from(len) < size / 10));
    assert!(read < size / 2, "{read} of {size} bytes read");
    assert!(reads.len() <= drawn + 8, "{} reads", reads.len());
}

#[test]
fn gump_uops_read_by_ranges_draw_as_the_mul_gumps_in_every_form() {
    use mul_core::gump::write::{GumpCompression, gumps_to_compressed_uop, gumps_to_uop};
    let (idx, mul) = mul_core::gump::write::synthetic_gumps(6);
    let gumps = mul_core::Gumps::parse(&idx, &mul).unwrap();
    let hues = mul_core::synth::hues();
    let mut from_mul = Library::new();
    from_mul.add_file("gumpidx.mul", idx.clone());
    from_mul.add_file("gumpart.mul", mul.clone());
    from_mul.add_file("hues.mul", hues.clone());
    from_mul.scan();
    let ids = from_mul.gump_ids("").unwrap();
    assert!(ids.len() > 100);
    let forms = [
        gumps_to_uop(&gumps).unwrap().files,
        gumps_to_compressed_uop(&gumps, GumpCompression::Zlib)
            .unwrap()
            .files,
        gumps_to_compressed_uop(&gumps, GumpCompression::ZlibBwt)
            .unwrap()
            .files,
    ];
    for uop in forms {
        let size = uop.len() as u64;
        let mut from_uop = Library::new();
        let reads = lazy(&mut from_uop, "gumpartLegacyMUL.uop", uop);
        from_uop.add_file("hues.mul", hues.clone());
        from_uop.scan();
        assert_eq!(from_uop.gump_ids("").unwrap(), ids);
        for &id in ids.iter().step_by(7) {
            for hue in [0, 0x8000 | 4] {
                let a = from_mul.gump_picture(id, hue).unwrap().unwrap();
                let b = from_uop.gump_picture(id, hue).unwrap().unwrap();
                assert!(a.pixels() == b.pixels(), "gump {id} hue {hue:#x}");
            }
        }
        let reads = reads.borrow();
        let largest = reads.iter().map(|&(_, len)| u64::from(len)).max().unwrap();
        // The table (one block of 199 entries here) or one gump at a time, never the whole.
        assert!(largest < size / 4, "{largest} of {size}");
    }
}

#[test]
fn texture_maps_read_their_entries_alone_and_follow_texterr_def() {
    let (idx, mul) = mul_core::texmap::write::synthetic_texmaps(3);
    let texmaps = mul_core::Texmaps::parse(&idx, &mul).unwrap();
    let with_pictures: Vec<u32> = numbers_with_pictures(&idx);
    assert!(with_pictures.len() > 3);
    let mut library = Library::new();
    library.add_file("c/texidx.mul", idx.clone());
    let reads = lazy(&mut library, "c/texmaps.mul", mul.clone());
    library.scan();
    assert_eq!(library.texmap_ids("").unwrap(), with_pictures);
    assert_eq!(
        library.texmap_ids("0x1").unwrap().len(),
        usize::from(with_pictures.contains(&1))
    );
    for &id in &with_pictures {
        let want =
            gamedata_render::uo::texmap::texmap_picture(&texmaps.texmap(id).unwrap().unwrap())
                .unwrap();
        let got = library.texmap_picture(id).unwrap().unwrap();
        assert!(got.pixels() == want.pixels(), "texmap {id}");
    }
    assert!(
        reads
            .borrow()
            .iter()
            .all(|(_, len)| u64::from(*len) < mul.len() as u64)
    );
    // TexTerr.def sends an empty id to a drawn one: listed, and drawn from it.
    let empty = (0..texmaps.len() as u32)
        .find(|id| !with_pictures.contains(id))
        .unwrap();
    let source = with_pictures[0];
    library.add_file(
        "c/TexTerr.def",
        format!("{empty} {{{source}}}\n").into_bytes(),
    );
    library.scan();
    assert!(library.texmap_ids("").unwrap().contains(&empty));
    let redirected = library.texmap_picture(empty).unwrap().unwrap();
    let from = library.texmap_picture(source).unwrap().unwrap();
    assert!(redirected.pixels() == from.pixels());
}

#[test]
fn gumps_read_their_entries_alone_and_follow_gump_def() {
    use gamedata_render::uo::gump::{GumpHue, gump_picture};
    let (idx, mul) = mul_core::gump::write::synthetic_gumps(5);
    let hues = mul_core::synth::hues();
    let gumps = mul_core::Gumps::parse(&idx, &mul).unwrap();
    let with_pictures = numbers_with_pictures(&idx);
    assert!(with_pictures.len() > 3);
    let mut library = Library::new();
    library.add_file("c/gumpidx.mul", idx.clone());
    let reads = lazy(&mut library, "c/gumpart.mul", mul.clone());
    library.add_file("c/hues.mul", hues.clone());
    library.scan();
    assert_eq!(library.gump_ids("").unwrap(), with_pictures);
    let table = mul_core::Hues::parse(&hues).unwrap();
    for hue in [0u16, 4, 0x8000 | 4] {
        for &id in &with_pictures {
            let gump = gumps.decoded(id, &Limits::default()).unwrap().unwrap();
            let with = if hue == 0 {
                GumpHue::default()
            } else {
                GumpHue::from_value(&table, hue).unwrap()
            };
            let want = gump_picture(&gump.gump().unwrap(), with, &Limits::default()).unwrap();
            let got = library.gump_picture(id, hue).unwrap().unwrap();
            assert!(got.pixels() == want.pixels(), "gump {id} hue {hue:#x}");
        }
    }
    assert!(
        reads
            .borrow()
            .iter()
            .all(|(_, len)| u64::from(*len) < mul.len() as u64)
    );
    // gump.def lends an empty id a drawn one's picture, with its load hue.
    let empty = (0..gumps.len() as u32)
        .find(|id| !with_pictures.contains(id))
        .unwrap();
    let source = with_pictures[0];
    library.add_file(
        "c/gump.def",
        format!("{empty} {{{source}}} 4\n").into_bytes(),
    );
    library.scan();
    assert!(library.gump_ids("").unwrap().contains(&empty));
    let lent = library.gump_picture(empty, 0).unwrap().unwrap();
    let source_gump = gumps.decoded(source, &Limits::default()).unwrap().unwrap();
    let want = gump_picture(
        &source_gump.gump().unwrap(),
        GumpHue::default().with_load_hue(&table, 4),
        &Limits::default(),
    )
    .unwrap();
    assert!(lent.pixels() == want.pixels());
}
