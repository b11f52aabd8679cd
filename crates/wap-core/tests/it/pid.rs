//! PID images and palettes: hand-encoded images (RLE and plain, runs across rows, cut
//! data), and the real PIDs against their reference decodes (`GAMEDATA_DIR`).

use gamedata_io::Limits;
use wap_core::{ArgumentProblem, ErrorKind, ImageProblem, Palette, Pid, PidFlags, PidPixels};

/// A PID file: header (flags, size, offset), pixel data, an optional palette.
fn pid(flags: u32, (w, h): (i32, i32), data: &[u8], palette: Option<&[u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [5, flags as i32, w, h, -3, 4, 0, 0] {
        out.extend(v.to_le_bytes());
    }
    out.extend(data);
    if let Some(p) = palette {
        out.extend(p);
    }
    out
}

fn decode(bytes: &[u8]) -> wap_core::PidPixels {
    Pid::parse(bytes)
        .unwrap()
        .decode(&Limits::default())
        .unwrap()
}

#[test]
fn rle_skips_and_literals_run_across_rows() {
    // 3 x 3: skip 2, 4 literals (crossing into row 1), skip 1, 2 literals.
    let data = [130, 4, 9, 8, 7, 6, 129, 2, 5, 4];
    let bytes = pid(0x20, (3, 3), &data, None);
    let p = decode(&bytes);
    assert_eq!(p.indices, [0, 0, 9, 8, 7, 6, 0, 5, 4]);
    assert_eq!(
        p.opaque,
        [false, false, true, true, true, true, false, true, true]
    );
    // 128 is a run of 128 literals, not a skip (OpenClaw, WAP32.rs).
    let mut data = vec![128];
    data.extend(1..=128u8);
    let p = decode(&pid(0x20, (16, 8), &data, None));
    assert_eq!(p.indices, (1..=128).collect::<Vec<u8>>());
    assert!(p.opaque.iter().all(|&o| o));
}

#[test]
fn plain_runs_and_single_pixels() {
    // 4 x 2: a run of 5 of index 7 (crossing the row), then 192 as one pixel, then 1, 2.
    let data = [197, 7, 192, 1, 2];
    let p = decode(&pid(0, (4, 2), &data, None));
    assert_eq!(p.indices, [7, 7, 7, 7, 7, 192, 1, 2]);
    assert!(
        p.opaque.iter().all(|&o| o),
        "no transparent flag: all drawn"
    );
    // With the transparent flag, index 0 is not drawn; with 0x100 the key is user1's low byte.
    let data = [0, 1, 2, 0];
    let p = decode(&pid(0x01, (2, 2), &data, None));
    assert_eq!(p.opaque, [false, true, true, false]);
    let mut keyed = pid(0x101, (2, 2), &data, None);
    keyed[24..28].copy_from_slice(&0x0102i32.to_le_bytes());
    let pid = Pid::parse(&keyed).unwrap();
    assert_eq!(pid.key_index(), Some(2));
    assert_eq!(pid.flags(), PidFlags::TRANSPARENT | PidFlags::KEY_INDEX);
    assert_eq!(pid.offset(), (-3, 4));
    let p = pid.decode(&Limits::default()).unwrap();
    assert_eq!(p.opaque, [true, true, false, true]);
}

fn image_problem(e: wap_core::DataError) -> ImageProblem {
    match e.kind {
        ErrorKind::Image(p) => p,
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_images_are_errors() {
    let short = image_problem(Pid::parse(&[0; 31]).unwrap_err());
    assert_eq!(
        short,
        ImageProblem::PidTooShort {
            found: 31,
            expected: 32
        }
    );
    let no_palette = image_problem(Pid::parse(&pid(0x80, (1, 1), &[1], None)).unwrap_err());
    assert_eq!(
        no_palette,
        ImageProblem::PidTooShort {
            found: 33,
            expected: 800
        }
    );
    for size in [(-1, 4), (4, 65_537)] {
        let e = image_problem(Pid::parse(&pid(0, size, &[], None)).unwrap_err());
        assert_eq!(
            e,
            ImageProblem::PidSize {
                width: size.0,
                height: size.1
            }
        );
    }
    // Data that ends early: what was decoded is kept, the error says how far it got.
    let cut = pid(0x20, (4, 4), &[3, 1, 2, 3, 130, 5, 9], None);
    let pid_view = Pid::parse(&cut).unwrap();
    let (mut indices, mut opaque) = (vec![0; 16], vec![false; 16]);
    let e = image_problem(pid_view.decode_into(&mut indices, &mut opaque).unwrap_err());
    assert_eq!(
        e,
        ImageProblem::PidCut {
            found: 7,
            filled: 6,
            pixels: 16
        }
    );
    assert_eq!(indices[..3], [1, 2, 3]);
    let e = pid_view
        .decode_into(&mut indices[..15], &mut opaque)
        .unwrap_err();
    assert_eq!(
        e.kind,
        ErrorKind::Argument(ArgumentProblem::Buffer {
            found: 15,
            expected: 16
        })
    );
    assert_eq!(e.category(), gamedata_io::Category::Argument);
    #[cfg(feature = "serde")]
    assert_eq!(e.name(), "Buffer");
    // A 65536 x 65536 image is refused before allocating, by the caller's limits.
    let huge = pid(0, (65_536, 65_536), &[], None);
    let limits = Limits::default().with_max_decoded_bytes(1 << 20);
    let e = Pid::parse(&huge).unwrap().decode(&limits).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Limit(l) if l.found == 2 << 32));
    assert_eq!(
        image_problem(Palette::parse(&[0; 767]).unwrap_err()),
        ImageProblem::Palette { found: 767 }
    );
}

/// A PNG's pixels as RGBA.
fn png_rgba(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("{other:?}"),
    };
    (info.width, info.height, rgba)
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn real_pids_equal_their_reference_decodes() {
    let dir = gamedata_testkit::require_file("wap32/pid");
    for (name, flags, size) in [("PERFECT", 0x81, (252, 54)), ("FRAME043", 0x3A5, (64, 65))] {
        let bytes = std::fs::read(dir.join(format!("{name}.PID"))).unwrap();
        let pid = Pid::parse(&bytes).unwrap();
        assert_eq!(
            (pid.flags().bits(), pid.width(), pid.height()),
            (flags, size.0, size.1)
        );
        let pixels = pid.decode(&Limits::default()).unwrap();
        let palette = pid.palette().unwrap();
        let (w, h, reference) = png_rgba(&dir.join("de").join(format!("{name}.PNG")));
        assert_eq!((w, h), size);
        for (i, (&index, want)) in pixels
            .indices
            .iter()
            .zip(reference.chunks_exact(4))
            .enumerate()
        {
            assert_eq!(palette.get(index), want[..3], "{name} pixel {i}");
        }
        let (_, _, alpha) = png_rgba(&dir.join("de+alpha").join(format!("{name}.PNG")));
        let reference_clear: Vec<bool> = alpha.chunks_exact(4).map(|p| p[3] == 0).collect();
        let ours_clear: Vec<bool> = pixels.opaque.iter().map(|o| !o).collect();
        if name == "FRAME043" {
            // RLE: the reference's transparent pixels are the skipped ones, as ours.
            assert_eq!(ours_clear, reference_clear);
            assert!(reference_clear.iter().filter(|&&c| c).count() > 1000);
        } else {
            // Plain with the transparent flag: the reference clears index 8; the engines'
            // rule (index 0) clears the pixels of index 0.
            let eight: Vec<bool> = pixels.indices.iter().map(|&i| i == 8).collect();
            assert_eq!(reference_clear, eight);
            let zero: Vec<bool> = pixels.indices.iter().map(|&i| i == 0).collect();
            assert_eq!(ours_clear, zero);
        }
    }
    // FRAME003: a 100 x 100 light map, no palette.
    let bytes = std::fs::read(dir.join("FRAME003.PID")).unwrap();
    let pid = Pid::parse(&bytes).unwrap();
    assert!(pid.flags().contains(PidFlags::LIGHTS) && pid.palette().is_none());
    let light = pid.decode(&Limits::default()).unwrap();
    assert_eq!(light.indices.len(), 100 * 100);
    assert!(light.opaque.iter().any(|&o| o) && light.opaque.iter().any(|&o| !o));
}

#[test]
fn the_writer_s_images_decode_to_what_was_written() {
    use wap_core::write_pid;
    // 300 x 7: long skips and literal runs crossing rows, indices above 192, runs past 63.
    let (w, h) = (300u32, 7u32);
    let n = (w * h) as usize;
    let indices: Vec<u8> = (0..n)
        .map(|i| {
            if i % 700 < 100 {
                200
            } else {
                (i * 7 % 251) as u8
            }
        })
        .collect();
    let opaque: Vec<bool> = (0..n).map(|i| i % 450 >= 200).collect();
    let pixels = PidPixels {
        width: w,
        height: h,
        indices,
        opaque,
    };
    let palette = [9u8; 768];
    let rle = write_pid(&pixels, (4, -5), PidFlags::MIRROR, Some(&palette), true);
    let view = Pid::parse(&rle).unwrap();
    assert!(
        view.flags()
            .contains(PidFlags::RLE | PidFlags::MIRROR | PidFlags::PALETTE | PidFlags::TRANSPARENT)
    );
    assert_eq!(view.offset(), (4, -5));
    assert_eq!(view.palette().unwrap().get(3), [9, 9, 9]);
    let back = view.decode(&Limits::default()).unwrap();
    // Skipped pixels come back transparent and index 0; with the transparent flag (set:
    // some pixels are), an opaque pixel of the key index 0 is transparent too.
    for (i, ((b, p), o)) in back
        .indices
        .iter()
        .zip(&pixels.indices)
        .zip(&pixels.opaque)
        .enumerate()
    {
        assert_eq!(*b, if *o { *p } else { 0 }, "pixel {i}");
        assert_eq!(back.opaque[i], *o && *p != 0, "pixel {i}");
    }
    // The plain form: transparent pixels become the key index 0; runs of up to 63.
    let plain = write_pid(&pixels, (0, 0), PidFlags::empty(), None, false);
    let back = decode(&plain);
    assert_eq!(
        back.opaque,
        pixels
            .opaque
            .iter()
            .zip(&pixels.indices)
            .map(|(&o, &i)| o && i != 0)
            .collect::<Vec<_>>()
    );
    assert!(plain.len() < 32 + n, "runs are coded");
}

#[test]
#[ignore = "needs GAMEDATA_DIR with the real game files"]
fn the_real_pcx_screen_reads_with_the_pcx_crate() {
    // The games keep full-screen pictures as PCX; the `pcx` crate reads them (this project
    // has no PCX decoder of its own). TRAINING.PCX is version 5 with three 8-bit planes:
    // 24-bit colour, no palette (docs/formats/wap32.md).
    let bytes = std::fs::read(gamedata_testkit::require_file("wap32/pcx/TRAINING.PCX")).unwrap();
    let mut reader = pcx::Reader::from_mem(&bytes).unwrap();
    assert_eq!((reader.width(), reader.height()), (640, 480));
    assert!(!reader.is_paletted());
    let mut row = vec![0u8; 640 * 3];
    let mut colours = std::collections::BTreeSet::new();
    for _ in 0..480 {
        reader.next_row_rgb(&mut row).unwrap();
        colours.extend(row.chunks_exact(3).map(|p| [p[0], p[1], p[2]]));
    }
    assert!(
        colours.len() > 64,
        "{} colours: a picture, not a flat screen",
        colours.len()
    );
}

#[test]
fn the_view_gives_the_header_s_numbers_and_the_data_between() {
    let palette: Vec<u8> = (0..768).map(|i| (i % 251) as u8).collect();
    let bytes = pid(0xA1, (3, 2), &[6, 1, 2, 3, 4, 5, 6], Some(&palette));
    let view = Pid::parse(&bytes).unwrap();
    assert_eq!((view.width(), view.height(), view.pixel_count()), (3, 2, 6));
    assert_eq!(view.pixel_data(), &[6, 1, 2, 3, 4, 5, 6]);
    assert_eq!(view.header().id.get(), 5);
    assert_eq!(view.palette().unwrap().get(2), [6, 7, 8]);
    assert_eq!(
        view.palette().unwrap().colours()[255],
        [(765 % 251) as u8, (766 % 251) as u8, (767 % 251) as u8]
    );
    // Colours through the palette, alpha 255 where drawn and 0 where not (index 0's colour).
    let pixels = PidPixels {
        width: 2,
        height: 1,
        indices: vec![2, 0],
        opaque: vec![true, false],
    };
    assert_eq!(
        pixels.rgba(&view.palette().unwrap()),
        [6, 7, 8, 255, 0, 1, 2, 0]
    );
    let debug = format!("{view:?} {:?}", view.palette().unwrap());
    assert!(
        debug.contains("width: 3") && debug.contains("Palette"),
        "{debug}"
    );
    gamedata_testkit::assert_debug_bounded("a PID view", &view, 400);
}

#[test]
fn the_writer_s_bytes_are_the_format_s() {
    use wap_core::write_pid;
    // 3 x 1: index 5 drawn, two skipped. RLE: 1 literal (5), a skip of 2 (130).
    let pixels = PidPixels {
        width: 3,
        height: 1,
        indices: vec![5, 0, 0],
        opaque: vec![true, false, false],
    };
    let rle = write_pid(&pixels, (0, 0), PidFlags::empty(), None, true);
    assert_eq!(&rle[32..], &[1, 5, 130]);
    // The same plain: 5, then the key index 0 twice as a run (194, 0).
    let plain = write_pid(&pixels, (0, 0), PidFlags::empty(), None, false);
    assert_eq!(&plain[32..], &[5, 194, 0]);
    // Index 200 alone is a run of one (193, 200); 192 is one pixel as itself.
    let high = PidPixels {
        width: 2,
        height: 1,
        indices: vec![200, 192],
        opaque: vec![true, true],
    };
    assert_eq!(
        &write_pid(&high, (0, 0), PidFlags::empty(), None, false)[32..],
        &[193, 200, 192]
    );
    // An image of drawn pixels only: no skip byte at the end.
    assert_eq!(
        &write_pid(&high, (0, 0), PidFlags::empty(), None, true)[32..],
        &[2, 200, 192]
    );
    // The flags the data decides are the writer's: asked-for key index, transparency, RLE
    // and palette flags are dropped when the data has none; others are kept.
    let asked = PidFlags::KEY_INDEX
        | PidFlags::TRANSPARENT
        | PidFlags::RLE
        | PidFlags::PALETTE
        | PidFlags::MIRROR;
    let written = Pid::parse(&write_pid(&high, (0, 0), asked, None, false))
        .unwrap()
        .flags();
    assert_eq!(written, PidFlags::MIRROR);
    let written = Pid::parse(&write_pid(&pixels, (0, 0), asked, None, true))
        .unwrap()
        .flags();
    assert_eq!(
        written,
        PidFlags::MIRROR | PidFlags::TRANSPARENT | PidFlags::RLE
    );
}
