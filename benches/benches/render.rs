//! Pictures against memory speed: each render written as a PNG (into a sink, the encoder's
//! whole work), side by side in one run with the yardstick of issue "Pictures at memory
//! speed": one C zlib level-1 pass (`compress2`, one core) over the same picture's raw RGBA.
//!
//! - `render/uo_facet0`: a synthetic full-size facet 0 (7168 x 4096 tiles, `mul_core::synth`,
//!   seed 1) as a radar map at scale 1, flat and client style, and its web map pyramid
//!   (599 tiles, each encoded as a PNG);
//! - `render/wwd`: a level at its tile size and a level of twelve full-size planes at 16
//!   pixels a tile. With `GAMEDATA_DIR`, RETAIL01 drawn from an archive of
//!   `claw-image-sets.dict`'s images (as `claw_like_rez` writes it), at 64 pixels a tile
//!   (24,576 x 6,144), and RETAIL01's planes stacked into 12 of 1,445 x 481 tiles
//!   (`wap_core::synth::stacked_planes`) at 16 (23,120 x 7,696); without it, a synthetic
//!   level of `wap_core::synth` and its archive, stacked the same way.
//!
//! Each picture's PNG size and the size of zlib level 1's output are printed at setup.

// A bench may panic on setup failure: it has nothing to measure then.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    missing_docs
)]

use std::hint::black_box;
use std::io::{Sink, Write, sink};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamedata_render::tiles::{Levels, build_pyramid};
use gamedata_render::uo::{RadarOptions, RadarSource, RadarStyle, radar, write_radar_png};
use gamedata_render::wwd::{Scene, SceneOptions};
use gamedata_render::{
    PngCompression, PngOptions, PngPixels, RenderError, RgbaImage, write_png, write_source_png,
};
use mul_core::synth::World;
use mul_core::{Facet, Hues, MapSize, RadarColours, TileData};
use wap_core::wwd::LevelData;
use wap_core::{ImageSource, LevelFile, LevelOptions, Limits, RezFile, synth};

/// The yardstick: C zlib's `compress2` at level 1 over `raw`, on the calling thread;
/// returns the compressed length.
fn zlib_level_1(raw: &[u8]) -> usize {
    let mut out = vec![0u8; raw.len() + raw.len() / 1000 + 64];
    let mut len = out.len() as libz_sys::uLongf;
    // SAFETY: `out` holds `len` bytes and `raw` `raw.len()`; compress2 writes at most `len`
    // bytes into `out` and sets `len` to what it wrote. The bound above is zlib's
    // compressBound for these sizes.
    #[allow(unsafe_code)]
    let status = unsafe {
        libz_sys::compress2(
            out.as_mut_ptr(),
            &mut len,
            raw.as_ptr(),
            raw.len() as libz_sys::uLong,
            1,
        )
    };
    assert_eq!(status, libz_sys::Z_OK);
    len as usize
}

/// Bytes a PNG writer sends out, counted.
struct Counter(usize, Sink);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        self.1.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn report(name: &str, image: &RgbaImage, png: usize) {
    let zlib = zlib_level_1(image.pixels());
    eprintln!(
        "render benches: {name}: {} x {} pixels, PNG (fast) {png} bytes, zlib level 1 of the raw \
         pixels {zlib} bytes ({:.2}x)",
        image.width(),
        image.height(),
        png as f64 / zlib as f64
    );
}

fn uo(c: &mut Criterion) {
    let world = World::generate(MapSize::from_blocks(896, 512).unwrap(), 1);
    let mut facet = Facet::parse(world.facet_bytes(), world.size, None).unwrap();
    facet.tiledata = Some(TileData::parse(&world.tiledata).unwrap());
    facet.hues = Some(Hues::parse(&world.hues).unwrap());
    let colours = RadarColours::parse(&world.radarcol).unwrap();
    let mut g = c.benchmark_group("render/uo_facet0");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(7168 * 4096));
    for style in [RadarStyle::Flat, RadarStyle::Client] {
        let options = RadarOptions {
            style,
            ..RadarOptions::default()
        };
        let write = || {
            let mut out = Counter(0, sink());
            let size = write_radar_png(
                &facet,
                &colours,
                &options,
                PngCompression::Fast,
                &mut out,
                &|_| {},
            );
            size.unwrap();
            out.0
        };
        let picture = radar(&facet, &colours, &options).unwrap();
        report(&format!("facet 0, {style}"), &picture, write());
        g.bench_function(format!("{style}_png"), |b| b.iter(|| black_box(write())));
        g.bench_function(format!("{style}_zlib_level_1_of_the_pixels"), |b| {
            b.iter(|| black_box(zlib_level_1(picture.pixels())))
        });
        if style == RadarStyle::Flat {
            let source = RadarSource::new(&facet, &colours, &options).unwrap();
            let levels = Levels::new(7168, 4096, None).unwrap();
            g.bench_function("flat_tiles_pyramid_png", |b| {
                b.iter(|| {
                    let write = |_: u8, _: u64, _: u64, tile: &RgbaImage| {
                        let fast = PngOptions::default().with_compression(PngCompression::Fast);
                        write_png(sink(), PngPixels::Image(tile), &fast)
                    };
                    build_pyramid::<RenderError>(&source, levels, &write).unwrap()
                })
            });
        }
    }
    g.finish();
}

/// The levels drawn: RETAIL01 and an archive of its images, else a synthetic level and
/// its archive.
fn levels() -> (LevelData, Vec<u8>, &'static str) {
    let real = gamedata_testkit::optional_file("wwd/RETAIL01.WWD");
    let dict = gamedata_testkit::optional_file("wap32/claw-image-sets.dict");
    if let (Some(level), Some(dict)) = (real, dict) {
        let file = LevelFile::open(&level).unwrap();
        let level = LevelData::from_level(&file.view().unwrap()).unwrap();
        let text = std::fs::read_to_string(dict).unwrap();
        let images = gamedata_testkit::claw_images(&text);
        let entries: Vec<synth::SynthImage<'_>> = images
            .iter()
            .map(|(p, s, o)| (p.as_str(), *s, *o))
            .collect();
        let archive = synth::image_archive(&entries, &["LEVEL1/PALETTES/MAIN.PAL"]).unwrap();
        (level, archive, "RETAIL01")
    } else {
        let level = synth::level(1, 384, 96);
        let archive = synth::level_archive(&level).unwrap();
        (level, archive, "synthetic level")
    }
}

fn wwd(c: &mut Criterion) {
    let (level, archive, name) = levels();
    let source = ImageSource::Archive(RezFile::from_data(archive, &Default::default()).unwrap());
    let stacked = synth::stacked_planes(&level, 12, 1445, 481).unwrap();
    let mut g = c.benchmark_group("render/wwd");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for (case, data, tile_px) in [
        ("level_64px", &level, 64),
        ("twelve_planes_16px", &stacked, 16),
    ] {
        let file =
            LevelFile::from_data(data.to_file(true).unwrap(), &LevelOptions::default()).unwrap();
        let view = file.view().unwrap();
        let options = SceneOptions {
            tile_px: Some(tile_px),
            ..SceneOptions::default()
        };
        let scene = Scene::new(&view, &source, &options, &Limits::default()).unwrap();
        let write = || {
            let mut out = Counter(0, sink());
            let fast = PngOptions::default().with_compression(PngCompression::Fast);
            write_source_png(&mut out, &scene, &fast, &|_| {}).unwrap();
            out.0
        };
        {
            let picture = scene.rect(gamedata_render::Region::whole(
                scene.width(),
                scene.height(),
            ));
            report(&format!("{name}, {case}"), &picture.unwrap(), write());
        }
        g.throughput(Throughput::Elements(
            u64::from(scene.width()) * u64::from(scene.height()),
        ));
        g.bench_function(format!("{case}_png"), |b| b.iter(|| black_box(write())));
        let picture = scene
            .rect(gamedata_render::Region::whole(
                scene.width(),
                scene.height(),
            ))
            .unwrap();
        g.bench_function(format!("{case}_zlib_level_1_of_the_pixels"), |b| {
            b.iter(|| black_box(zlib_level_1(picture.pixels())))
        });
    }
    g.finish();
}

criterion_group!(benches, uo, wwd);
criterion_main!(benches);
