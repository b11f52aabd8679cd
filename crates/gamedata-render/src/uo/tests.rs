//! The radar renderer's unit tests.

use mul_core::synth::World;

use super::*;

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
            hillshade: scale == 3,
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
            let done = std::cell::Cell::new(0);
            let size = write_radar_png_rows(
                &facet,
                &colours,
                &options,
                &mut bytes,
                &|n| done.set(done.get() + n),
                Some(rows),
                compression,
            )
            .unwrap();
            assert_eq!(size, (whole.width(), whole.height()));
            assert_eq!(done.get(), whole.height());
            let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
                .read_info()
                .unwrap();
            let mut buf = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut buf).unwrap();
            assert_eq!(
                &buf[..info.buffer_size()],
                whole.pixels(),
                "scale {scale}, {rows} rows, {style}"
            );
        }
    }
}
