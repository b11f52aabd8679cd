//! The pictures and what the renderers return can move between threads and be shared; a
//! radar map drawn from several threads at once is the same as one drawn alone.

use gamedata_render::mul_core::synth::World;
use gamedata_render::mul_core::{Facet, MapSize, RadarColours};
use gamedata_render::uo::{RadarOptions, RadarStyle, radar};
use gamedata_render::{Region, RenderError, RgbaImage, cosmo, wwd};

const fn send_sync<T: Send + Sync>() {}

const _: () = {
    send_sync::<RgbaImage>();
    send_sync::<Region>();
    send_sync::<RenderError>();
    send_sync::<RadarOptions>();
    send_sync::<wwd::Collision>();
    send_sync::<wwd::PixelCounts>();
    send_sync::<cosmo::MapPicture>();
};

#[test]
fn radar_maps_drawn_from_four_threads_are_the_same() {
    let world = World::generate(MapSize::from_blocks(8, 8).unwrap(), 3);
    let facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
    let colours = RadarColours::parse(&world.radarcol).unwrap();
    let options = RadarOptions {
        scale: 2,
        region: Some(Region::new(3, 5, 50, 40)),
        hillshade: true,
        style: RadarStyle::Flat,
    };
    let alone = radar(&facet, &colours, &options).unwrap();
    assert_eq!((alone.width(), alone.height()), (25, 20));
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..4)
            .map(|_| s.spawn(|| radar(&facet, &colours, &options).unwrap()))
            .collect();
        for run in runs {
            assert!(run.join().unwrap() == alone);
        }
    });
}
