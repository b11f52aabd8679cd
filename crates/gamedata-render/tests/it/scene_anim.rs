//! `wwd::Scene` at a time of the objects' animations (`SceneOptions::time`), against the
//! independent expectation of `engine.rs` (its frames from the test kit's plain record
//! walk): a synthetic level whose objects name animations that loop, step through their
//! set, stop, show a frame the set lacks, sit in a subfolder, or are not stored.

use gamedata_render::Region;
use gamedata_render::wwd::{Scene, SceneOptions, View};
use gamedata_testkit::ani::Record;
use wap_core::{Level, Limits};

use crate::engine::{Camera, assert_same_at};
use crate::scene_rules::{rule_archive_with, rule_level};

/// A record of any step and rule.
fn record(step: u16, next: u16, param: i16, duration: i16) -> Record {
    Record {
        flags: 0,
        step,
        next,
        param,
        duration,
    }
}

/// Whether the engine creates and draws `object`: inside its plane (the rule level's
/// planes are larger than any position it sets), with a logic and an image set, not hidden.
fn shown(object: &wap_core::ObjectData) -> bool {
    let f = &object.fixed;
    !object.logic.is_empty()
        && !object.image_set.is_empty()
        && f.draw_flags.get() & 1 == 0
        && f.x.get() >= 0
        && f.y.get() >= 0
}

/// The animations stored, by path.
fn animations() -> Vec<(String, Vec<Record>)> {
    vec![
        // Frames 1, 3, 2 and 9 (which no set holds) in a loop of 205 ms.
        (
            "LEVEL1/ANIS/LOOP.ANI".into(),
            vec![
                Record::show(1, 100),
                Record::show(3, 50),
                Record::show(2, 25),
                Record::show(9, 30),
            ],
        ),
        // One frame on every 40 ms until the highest, then back from it in ticks, then
        // the lowest, and stop.
        (
            "LEVEL1/ANIS/SUB/STEPS.ANI".into(),
            vec![
                record(1, 3, 0, 40),
                Record {
                    flags: 1,
                    ..record(2, 2, 0, 3)
                },
                record(4, 9, 0, 10),
            ],
        ),
        // Frame 2 for a tick (no duration), then one on, and stop.
        (
            "GAME/ANIS/ONCE.ANI".into(),
            vec![record(3, 0, 2, 0), record(6, 9, 1, 10)],
        ),
    ]
}

/// The rule level with its objects naming the animations (and one not stored, and none).
fn animated_level(seed: u64) -> wap_core::LevelData {
    let mut data = rule_level(seed, true);
    // Five keys over six level frames: every key meets every frame.
    let keys: [&[u8]; 5] = [
        b"LEVEL_LOOP",
        b"level_sub_steps",
        b"GAME_ONCE",
        b"LEVEL_NOT_STORED",
        b"",
    ];
    for (k, object) in data.planes[1].objects.iter_mut().enumerate() {
        object.animation = keys[k % keys.len()].to_vec();
    }
    data
}

#[test]
fn objects_are_drawn_at_the_frame_their_animation_shows() {
    let data = animated_level(7);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive_with(&level, animations());
    let what = "synthetic level 7 animated";
    for time in [
        0,
        1,
        39,
        40,
        99,
        100,
        150,
        175,
        204,
        205,
        260,
        1_000,
        123_456_789,
    ] {
        let camera = Camera::Whole { tile_px: 16 };
        let whole = [Region::new(0, 0, 40 * 16, 20 * 16)];
        assert_same_at(&level, &archive, camera, Some(time), &whole, what);
    }
    let (x, y) = level.header().start();
    for time in [0, 130, 5_000] {
        let camera = Camera::View(View::at(x - 320, y - 240));
        let screen = [Region::new(0, 0, 640, 480)];
        assert_same_at(&level, &archive, camera, Some(time), &screen, what);
    }
}

/// The report counts the objects drawn at their animation's frame; an animation not
/// stored leaves the level frame; the picture changes with the time; without a time
/// nothing is animated.
#[test]
fn the_report_counts_the_animated_objects() {
    let data = animated_level(7);
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let archive = rule_archive_with(&level, animations());
    let draw = |time| {
        let options = SceneOptions {
            tile_px: Some(16),
            time,
            ..SceneOptions::default()
        };
        let scene = Scene::new(&level, &archive.source, &options, &Limits::default()).unwrap();
        let picture = scene
            .rect(Region::new(0, 0, scene.width(), scene.height()))
            .unwrap();
        (scene.report().clone(), picture)
    };
    // Objects created and not hidden, with an image set, naming a stored animation: the
    // level's objects counted here from their fields.
    let playing = data.planes[1]
        .objects
        .iter()
        .filter(|o| {
            shown(o)
                && [&b"LEVEL_LOOP"[..], b"level_sub_steps", b"GAME_ONCE"]
                    .contains(&o.animation.as_slice())
        })
        .count() as u64;
    assert!(playing > 5, "{playing}");
    let (still, at_rest) = draw(None);
    assert_eq!((still.animated, still.unplayed), (0, 0));
    let (early, at_0) = draw(Some(0));
    let (late, at_150) = draw(Some(150));
    assert_eq!((early.animated, early.unplayed), (playing, 0));
    assert_eq!((late.animated, late.unplayed), (playing, 0));
    assert_ne!(at_0.pixels(), at_150.pixels());
    assert_ne!(at_rest.pixels(), at_0.pixels());
}

/// An animation of 600,000 records (12 MB) that objects of many image sets and start
/// frames play at a late time: each play costs its records and a cycle of them, so the
/// scene's budget of `ANIMATION_STEPS` (2^24) runs out after a few (objects of one set
/// and start frame share a play); the rest keep their level
/// frame and are counted unplayed, each object counted once either way.
#[test]
fn a_scene_plays_animations_within_its_budget() {
    let mut data = rule_level(7, false);
    for object in &mut data.planes[1].objects {
        object.animation = b"LEVEL_LONG".to_vec();
    }
    let image = data.image().unwrap();
    let level = Level::parse(&image).unwrap();
    let long: Vec<Record> = (0..600_000)
        .map(|i| Record::show((i % 3 + 1) as i16, 1))
        .collect();
    let archive = rule_archive_with(&level, vec![("LEVEL1/ANIS/LONG.ANI".into(), long)]);
    let options = SceneOptions {
        tile_px: Some(8),
        time: Some(1 << 40),
        ..SceneOptions::default()
    };
    let scene = Scene::new(&level, &archive.source, &options, &Limits::default()).unwrap();
    let report = scene.report();
    let named = data.planes[1].objects.iter().filter(|o| shown(o)).count() as u64;
    assert!(report.unplayed > 0, "{report:?}");
    assert!(report.animated > 0, "{report:?}");
    assert_eq!(report.animated + report.unplayed, named);
}
