//! Texture maps: read in place against entries built by hand, each length the client knows
//! and the others refused, the index's empty, past-end, overlapping and repeated entries,
//! the writer and the synthetic set, and the owner.

use std::fs;

use mul_core::texmap::write::{SYNTHETIC_TEXMAPS, TexmapPicture, synthetic_texmaps, write_texmaps};
use mul_core::texmap::{LARGE_LEN, SMALL_LEN};
use mul_core::{
    Error, ErrorKind, FileOptions, IndexProblem, PictureProblem, Texmap, TexmapFiles, Texmaps,
    WriteProblem,
};

/// An index of `(offset, length)` records (extra 0).
fn index_of(entries: &[(u32, u32)]) -> Vec<u8> {
    entries
        .iter()
        .flat_map(|&(o, l)| [o, l, 0])
        .flat_map(u32::to_le_bytes)
        .collect()
}

/// A `side` x `side` texture map's bytes whose pixel (x, y) is `value(x, y)`, written a
/// byte at a time, low byte first.
fn square(side: u32, value: impl Fn(u32, u32) -> u16) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..side {
        for x in 0..side {
            let v = value(x, y);
            out.push((v & 0xFF) as u8);
            out.push((v >> 8) as u8);
        }
    }
    out
}

#[test]
fn a_0x2000_byte_entry_is_64_x_64_pixels_row_by_row() {
    // Pixel (x, y) holds y * 256 + x, bit 15 set on odd rows: where each lands shows the
    // layout, and bit 15 is kept as stored.
    let value = |x: u32, y: u32| ((y << 8) | x) as u16 | if y % 2 == 1 { 0x8000 } else { 0 };
    let bytes = square(64, value);
    assert_eq!(bytes.len(), 0x2000);
    // Two bytes of padding before it: offset 2, not 0.
    let mut data = vec![0xEE, 0xEE];
    data.extend_from_slice(&bytes);
    let index = index_of(&[(0xFFFF_FFFF, 0), (2, 0x2000)]);
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    assert_eq!((texmaps.len(), texmaps.is_empty()), (2, false));
    assert!(texmaps.texmap(0).unwrap().is_none());
    let texmap = texmaps.texmap(1).unwrap().unwrap();
    assert_eq!(texmap.side(), 64);
    assert_eq!(texmap.pixels().len(), 4096);
    // By hand: (0, 0) is the file's bytes 2 and 3; (5, 3) is 3 * 256 + 5 with bit 15.
    assert_eq!(texmap.pixels()[0].get(), 0);
    assert_eq!(texmap.pixels()[3 * 64 + 5].get(), 0x8305);
    assert_eq!(texmap.pixels()[64 * 64 - 1].get(), 0x8000 | (63 << 8) | 63);
    for y in 0..64 {
        let row = texmap.row(y).unwrap();
        assert_eq!(row.len(), 64);
        for (x, p) in row.iter().enumerate() {
            assert_eq!(p.get(), value(x as u32, y), "({x}, {y})");
        }
    }
    assert!(texmap.row(64).is_none() && texmap.row(u32::MAX).is_none());
    // In place: the pixels are the file's bytes.
    let first = texmap.pixels().as_ptr() as usize;
    assert_eq!(first, data.as_ptr() as usize + 2);
    assert_eq!(format!("{texmap:?}"), "Texmap { side: 64, .. }");
}

#[test]
fn a_0x8000_byte_entry_is_128_x_128_and_other_lengths_are_errors() {
    let large = square(128, |x, y| (x * 3 + y * 1000) as u16);
    let texmap = Texmap::parse(&large).unwrap();
    assert_eq!((texmap.side(), texmap.pixels().len()), (128, 16384));
    assert_eq!(
        texmap.row(127).unwrap()[127].get(),
        (127 * 3 + 127 * 1000) as u16
    );
    assert_eq!(texmap.row(1).unwrap()[2].get(), 1006);
    assert!(texmap.row(128).is_none());
    assert_eq!(format!("{texmap:?}"), "Texmap { side: 128, .. }");
    // The client reads 0x8000 bytes for every other length; here they are refused.
    for len in [
        1, 2, 0x1FFE, 0x1FFF, 0x2001, 0x2002, 0x4000, 0x7FFE, 0x8001, 0x8002, 0x10000,
    ] {
        let bytes = vec![0u8; len];
        assert_eq!(
            Texmap::parse(&bytes).unwrap_err().kind,
            ErrorKind::Picture(PictureProblem::TexmapLength { found: len }),
            "{len}"
        );
    }
    assert!(Texmap::parse(&[]).is_err());
    assert_eq!((SMALL_LEN, LARGE_LEN), (0x2000, 0x8000));
}

#[test]
fn a_bad_length_names_the_texmap_and_its_slot() {
    let data = vec![0u8; 0x3000];
    let mut entries = vec![(0xFFFF_FFFF, 0); 0x13];
    entries[0x12] = (0, 0x3000);
    let index = index_of(&entries);
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    let err = texmaps.texmap(0x12).unwrap_err();
    assert_eq!(err.entry(), Some("texmap 0x0012"));
    assert_eq!(err.slot(), Some(0x12));
    assert_eq!(err.file(), Some("texmaps.mul"));
    assert_eq!(
        err.to_string(),
        concat!(
            "in entry texmap 0x0012 (slot 18) of texmaps.mul: the texture map is 12288 bytes, ",
            "expected 8192 (64 x 64 pixels) or 32768 (128 x 128)"
        )
    );
    // The raw entry is still there, whatever its length.
    assert_eq!(texmaps.entry(0x12).unwrap().unwrap().len(), 0x3000);
}

#[test]
fn empty_entries_are_the_clients_and_ids_past_the_index_have_none() {
    let data = vec![0u8; 0x4000];
    let index = index_of(&[
        (0, 0x2000),
        (0xFFFF_FFFF, 0x2000),
        (0x2000, 0),
        (0x2000, 0xFFFF_FFFF),
        (0x2000, 0x8000_0000),
        (0x2000, 0x2000),
    ]);
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    let got: Vec<bool> = (0..6)
        .map(|id| texmaps.texmap(id).unwrap().is_some())
        .collect();
    assert_eq!(got, [true, false, false, false, false, true]);
    // Past the index: no texture for the client, an error for the raw entry.
    assert!(texmaps.texmap(6).unwrap().is_none());
    assert!(texmaps.texmap(u32::MAX).unwrap().is_none());
    assert_eq!(
        texmaps.entry(6).unwrap_err().kind,
        ErrorKind::MissingIndexEntry {
            file: "texidx.mul",
            entry: 6,
            records: 6
        }
    );
    assert_eq!(texmaps.index().len(), 6);
    assert_eq!(texmaps.index()[5].offset.get(), 0x2000);
    assert_eq!(
        format!("{texmaps:?}"),
        "Texmaps { entries: 6, data_len: 16384 }"
    );
    let none = Texmaps::parse(&[], &[]).unwrap();
    assert!(none.is_empty() && none.index().is_empty());
    assert!(none.texmap(0).unwrap().is_none());
    // An index of no whole records.
    assert_eq!(
        Texmaps::parse(&[0; 13], &data).unwrap_err().kind,
        ErrorKind::RecordMultiple {
            what: "texidx.mul",
            found: 13,
            record: 12
        }
    );
}

#[test]
fn repeats_are_read_past_end_and_overlaps_are_errors_for_their_ids_alone() {
    let small: Vec<u16> = (0..4096u16).collect();
    let large = vec![0x7FFFu16; 16384];
    let (index, data) = write_texmaps(&[
        TexmapPicture::Pixels(&small),
        TexmapPicture::Pixels(&large),
        TexmapPicture::Repeat(0),
        TexmapPicture::Empty,
    ])
    .unwrap();
    assert_eq!(data.len(), 0x2000 + 0x8000);
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    let (a, c) = (
        texmaps.texmap(0).unwrap().unwrap(),
        texmaps.texmap(2).unwrap().unwrap(),
    );
    assert_eq!(a.pixels().as_ptr(), c.pixels().as_ptr());
    assert_eq!(c.pixels()[4095].get(), 4095);
    assert_eq!(texmaps.texmap(1).unwrap().unwrap().side(), 128);
    assert!(texmaps.texmap(3).unwrap().is_none());

    // Entry 3 overlaps entry 1's bytes without repeating them: an error for 3 alone.
    let mut index = index;
    index[36..48].copy_from_slice(&index_of(&[(0x2000 + 2, 0x2000)]));
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    let err = texmaps.texmap(3).unwrap_err();
    assert!(
        matches!(
            err.kind,
            ErrorKind::IndexEntry {
                file: "texidx.mul",
                entry: 3,
                problem: IndexProblem::Overlap { other: 1 },
                ..
            }
        ),
        "{err}"
    );
    assert!(texmaps.texmap(1).unwrap().is_some() && texmaps.texmap(2).unwrap().is_some());
    // Past the end of texmaps.mul, by one byte.
    index[36..48].copy_from_slice(&index_of(&[(data.len() as u32 - 0x1FFF, 0x2000)]));
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    assert!(matches!(
        texmaps.texmap(3).unwrap_err().kind,
        ErrorKind::IndexEntry {
            problem: IndexProblem::PastEnd,
            ..
        }
    ));
    // Ending exactly at the end is inside (here it overlaps entry 1); an offset + length
    // past u32 is past the end, not a wrap.
    index[36..48].copy_from_slice(&index_of(&[(data.len() as u32 - 0x2000, 0x2000)]));
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    assert_eq!(
        texmaps.texmap(3).unwrap_err().kind,
        ErrorKind::IndexEntry {
            file: "texidx.mul",
            entry: 3,
            offset: 0x8000,
            length: 0x2000,
            data_len: 0xA000,
            problem: IndexProblem::Overlap { other: 1 }
        }
    );
    index[36..48].copy_from_slice(&index_of(&[(0xFFFF_F000, 0x2000)]));
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    assert!(matches!(
        texmaps.texmap(3).unwrap_err().kind,
        ErrorKind::IndexEntry {
            problem: IndexProblem::PastEnd,
            ..
        }
    ));
}

#[test]
fn the_writer_refuses_what_it_cannot_store() {
    let kind = |pictures: &[TexmapPicture<'_>]| write_texmaps(pictures).unwrap_err().kind;
    assert_eq!(
        kind(&[TexmapPicture::Pixels(&[0; 4097])]),
        ErrorKind::Write(WriteProblem::TexmapPixels { id: 0, found: 4097 })
    );
    assert_eq!(
        kind(&[TexmapPicture::Empty, TexmapPicture::Pixels(&[])]),
        ErrorKind::Write(WriteProblem::TexmapPixels { id: 1, found: 0 })
    );
    assert_eq!(
        kind(&[TexmapPicture::Repeat(0)]),
        ErrorKind::Write(WriteProblem::TexmapRepeat { id: 0, earlier: 0 })
    );
    assert_eq!(
        kind(&[TexmapPicture::Empty, TexmapPicture::Repeat(2)]),
        ErrorKind::Write(WriteProblem::TexmapRepeat { id: 1, earlier: 2 })
    );
    // The index's extra: 1 for a 128 x 128 picture, 0 otherwise; empties 0xFFFFFFFF twice.
    let (index, _) = write_texmaps(&[
        TexmapPicture::Pixels(&[0; 4096]),
        TexmapPicture::Pixels(&[0; 16384]),
        TexmapPicture::Empty,
    ])
    .unwrap();
    let words: Vec<u32> = index
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    assert_eq!(
        words,
        [0, 0x2000, 0, 0x2000, 0x8000, 1, u32::MAX, u32::MAX, 0]
    );
}

#[test]
fn the_synthetic_set_mixes_sides_empties_and_a_repeat() {
    let (index, data) = synthetic_texmaps(5);
    assert_eq!(synthetic_texmaps(5), (index.clone(), data.clone()));
    assert_ne!(synthetic_texmaps(6).1, data);
    let texmaps = Texmaps::parse(&index, &data).unwrap();
    assert_eq!(texmaps.len(), SYNTHETIC_TEXMAPS);
    let (mut small, mut large, mut empty) = (0, 0, 0);
    for id in 0..SYNTHETIC_TEXMAPS as u32 {
        match texmaps.texmap(id).unwrap() {
            None => {
                assert_eq!(id % 16, 15, "{id}");
                empty += 1;
            }
            Some(t) => {
                // 250 repeats 12's entry: a large one.
                let side = if id == 250 || id % 4 == 0 { 128 } else { 64 };
                assert_eq!(t.side(), side, "{id}");
                if t.side() == 64 {
                    small += 1;
                } else {
                    large += 1;
                }
                // The checkerboard: black on the even squares, never black elsewhere.
                let s = t.side() as usize;
                for (i, p) in t.pixels().iter().enumerate() {
                    let (x, y) = (i % s, i / s);
                    assert_eq!(p.get() == 0, (x / 8 + y / 8) % 2 == 0, "{id} ({x}, {y})");
                    // Bit 15 on every other pixel drawn; one blue a texture map.
                    if p.get() != 0 {
                        assert_eq!(p.get() & 0x8000 != 0, (x + y) % 2 == 1, "{id} ({x}, {y})");
                        assert_eq!(p.get() & 31, t.pixels()[8].get() & 31, "{id} ({x}, {y})");
                        // Red 0 to 31 left to right, green 0 to 31 top to bottom.
                        let (red, green) = (x * 31 / (s - 1), y * 31 / (s - 1));
                        let want = (red << 10 | green << 5) as u16;
                        assert_eq!(p.get() & 0x7FE0, want, "{id} ({x}, {y})");
                    }
                }
                // Both reach 31: at the bottom left (the bottom row's square there is the
                // 8th or 16th, odd, so drawn) and the top right.
                let bottom = t.row(t.side() - 1).unwrap()[0].get();
                assert_eq!((bottom >> 5) & 31, 31, "{id}");
                let right = t.row(0).unwrap()[s - 1].get();
                assert_eq!((right >> 10) & 31, 31, "{id}");
            }
        }
    }
    // 18 empty (15, 31 ... 287), 250 repeats 12 (a large one).
    assert_eq!(empty, 18);
    assert_eq!((small, large), (300 - 18 - 75 - 1, 75 + 1));
    assert_eq!(texmaps.entry(250).unwrap(), texmaps.entry(12).unwrap());
    assert_eq!(data.len(), 75 * 0x8000 + (300 - 75 - 18 - 1) * 0x2000);
}

#[test]
fn texmaps_are_found_in_any_case_open_every_way_and_keep_their_overlaps() {
    let dir = tempfile::tempdir().unwrap();
    let small = vec![0x1234u16; 4096];
    let (index, data) =
        write_texmaps(&[TexmapPicture::Pixels(&small), TexmapPicture::Repeat(0)]).unwrap();
    fs::write(dir.path().join("TEXIDX.MUL"), &index).unwrap();
    fs::write(dir.path().join("TexMaps.mul"), &data).unwrap();
    let owned = TexmapFiles::open(dir.path(), ()).unwrap();
    let paths = owned.paths.clone().unwrap();
    assert!(paths[0].ends_with("TEXIDX.MUL") && paths[1].ends_with("TexMaps.mul"));
    let texmaps = owned.view().unwrap();
    assert_eq!(texmaps.len(), 2);
    assert_eq!(
        texmaps.texmap(1).unwrap().unwrap().pixels()[7].get(),
        0x1234
    );
    assert_eq!(
        owned.view().unwrap().entry(0).unwrap(),
        texmaps.entry(0).unwrap()
    );
    let debug = format!("{owned:?}");
    assert!(debug.starts_with("TexmapFiles { paths: Some(["), "{debug}");
    // SAFETY: private files, unchanged while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { TexmapFiles::map(dir.path(), ()) }.unwrap();
    assert_eq!(
        mapped.view().unwrap().texmap(0).unwrap().unwrap().side(),
        64
    );
    let handed = TexmapFiles::from_data(
        None,
        [index.clone().into(), data.into()],
        &FileOptions::default(),
    )
    .unwrap();
    assert_eq!(handed.view().unwrap().len(), 2);
    // A bad index names its file; a missing texmaps.mul is a file error.
    fs::write(dir.path().join("TEXIDX.MUL"), &index[..13]).unwrap();
    let err = TexmapFiles::open(dir.path(), ()).unwrap_err();
    assert_eq!(err.file(), Some("TEXIDX.MUL"));
    fs::remove_file(dir.path().join("TexMaps.mul")).unwrap();
    assert!(matches!(
        TexmapFiles::open(dir.path(), ()),
        Err(Error::File(_))
    ));
}

#[test]
fn the_views_and_the_owner_are_send_and_sync() {
    const fn send_sync<T: Send + Sync>() {}
    const _: () = {
        send_sync::<Texmaps<'static>>();
        send_sync::<Texmap<'static>>();
        send_sync::<TexmapFiles>();
    };
}
