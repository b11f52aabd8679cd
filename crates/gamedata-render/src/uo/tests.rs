//! The radar renderer's unit tests.

// Test values are small by construction: casts cut nothing.
#![allow(clippy::cast_possible_truncation)]

use mul_core::synth::World;

use super::client::Relief;
use super::*;
use mul_core::rgb555_to_rgb8;

#[test]
fn the_png_in_stripes_holds_the_whole_pictures_pixels() {
    let world = World::generate(MapSize::from_blocks(6, 5).unwrap(), 9);
    let mut facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
    facet.tiledata = Some(mul_core::TileData::parse(&world.tiledata).unwrap());
    facet.hues = Some(mul_core::Hues::parse(&world.hues).unwrap());
    let colours = RadarColours::parse(&world.radarcol).unwrap();
    let plans = [(1, Region::whole(48, 40)), (3, Region::new(5, 4, 40, 35))];
    for ((scale, region), style) in plans
        .into_iter()
        .flat_map(|p| RadarStyle::ALL.map(|s| (p, s)))
    {
        let options = RadarOptions {
            scale,
            region: Some(region),
            hillshade: scale == 3 && style == RadarStyle::Flat,
            style,
        };
        let whole = radar(&facet, &colours, &options).unwrap();
        // Each compression level decodes to the same pixels.
        let levels = [
            PngCompression::Fast,
            PngCompression::Default,
            PngCompression::Best,
            PngCompression::Fast,
        ];
        for (rows, compression) in [1, 2, 5, 100].into_iter().zip(levels) {
            let mut bytes = Vec::new();
            let done = std::sync::atomic::AtomicU32::new(0);
            let size = write_radar_png_rows(
                &facet,
                &colours,
                &options,
                &mut bytes,
                &|n| {
                    done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                },
                Some(rows),
                compression,
            )
            .unwrap();
            assert_eq!(size, (whole.width(), whole.height()));
            assert_eq!(done.into_inner(), whole.height());
            assert_eq!(
                RgbaImage::from_png(&bytes).unwrap().pixels(),
                whole.pixels(),
                "scale {scale}, {rows} rows, {style}"
            );
        }
    }
}

#[test]
fn the_flat_table_is_radarcol_widened_entry_by_entry() {
    // A radarcol.mul of 0x4000 land and 0x5000 item entries, each its own index.
    let entries: Vec<u16> = (0..0x9000u32)
        .map(|i| (i * 7 + 3) as u16 & 0x7FFF)
        .collect();
    let bytes: Vec<u8> = entries.iter().flat_map(|c| c.to_le_bytes()).collect();
    let colours = RadarColours::parse(&bytes).unwrap();
    let table = FlatColours::new(&colours, RadarStyle::Flat);
    for id in [0u16, 1, 0x3FFF, 0x4000, 0x8FFF, 0x9000, 0xFFFF] {
        let want = colours.land(id).map_or([0, 0, 0], rgb555_to_rgb8);
        assert_eq!(table.land(id)[..3], want, "land {id:#x}");
        let want = colours.item(id).map_or([0, 0, 0], rgb555_to_rgb8);
        assert_eq!(table.item(id)[..3], want, "item {id:#x}");
        assert_eq!((table.land(id)[3], table.item(id)[3]), (255, 255));
    }
    assert_eq!(table.0.len(), 0x9000);
    assert!(FlatColours::new(&colours, RadarStyle::Client).0.is_empty());
}

#[test]
fn the_client_shading_is_the_client_colour_with_relief() {
    let world = World::generate(MapSize::from_blocks(2, 2).unwrap(), 3);
    let mut facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
    facet.tiledata = Some(mul_core::TileData::parse(&world.tiledata).unwrap());
    facet.hues = Some(mul_core::Hues::parse(&world.hues).unwrap());
    let colours = RadarColours::parse(&world.radarcol).unwrap();
    let tables = ClientTables::for_style(&facet, &colours, RadarStyle::Client).unwrap();
    for colour in (0..=u16::MAX)
        .step_by(97)
        .chain([0, 0x7FFF, 0x8000, 0xFFFF])
    {
        let rgb = client::client_rgb(colour);
        assert_eq!(tables.shaded(colour, Relief::Flat), rgb, "{colour:#x}");
        for (z0, z1, relief) in [(3, 9, Relief::Lower), (9, 3, Relief::Higher)] {
            assert_eq!(Relief::of(z0, z1), relief);
            let want = client::relief(rgb, z0 as i8, z1 as i8);
            assert_eq!(
                tables.shaded(colour, relief),
                want,
                "{colour:#x} {relief:?}"
            );
        }
    }
    assert_eq!(Relief::of(-4, -4), Relief::Flat);
}

#[test]
fn the_options_are_checked_in_one_place_against_the_facet() {
    let world = World::generate(MapSize::from_blocks(4, 4).unwrap(), 2);
    let mut facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
    let colours = RadarColours::parse(&world.radarcol).unwrap();
    let with = |style, hillshade| RadarOptions {
        style,
        hillshade,
        ..RadarOptions::default()
    };
    // Hillshading is the flat style's alone; the others are refused before any file.
    assert!(with(RadarStyle::Flat, true).check(&facet).is_ok());
    for style in [RadarStyle::Client, RadarStyle::Altitude] {
        let err = with(style, true).check(&facet).unwrap_err();
        assert!(matches!(err, RenderError::Hillshade { style: s } if s == style.name()));
        assert!(radar(&facet, &colours, &with(style, true)).is_err());
    }
    // Each file a style needs, named in the order `needs` gives, until the facet has it.
    let missing = |o: &RadarOptions, f: &Facet<'_>| match o.check(f) {
        Err(RenderError::MissingTable { table, .. }) => Some(table.file_name()),
        _ => None,
    };
    assert_eq!(
        missing(&with(RadarStyle::Client, false), &facet),
        Some("tiledata.mul")
    );
    assert_eq!(
        missing(&with(RadarStyle::Altitude, false), &facet),
        Some("tiledata.mul")
    );
    facet.tiledata = Some(mul_core::TileData::parse(&world.tiledata).unwrap());
    assert_eq!(
        missing(&with(RadarStyle::Client, false), &facet),
        Some("hues.mul")
    );
    assert!(with(RadarStyle::Altitude, false).check(&facet).is_ok());
    facet.hues = Some(mul_core::Hues::parse(&world.hues).unwrap());
    for style in RadarStyle::ALL {
        assert!(with(style, false).check(&facet).is_ok());
        let source = RadarSource::new(&facet, &colours, &with(style, false));
        assert!(source.is_ok());
    }
    assert_eq!(RadarStyle::Flat.needs(), []);
    assert_eq!(
        RadarStyle::Client.needs(),
        [RadarTable::TileData, RadarTable::Hues]
    );
    let err = with(RadarStyle::Client, false).check(&Facet {
        hues: None,
        ..facet
    });
    assert_eq!(
        err.unwrap_err().to_string(),
        "the client radar style needs hues.mul, and the facet has none"
    );
}

#[test]
fn a_tile_source_draws_the_region_asked_at_one_tile_a_pixel() {
    use crate::picture::TileSource;
    let world = World::generate(MapSize::from_blocks(6, 5).unwrap(), 4);
    let facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
    let colours = RadarColours::parse(&world.radarcol).unwrap();
    // The source's own options ask for another scale and region: its pictures do not
    // take them.
    let options = RadarOptions {
        scale: 3,
        region: Some(Region::new(0, 0, 8, 8)),
        ..RadarOptions::default()
    };
    let source = RadarSource::new(&facet, &colours, &options).unwrap();
    assert_eq!(source.size(), (48, 40));
    let region = Region::new(9, 7, 20, 13);
    let got = source.draw(region).unwrap();
    let want = radar(
        &facet,
        &colours,
        &RadarOptions {
            region: Some(region),
            ..RadarOptions::default()
        },
    )
    .unwrap();
    assert_eq!((got.width(), got.height()), (20, 13));
    assert_eq!(got.pixels(), want.pixels());
}
