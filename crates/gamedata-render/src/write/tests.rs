//! The PNG writer's tests: every kind of pixels decodes to the picture, whatever the
//! options; what does not fit the picture is refused.

// Test values are small by construction: casts cut nothing.
#![allow(clippy::cast_possible_truncation)]

use super::*;

/// `pixels` written with the default options.
fn png_of(pixels: PngPixels<'_>) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    write_png(&mut bytes, pixels, &PngOptions::default())?;
    Ok(bytes)
}

#[test]
fn a_png_written_in_stripes_decodes_to_the_whole_picture() {
    let mut whole = RgbaImage::new(5, 7, [9, 9, 9, 255]).unwrap();
    for y in 0..7u8 {
        whole.set(u32::from(y % 5), u32::from(y), [y * 30, 0, 255, 255]);
    }
    let stripe = |y0: u32, rows: u32| {
        let bytes: Vec<u8> = (y0..y0 + rows)
            .flat_map(|y| whole.row(y).unwrap().to_vec())
            .collect();
        RgbaImage::from_pixels(5, rows, bytes).unwrap()
    };
    let stripes = |width, height, next: &mut dyn FnMut(u32) -> Result<RgbaImage>| {
        png_of(PngPixels::Stripes {
            width,
            height,
            next,
        })
    };
    let bytes = stripes(5, 7, &mut |y| Ok(stripe(y, 3.min(7 - y)))).unwrap();
    assert_eq!(&RgbaImage::from_png(&bytes).unwrap(), &whole);
    // Stripes that do not fit: too many rows, another width, no rows.
    let too_many = stripes(5, 2, &mut |_| Ok(stripe(0, 3)));
    assert!(matches!(
        too_many,
        Err(RenderError::Stripe {
            rows: 3,
            rows_left: 2,
            ..
        })
    ));
    let narrow = stripes(4, 2, &mut |_| Ok(stripe(0, 1)));
    assert!(matches!(narrow, Err(RenderError::Stripe { width: 5, .. })));
    let empty = stripes(5, 2, &mut |_| RgbaImage::new(5, 0, [0; 4]));
    assert!(matches!(empty, Err(RenderError::Stripe { rows: 0, .. })));
}

fn decoded(bytes: Vec<u8>) -> (u32, u32, Vec<u8>) {
    let image = RgbaImage::from_png(&bytes).unwrap();
    (image.width(), image.height(), image.into_pixels())
}

#[test]
fn a_source_written_whole_decodes_to_its_picture_and_reports_its_rows() {
    let mut whole = RgbaImage::new(700, 900, [0, 0, 0, 255]).unwrap();
    for y in 0..900u32 {
        whole.set((y * 7) % 700, y, [y as u8, (y / 3) as u8, 9, 255]);
    }
    let done = std::sync::atomic::AtomicU32::new(0);
    let mut bytes = Vec::new();
    write_source_png(&mut bytes, &whole, &PngOptions::default(), &|n| {
        done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(decoded(bytes), (700, 900, whole.pixels().to_vec()));
    assert_eq!(done.into_inner(), 900);

    /// A source whose draw fails: its error comes out, nothing else.
    struct Failing;
    impl crate::TileSource for Failing {
        fn size(&self) -> (u32, u32) {
            (10, 10)
        }
        fn draw(&self, _: crate::Region) -> Result<RgbaImage> {
            Err(RenderError::Scale { scale: 5 })
        }
    }
    let err = write_source_png(Vec::new(), &Failing, &PngOptions::default(), &|_| {});
    assert!(matches!(err, Err(RenderError::Scale { scale: 5 })));
}

#[test]
fn borrowed_pixels_and_drawn_stripes_decode_to_the_picture() {
    let mut whole = RgbaImage::new(9, 300, [1, 2, 3, 255]).unwrap();
    for y in 0..300u32 {
        whole.set(
            y % 9,
            y,
            [(y % 251) as u8, 7, (y / 3) as u8, (y % 2) as u8 * 255],
        );
    }
    for filter in [crate::PngFilter::Up, crate::PngFilter::Sub] {
        let mut bytes = Vec::new();
        let options = PngOptions::default().with_filter(filter);
        write_png(&mut bytes, PngPixels::Image(&whole), &options).unwrap();
        assert_eq!(
            decoded(bytes),
            (9, 300, whole.pixels().to_vec()),
            "{filter:?}"
        );
    }
    let mut bytes = Vec::new();
    let rgba = PngPixels::Rgba {
        width: 9,
        height: 300,
        pixels: whole.pixels(),
    };
    let best = PngOptions::default().with_compression(PngCompression::Best);
    write_png(&mut bytes, rgba, &best).unwrap();
    assert_eq!(decoded(bytes), (9, 300, whole.pixels().to_vec()));
    // Drawn in stripes of 7 rows: the progress adds up, in order.
    let mut bytes = Vec::new();
    let mut seen = Vec::new();
    let crop = |y: u32, rows: u32| {
        let at = y as usize * 36;
        RgbaImage::from_pixels(
            9,
            rows,
            whole.pixels()[at..at + rows as usize * 36].to_vec(),
        )
        .ok_or(RenderError::Scale { scale: 0 })
    };
    write_png_parallel_rows(
        &mut bytes,
        (9, 300),
        (7, crate::PngFilter::Up, crate::PngColour::Rgba),
        PngCompression::Default,
        crop,
        |n| seen.push(n),
    )
    .unwrap();
    assert_eq!(decoded(bytes), (9, 300, whole.pixels().to_vec()));
    assert_eq!(seen.len(), 43);
    assert_eq!(seen.iter().sum::<u32>(), 300);
    assert_eq!(seen.last(), Some(&6));
}

#[test]
fn what_does_not_fit_the_picture_is_refused() {
    let rgba = |width, height, pixels| {
        png_of(PngPixels::Rgba {
            width,
            height,
            pixels,
        })
    };
    let parallel = |width, height, draw: &(dyn Fn(u32, u32) -> Result<RgbaImage> + Sync)| {
        png_of(PngPixels::Parallel {
            width,
            height,
            draw,
            progress: &|_| {},
        })
    };
    let wrong_length = rgba(3, 2, &[0; 23]);
    assert!(matches!(
        wrong_length,
        Err(RenderError::TooLarge {
            width: 3,
            height: 2,
            ..
        })
    ));
    let empty = rgba(0, 2, &[]);
    assert!(matches!(empty, Err(RenderError::TooLarge { width: 0, .. })));
    let no_rows = parallel(4, 0, &|_, _| RgbaImage::new(4, 1, [0; 4]));
    assert!(matches!(
        no_rows,
        Err(RenderError::TooLarge { height: 0, .. })
    ));
    // A stripe of another width or height, and the drawing's own error, come back.
    let narrow = parallel(4, 3, &|_, rows| RgbaImage::new(3, rows, [0; 4]));
    assert!(matches!(
        narrow,
        Err(RenderError::Stripe {
            width: 3,
            expected_width: 4,
            ..
        })
    ));
    let short = parallel(4, 3, &|_, _| RgbaImage::new(4, 1, [0; 4]));
    assert!(matches!(
        short,
        Err(RenderError::Stripe {
            rows: 1,
            rows_left: 3,
            ..
        })
    ));
    let failed = parallel(4, 3, &|_, _| Err(RenderError::Scale { scale: 77 }));
    assert!(matches!(failed, Err(RenderError::Scale { scale: 77 })));
}

#[test]
fn compression_names_parse_in_any_case() {
    for c in PngCompression::ALL {
        assert_eq!(c.name().parse::<PngCompression>(), Ok(c));
        assert_eq!(c.name().to_uppercase().parse::<PngCompression>(), Ok(c));
    }
    assert_eq!(PngCompression::Best.name(), "best");
    let bad = "quick".parse::<PngCompression>().unwrap_err();
    assert_eq!(
        bad.to_string(),
        "\"quick\" is not a PNG compression (fast, default or best)"
    );
}

#[test]
fn the_png_decodes_to_the_same_pixels() {
    let mut img = RgbaImage::new(3, 2, [0, 0, 0, 255]).unwrap();
    img.set(2, 1, [200, 100, 50, 255]);
    let bytes = png_of(PngPixels::Image(&img)).unwrap();
    assert_eq!(RgbaImage::from_png(&bytes).unwrap(), img);
    // Opaque, it may be stored as RGB: the same pixels come back.
    let mut rgb = Vec::new();
    let options = PngOptions::default().with_colour(PngColour::OpaqueRgb);
    write_png(&mut rgb, PngPixels::Image(&img), &options).unwrap();
    assert_eq!(RgbaImage::from_png(&rgb).unwrap(), img);
}
