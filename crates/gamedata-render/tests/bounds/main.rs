//! The resource contract of the level pictures (`docs/robustness.md`):
//! crafted levels and archives shaped to multiply a scene's memory or work, each call's peak
//! heap counted by dhat's allocator and its work by the scene's own count of pixels drawn,
//! set against what the test computes from the level. Never wall-clock time.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation
)]

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

use gamedata_render::wwd::{Scene, SceneOptions};
use gamedata_render::{Region, RenderError};
use gamedata_testkit::heap::{self, MIB};
use gamedata_testkit::rez::{Builder, Entry, pid};
use wap_core::wwd::{LevelData, ObjectData};
use wap_core::{ImageSource, Level, Limits, RezFile, synth, write_rez};

/// The synthetic level's main plane alone (64 x 16 tiles of 64 pixels: a picture of 4096 x
/// 1024), its tiles invisible, with `objects` using image set `set` (`LEVEL_...`, frame 1)
/// at the given positions.
fn level_with_objects(objects: impl Iterator<Item = (String, i32, i32)>) -> Vec<u8> {
    let mut level: LevelData = synth::level(1, 64, 16);
    let mut main = level.planes.remove(1);
    let template: ObjectData = main.objects[0].clone();
    main.tiles.iter_mut().for_each(|t| *t = 0xFFFF_FFFF);
    main.objects = objects
        .map(|(set, x, y)| {
            let mut o = template.clone();
            o.image_set = set.into_bytes();
            o.fixed.x.set(x);
            o.fixed.y.set(y);
            o.fixed.i.set(1);
            o.fixed.draw_flags.set(0);
            o
        })
        .collect();
    level.planes = vec![main];
    level.image().unwrap()
}

const PICTURE: u64 = 4096 * 1024;

/// `n` objects drawing one 400 x 400 image, each wholly inside the picture.
fn big_image_level(n: usize) -> (Vec<u8>, ImageSource) {
    let objects = (0..n).map(|k| ("LEVEL_BIG".to_owned(), 300 + (k % 3000) as i32, 512));
    let level = level_with_objects(objects);
    let image = pid(400, 400, 7);
    let rez = write_rez(&[("LEVEL1/IMAGES/BIG/FRAME001.PID", &image)]).unwrap();
    (
        level,
        ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap()),
    )
}

#[test]
fn objects_drawing_one_image_decode_it_once_and_draw_their_pixels_in_the_picture() {
    let serial = heap::serial();
    let (level, images) = big_image_level(100);
    let level = Level::parse(&level).unwrap();
    let options = SceneOptions::default();
    let (scene, peak) = heap::peak(&serial, || {
        Scene::new(&level, &images, &options, &Limits::default()).unwrap()
    });
    assert_eq!((scene.width(), scene.height()), (4096, 1024));
    let report = scene.report();
    assert_eq!(report.objects_drawn, 100);
    // The plane covers the picture once; each object its 160,000 pixels.
    assert_eq!(report.pixels_drawn, PICTURE + 100 * 160_000);
    // One image of 160,000 pixels decoded (640 KB kept), not one an object (64 MB).
    assert!(peak < 4 * MIB, "peak heap {peak}");
    // A stripe draws only the objects' rows inside it: rows 0-63 hold none of them
    // (their images span rows 312 to 711).
    let top = scene.rect(Region::new(0, 0, 4096, 64)).unwrap();
    assert!(top.pixels().chunks(4).all(|p| p == [0, 0, 0, 255]));
    let middle = scene.rect(Region::new(0, 500, 4096, 1)).unwrap();
    let drawn = middle
        .pixels()
        .chunks(4)
        .filter(|p| *p != [0, 0, 0, 255])
        .count();
    // Objects at x 300 to 399, 400 wide, centred: columns 100 (300 - 200) to 598 (399 + 199).
    assert_eq!(drawn, 499);
}

#[test]
fn objects_that_would_draw_past_the_cap_are_refused_before_drawing() {
    let serial = heap::serial();
    let (level, images) = big_image_level(2000);
    let level = Level::parse(&level).unwrap();
    let (result, peak) = heap::peak(&serial, || {
        Scene::new(
            &level,
            &images,
            &SceneOptions::default(),
            &Limits::default(),
        )
    });
    match result {
        Err(RenderError::Overdraw { drawn, pixels, max }) => {
            assert_eq!(
                (drawn, pixels, max),
                (PICTURE + 2000 * 160_000, PICTURE, 16)
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(peak < 8 * MIB, "peak heap {peak}");
    // A lower cap refuses the 100 objects of the test above; a higher one admits 2,000.
    let (few, _) = big_image_level(100);
    let few = Level::parse(&few).unwrap();
    let tight = SceneOptions::default().with_max_overdraw(4);
    let refused = Scene::new(&few, &images, &tight, &Limits::default());
    assert!(
        matches!(refused, Err(RenderError::Overdraw { .. })),
        "{refused:?}"
    );
    let loose = SceneOptions::default().with_max_overdraw(100);
    let scene = Scene::new(&level, &images, &loose, &Limits::default()).unwrap();
    assert_eq!(scene.report().objects_drawn, 2000);
}

/// An archive folder listed under 20,000 names (every entry pointing at one table of 500
/// images), and a level whose 20,000 objects use each name: the table is listed once.
#[test]
fn a_folder_under_many_names_is_listed_once_for_a_scene() {
    let serial = heap::serial();
    let mut b = Builder::new();
    let data = b.data(&pid(8, 8, 3));
    let table = b.files((0..500).map(|i| format!("FRAME{i:03}")), b"PID", data);
    let sets = b.dirs((0..20_000).map(|i| format!("N{i:05}")), table);
    let level1 = b.table(&[Entry::Dir {
        name: b"IMAGES",
        table: sets,
    }]);
    let root = b.table(&[Entry::Dir {
        name: b"LEVEL1",
        table: level1,
    }]);
    let images =
        ImageSource::Archive(RezFile::from_data(b.finish(root), &Default::default()).unwrap());
    let objects = (0..20_000).map(|i| (format!("LEVEL_N{i:05}"), 100 + i % 3000, 500));
    let bytes = level_with_objects(objects);
    let level = Level::parse(&bytes).unwrap();
    let (scene, peak) = heap::peak(&serial, || {
        Scene::new(
            &level,
            &images,
            &SceneOptions::default(),
            &Limits::default(),
        )
        .unwrap()
    });
    let report = scene.report();
    // N00000 is the folder; the 19,999 other names point at the bytes it was read from.
    assert_eq!(report.objects_drawn, 1);
    assert_eq!(report.missing_images, 19_999);
    assert_eq!(report.missing.len(), 100);
    // 20,000 sprites and their order, each name looked up once, the index, one folder's
    // listing, 100 names reported: within the level's bytes and 4 MiB.
    assert!(
        peak < bytes.len() as u64 + 4 * MIB,
        "peak heap {peak} for {} bytes",
        bytes.len()
    );
}

/// 100 frames of one folder whose entries all point at the same bytes (one 400 x 400
/// image), each drawn by an object: decoded once, not 100 times (64 MB).
#[test]
fn frames_over_the_same_bytes_are_decoded_once() {
    let serial = heap::serial();
    let mut b = Builder::new();
    let data = b.data(&pid(400, 400, 9));
    let frames = b.files((1..=100).map(|i| format!("FRAME{i:03}")), b"PID", data);
    let set = b.dirs(["SAME".to_owned()], frames);
    let images_dir = b.dirs(["IMAGES".to_owned()], set);
    let root = b.dirs(["LEVEL1".to_owned()], images_dir);
    let images =
        ImageSource::Archive(RezFile::from_data(b.finish(root), &Default::default()).unwrap());
    let bytes = level_with_objects((1..=100).map(|i| ("LEVEL_SAME".to_owned(), 300 + i, 512)));
    let mut level_data = LevelData::from_level(&Level::parse(&bytes).unwrap()).unwrap();
    for (i, o) in level_data.planes[0].objects.iter_mut().enumerate() {
        o.fixed.i.set(i32::try_from(i).unwrap() + 1);
    }
    let bytes = level_data.image().unwrap();
    let level = Level::parse(&bytes).unwrap();
    let (scene, peak) = heap::peak(&serial, || {
        Scene::new(
            &level,
            &images,
            &SceneOptions::default(),
            &Limits::default(),
        )
        .unwrap()
    });
    assert_eq!(scene.report().objects_drawn, 100);
    assert!(peak < 4 * MIB, "peak heap {peak}");
}

/// Images whose data ends before their pixels are filled cost their fill all the same:
/// the budget is charged for each (16 MB kept for 4 million pixels), so two of them spend
/// 32 MB of a 40 MB budget, the other eight are refused, and so is the good 1500 x 1500
/// image after them (13.5 MB); without the charge every one would be filled in vain and
/// the good one drawn.
#[test]
fn images_that_fail_to_decode_are_charged_to_the_budget() {
    // The binary's tests measure the heap one at a time.
    let _serial = heap::serial();
    let mut b = Builder::new();
    let mut tables = Vec::new();
    for i in 0..10 {
        // A header claiming 2000 x 2000 pixels, and no pixel data; each its own bytes.
        let mut head = pid(1, 1, 0);
        head.truncate(32);
        head[8..12].copy_from_slice(&2000i32.to_le_bytes());
        head[12..16].copy_from_slice(&2000i32.to_le_bytes());
        head[16] = i;
        let data = b.data(&head);
        tables.push(b.files(["FRAME001".to_owned()], b"PID", data));
    }
    let good = b.data(&pid(1500, 1500, 3));
    let good = b.files(["FRAME001".to_owned()], b"PID", good);
    let names: Vec<String> = (0..11).map(|i| format!("S{i:02}")).collect();
    let entries: Vec<Entry<'_>> = names
        .iter()
        .zip(tables.iter().chain([&good]))
        .map(|(n, &table)| Entry::Dir {
            name: n.as_bytes(),
            table,
        })
        .collect();
    let sets = b.table(&entries);
    let images_dir = b.dirs(["IMAGES".to_owned()], sets);
    let root = b.dirs(["LEVEL1".to_owned()], images_dir);
    let images =
        ImageSource::Archive(RezFile::from_data(b.finish(root), &Default::default()).unwrap());
    let bytes = level_with_objects((0..11).map(|i| (format!("LEVEL_S{i:02}"), 300 + i, 512)));
    let level = Level::parse(&bytes).unwrap();
    let budget = Limits::default().with_max_decoded_bytes(40_000_000);
    let scene = Scene::new(&level, &images, &SceneOptions::default(), &budget).unwrap();
    assert_eq!(scene.report().objects_drawn, 0);
    assert_eq!(scene.report().missing_images, 11);
    // With room for all, the good one is drawn.
    let roomy = Limits::default().with_max_decoded_bytes(1 << 30);
    let scene = Scene::new(&level, &images, &SceneOptions::default(), &roomy).unwrap();
    assert_eq!(scene.report().objects_drawn, 1);
}

/// A plane of no tiles that wraps both ways (a fuzzed or hand-edited level) draws nothing:
/// it has no size to repeat by (it used to divide by zero).
#[test]
fn a_wrapping_plane_of_no_tiles_draws_nothing() {
    let _serial = heap::serial();
    let mut level: LevelData = synth::level(2, 16, 16);
    let mut empty = level.planes[0].clone();
    empty.header.tiles_wide.set(0);
    empty.header.tiles_high.set(0);
    empty.header.width_px.set(0);
    empty.header.height_px.set(0);
    empty.header.flags.set(0x4 | 0x8);
    empty.tiles = Vec::new();
    empty.objects = Vec::new();
    level.planes.push(empty);
    let bytes = level.image().unwrap();
    let level = Level::parse(&bytes).unwrap();
    let images = ImageSource::Archive(
        RezFile::from_data(write_rez(&[]).unwrap(), &Default::default()).unwrap(),
    );
    let options = SceneOptions {
        tile_px: Some(2),
        ..SceneOptions::default()
    };
    let scene = Scene::new(&level, &images, &options, &Limits::default()).unwrap();
    let picture = scene
        .rect(Region::new(0, 0, scene.width(), scene.height()))
        .unwrap();
    assert_eq!((picture.width(), picture.height()), (32, 32));
}

/// An item of 32,767 x 32,767 pixels in 65 KB (every row the same empty row) is refused
/// by the picture's cap before any pixel is allocated or any row read.
#[test]
fn a_huge_item_in_few_bytes_is_refused_before_drawing() {
    use gamedata_render::uo::art::{ArtHue, item_picture};
    use mul_core::ItemArt;
    let serial = heap::serial();
    let side = 0x7FFFu16;
    let mut item: Vec<u8> = [0u16, 0, side, side]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    item.extend(vec![0u8; 2 * usize::from(side)]); // every row at offset 0
    item.extend([0u8; 4]); // the one row: its end
    let art = ItemArt::parse(&item).unwrap();
    let (result, peak) = heap::peak(&serial, || {
        item_picture(&art, ArtHue::None, &mul_core::Limits::default())
    });
    assert!(result.is_err());
    assert!(peak < MIB, "peak heap {peak}");
}

/// An animation direction of 100,000 frames in 400 KB, all at one frame of 32,767 x 32,767
/// pixels (4 GiB of RGBA each): refused from the frames' headers before any picture is
/// allocated; the frame alone is refused too.
#[test]
fn a_direction_of_huge_frames_in_few_bytes_is_refused_before_drawing() {
    use gamedata_render::uo::anim::{frame_picture, group_pictures};
    use gamedata_render::uo::art::ArtHue;
    use mul_core::FrameGroup;
    let serial = heap::serial();
    let frames = 100_000u32;
    let mut group = vec![0u8; 512];
    group.extend(frames.to_le_bytes());
    let at = 4 + 4 * frames;
    for _ in 0..frames {
        group.extend(at.to_le_bytes());
    }
    for v in [0i16, 0, 0x7FFF, 0x7FFF] {
        group.extend(v.to_le_bytes());
    }
    group.extend(0x7FFF_7FFFu32.to_le_bytes());
    let g = FrameGroup::parse(&group).unwrap();
    let limits = mul_core::Limits::default();
    let ((all, one), peak) = heap::peak(&serial, || {
        let frame = g.frame(0).unwrap().unwrap();
        (
            group_pictures(&g, false, ArtHue::None, &limits),
            frame_picture(&frame, g.palette(), ArtHue::None, &limits),
        )
    });
    assert!(matches!(all, Err(RenderError::Uo(_))));
    assert!(matches!(one, Err(RenderError::Uo(_))));
    assert!(peak < MIB, "peak heap {peak}");
}

/// The world view's builder of hostile files (`tests/it/world_attack/build.rs`).
#[allow(dead_code)]
#[path = "../it/world_attack/build.rs"]
mod world_build;

/// uo::world: 8 distinct items of 4,000 x 4,000 pixels (each 64 MB as RGBA, under the
/// default 256 MiB a picture) whose rows all share one row of bytes (about 8 KB of art an
/// item, 64 KB in all), stacked on one tile and drawn into a 20 x 20 view. Each stripe's
/// picture cache decodes every item it meets into a full `width x height` buffer and holds
/// them all until the stripe ends: 32 MB an item, 256 MB for 64 KB of art (8,000 times the
/// art with 8,000 x 8,000 items; 64 of them would hold 8 GB) before the cache had a budget
/// and huge items were decoded for the window's rows alone. Memory must stay within the
/// input plus a constant and one picture's limit.
#[test]
fn uo_world_decoded_items_stay_within_a_budget() {
    use gamedata_render::uo::world::{WorldSource, WorldView};
    use world_build::{Files, Pic, Placed, art_files, statics_files};
    let serial = heap::serial();
    let n = 8u32;
    let mut files = Files::plain(16, 16);
    let runs = [(0, 1), (999, 1), (999, 1), (999, 1)];
    let pictures: Vec<(u32, Pic)> = (0..n)
        .map(|k| (0x4100 + k, Pic::item(4000, 4000, &runs)))
        .collect();
    (files.artidx, files.art) = art_files(&pictures);
    let placed: Vec<Placed> = (0..n)
        .map(|k| Placed {
            x: 8,
            y: 8,
            z: 0,
            id: 0x100 + k as u16,
            hue: 0,
        })
        .collect();
    (files.staidx, files.statics) = statics_files(16, 16, &placed);
    let (facet, art, tex) = (files.facet(), files.art(), files.texmaps());
    let source = WorldSource::new(&facet, &art, Some(&tex)).unwrap();
    let view = WorldView {
        x: -10,
        y: 16 * 22 + 22 - 100,
        width: 20,
        height: 20,
    };
    let (counts, peak) = heap::peak(&serial, || source.render(view).unwrap().1);
    assert_eq!(counts.statics_drawn, u64::from(n));
    let picture = 4000 * 4000 * 2;
    assert!(
        peak < 2 * picture + 16 * MIB,
        "peak {peak} B for {} B of art",
        files.art.len()
    );
}
