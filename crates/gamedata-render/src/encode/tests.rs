//! The encoder's tests: stripes joined into one stream, filters, levels, colour types.

use super::*;
use crate::RgbaImage;

fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let image = RgbaImage::from_png(bytes).unwrap();
    (image.width(), image.height(), image.into_pixels())
}

/// A picture of every kind of row: repeated, varying, random-looking.
fn picture(width: u32, height: u32) -> RgbaImage {
    let mut image = RgbaImage::new(width, height, [0; 4]).unwrap();
    let mut state = 0x1234_5678u32;
    for y in 0..height {
        for x in 0..width {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let noise = (state >> 24) as u8;
            let p = match y % 3 {
                0 => [x as u8, y as u8, 7, 255],
                1 => [noise, noise / 2, 9, noise | 1],
                _ => [3, 3, 3, 0],
            };
            image.set(x, y, p);
        }
    }
    image
}

fn encode(image: &RgbaImage, rows: u32, compression: PngCompression) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut seen = Vec::new();
    let row_bytes = image.width as usize * 4;
    let mut png = ParallelPng::new(&mut bytes, image.width, image.height, compression).unwrap();
    // Parts of `rows` rows for the rows given whole too: several windows of them.
    png.shape.part_rows = rows;
    // The first rows given whole (past one window of parts when the picture has the
    // rows), the rest drawn in parts.
    let given = (rows.saturating_mul(9) + 1).min(image.height);
    png.write_rows(&image.pixels[..given as usize * row_bytes])
        .unwrap();
    png.draw_rest(
        rows,
        &|y, n| {
            let start = y as usize * row_bytes;
            Ok(Cow::Borrowed(
                &image.pixels[start..start + n as usize * row_bytes],
            ))
        },
        &mut |n| seen.push(n),
    )
    .unwrap();
    png.finish().unwrap();
    assert_eq!(seen.iter().sum::<u32>(), image.height - given);
    bytes
}

#[test]
fn stripes_join_into_one_stream_that_decodes_to_the_pixels() {
    for (w, h) in [(1, 1), (5, 7), (33, 40), (300, 17), (7, 100)] {
        let image = picture(w, h);
        for rows in [1, 2, 3, 16, 1000] {
            for c in [
                PngCompression::Fast,
                PngCompression::Default,
                PngCompression::Best,
            ] {
                let png = encode(&image, rows, c);
                let (dw, dh, pixels) = decode(&png);
                assert_eq!((dw, dh), (w, h));
                assert_eq!(pixels, image.pixels, "{w}x{h}, {rows} rows, {c:?}");
            }
        }
    }
}

#[test]
fn rows_are_filtered_sub_first_then_up() {
    let pixels = [10u8, 20, 30, 40, 11, 22, 33, 44, 5, 5, 5, 5, 1, 2, 3, 4];
    let filtered = filter(&pixels, 8, 4, PngFilter::Up);
    assert_eq!(
        filtered,
        [
            1, 10, 20, 30, 40, 1, 2, 3, 4, // Sub: the first pixel as it is
            2, 251, 241, 231, 221, 246, 236, 226, 216, // Up: wrapping differences
        ]
    );
}

#[test]
fn the_zlib_header_is_valid_at_every_level() {
    // FLEVEL (RFC 1950): 0 fastest (levels 0 and 1), 1 fast (2 to 5), 2 default (6),
    // 3 maximum (7 to 9).
    let flevel: Vec<u8> = (0..=9).map(|l| zlib_header(l)[1] >> 6).collect();
    assert_eq!(flevel, [0, 0, 1, 1, 1, 1, 2, 3, 3, 3]);
    for level in 0..=9 {
        let [cmf, flg] = zlib_header(level);
        assert_eq!(
            (u16::from(cmf) * 256 + u16::from(flg)) % 31,
            0,
            "level {level}"
        );
        assert_eq!(cmf, 0x78);
    }
}

/// The zlib stream of a PNG's first IDAT chunk: its first bytes.
fn first_idat(png: &[u8]) -> &[u8] {
    let at = png.windows(4).position(|w| w == b"IDAT").unwrap();
    &png[at + 4..]
}

#[test]
fn each_compression_is_its_zlib_rs_level() {
    let image = picture(64, 64);
    let headers: Vec<[u8; 2]> = [
        PngCompression::Fast,
        PngCompression::Default,
        PngCompression::Best,
    ]
    .into_iter()
    .map(|c| {
        let png = encode(&image, 16, c);
        let idat = first_idat(&png);
        [idat[0], idat[1]]
    })
    .collect();
    assert_eq!(headers, [[0x78, 0x5E], [0x78, 0x9C], [0x78, 0xDA]]);
    // Level 2 compresses: a stored stream (level 0) would be larger than the pixels.
    let flat = RgbaImage::new(300, 100, [9, 8, 7, 255]).unwrap();
    let png = encode(&flat, 100, PngCompression::Fast);
    assert!(png.len() < 2_000, "{} bytes", png.len());
}

#[test]
fn a_stripe_of_the_wrong_length_is_an_error() {
    let mut png = ParallelPng::new(Vec::new(), 4, 4, PngCompression::Fast).unwrap();
    let result = png.draw_rest(
        2,
        &|_, n| Ok(Cow::Owned(vec![0; 3 * 4 * n as usize])),
        &mut |_| {},
    );
    assert!(matches!(
        result,
        Err(RenderError::Stripe {
            width: 3,
            rows: 2,
            expected_width: 4,
            rows_left: 4
        })
    ));
    let mut png = ParallelPng::new(Vec::new(), 4, 4, PngCompression::Fast).unwrap();
    assert!(matches!(
        png.write_rows(&[0; 16 * 5]),
        Err(RenderError::Stripe {
            rows: 5,
            rows_left: 4,
            ..
        })
    ));
    assert!(matches!(
        png.write_rows(&[0; 15]),
        Err(RenderError::Stripe { rows: 0, .. })
    ));
    // Two rows and three bytes: 35 bytes over 2 rows of 4 bytes a pixel is 4 wide.
    assert!(matches!(
        png.write_rows(&[0; 35]),
        Err(RenderError::Stripe {
            width: 4,
            rows: 2,
            expected_width: 4,
            rows_left: 4
        })
    ));
    png.write_rows(&[0; 16 * 3]).unwrap();
    assert!(matches!(
        png.finish(),
        Err(RenderError::Stripe {
            rows: 0,
            rows_left: 1,
            ..
        })
    ));
}

/// `image` written as `colour` says, in parts of `rows` rows, filtered `filter`.
fn encode_as(
    image: &RgbaImage,
    rows: u32,
    filter: PngFilter,
    colour: PngColour,
) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let size = (image.width, image.height);
    let mut png = ParallelPng::with_layout(&mut bytes, size, PngCompression::Fast, filter, colour)?;
    png.shape.part_rows = rows;
    png.write_rows(&image.pixels)?;
    png.finish()?;
    Ok(bytes)
}

/// The PNG's colour type byte (IHDR's tenth byte).
fn colour_type(png: &[u8]) -> u8 {
    let at = png.windows(4).position(|w| w == b"IHDR").unwrap();
    png[at + 4 + 9]
}

#[test]
fn an_opaque_picture_stored_as_rgb_decodes_to_its_rgba() {
    for (w, h) in [(1, 1), (5, 7), (33, 40), (300, 17)] {
        let mut image = picture(w, h);
        for p in image.pixels.chunks_exact_mut(4) {
            p[3] = 255;
        }
        assert!(image.is_opaque());
        for filter in [PngFilter::Up, PngFilter::Sub] {
            for rows in [1, 3, 1000] {
                let rgb = encode_as(&image, rows, filter, PngColour::OpaqueRgb).unwrap();
                let rgba = encode_as(&image, rows, filter, PngColour::Rgba).unwrap();
                // Colour types 2 (RGB) and 6 (RGBA), PNG specification, section 11.2.2.
                assert_eq!((colour_type(&rgb), colour_type(&rgba)), (2, 6));
                let (dw, dh, pixels) = decode(&rgb);
                assert_eq!((dw, dh), (w, h));
                assert_eq!(pixels, image.pixels, "{w}x{h}, {rows} rows, {filter:?}");
                assert_eq!(decode(&rgba).2, image.pixels);
            }
        }
    }
}

#[test]
fn rgb_rows_are_filtered_three_bytes_a_pixel() {
    let pixels = [10u8, 20, 30, 11, 22, 33, 5, 5, 5, 1, 2, 3];
    assert_eq!(
        filter(&pixels, 6, 3, PngFilter::Up),
        [1, 10, 20, 30, 1, 2, 3, 2, 251, 241, 231, 246, 236, 226]
    );
    // The same rows as RGBA, filtered in one pass with their alpha left out.
    let rgba = [
        10u8, 20, 30, 255, 11, 22, 33, 255, 5, 5, 5, 255, 1, 2, 3, 255,
    ];
    assert_eq!(
        filter_rgb(&rgba, 2, PngFilter::Up),
        Ok(vec![
            1, 10, 20, 30, 1, 2, 3, 2, 251, 241, 231, 246, 236, 226
        ])
    );
    assert_eq!(
        filter_rgb(&rgba, 2, PngFilter::Sub),
        Ok(vec![1, 10, 20, 30, 1, 2, 3, 1, 5, 5, 5, 252, 253, 254])
    );
    // Against `filter` over the RGB bytes, on rows of every kind of byte.
    let mut state = 0x7F4A_7C15u32;
    let rgba: Vec<u8> = (0..4 * 7 * 5)
        .map(|i| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            if i % 4 == 3 { 255 } else { state as u8 }
        })
        .collect();
    let rgb: Vec<u8> = rgba.chunks(4).flat_map(|p| p[..3].to_vec()).collect();
    for how in [PngFilter::Up, PngFilter::Sub] {
        assert_eq!(
            filter_rgb(&rgba, 7, how),
            Ok(filter(&rgb, 21, 3, how)),
            "{how:?}"
        );
    }
    // The first pixel that is not opaque, counted from the first.
    assert_eq!(
        filter_rgb(&[1, 2, 3, 255, 4, 5, 6, 254, 7, 8, 9, 0], 3, PngFilter::Sub),
        Err(1)
    );
    assert_eq!(
        filter_rgb(&[1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 0], 1, PngFilter::Up),
        Err(2)
    );
}

#[test]
fn a_pixel_not_opaque_in_an_rgb_picture_is_an_error_naming_it() {
    let mut image = RgbaImage::new(9, 20, [1, 2, 3, 255]).unwrap();
    assert!(image.is_opaque());
    image.set(4, 13, [1, 2, 3, 254]);
    assert!(!image.is_opaque());
    // In the fifth part of three rows: its row counted from the picture's top.
    let err = encode_as(&image, 3, PngFilter::Sub, PngColour::OpaqueRgb).unwrap_err();
    assert!(
        matches!(err, RenderError::NotOpaque { x: 4, y: 13 }),
        "{err:?}"
    );
    assert!(encode_as(&image, 3, PngFilter::Sub, PngColour::Rgba).is_ok());
}

#[test]
fn only_8_bit_rgb_and_rgba_pngs_are_read_back() {
    assert!(matches!(
        RgbaImage::from_png(b"not a png"),
        Err(RenderError::PngRead(_))
    ));
    let mut grey = Vec::new();
    let mut encoder = png::Encoder::new(&mut grey, 2, 2);
    encoder.set_color(png::ColorType::Grayscale);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&[0, 1, 2, 3])
        .unwrap();
    let err = RgbaImage::from_png(&grey).unwrap_err();
    assert!(err.to_string().contains("Grayscale"), "{err}");
}

#[test]
fn a_kept_compressor_deflates_as_a_new_one() {
    let noise = |seed: u32, n: usize| -> Vec<u8> {
        let mut state = seed;
        (0..n)
            .map(|i| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                if i % 7 < 3 { (state >> 24) as u8 } else { 9 }
            })
            .collect()
    };
    let (a, b) = (noise(1, 100_000), noise(2, 70_000));
    // This thread's compressor left mid-stream (a sync flush), then at another level.
    with_compressor(2, |c| deflate_with(c, a.clone(), 1, false)).unwrap();
    with_compressor(6, |c| deflate_with(c, a.clone(), 1, true)).unwrap();
    with_compressor(2, |c| deflate_with(c, a, 1, false)).unwrap();
    let kept = with_compressor(2, |c| deflate_with(c, b.clone(), 7, true)).unwrap();
    let mut new = flate2::Compress::new(flate2::Compression::new(2), false);
    let fresh = deflate_with(&mut new, b, 7, true).unwrap();
    assert_eq!(kept.deflated, fresh.deflated);
    assert_eq!((kept.adler, kept.len), (7, 70_000));
}

#[test]
fn stripe_rows_fill_two_mebibytes() {
    assert_eq!(parallel_stripe_rows(0), 1);
    assert_eq!(parallel_stripe_rows(1 << 20), 1);
    assert_eq!(parallel_stripe_rows(7168), 73);
    assert_eq!(parallel_stripe_rows(1), 1 << 19);
}
