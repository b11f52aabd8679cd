//! Views are `Send + Sync` (checked at compile time), and one level is read from several
//! threads at once with the same results.

use wap_core::LevelOptions;
use wap_core::{
    Error, ErrorKind, Header, ImageSets, Level, LevelFile, Object, Objects, Plane, TileProperties,
    TileProperty, TilePropertyIndex, TilePropertyIter,
};

const fn send_sync<T: Send + Sync>() {}

#[test]
fn every_public_view_is_send_and_sync() {
    const _: () = {
        send_sync::<Level<'static>>();
        send_sync::<LevelFile>();
        send_sync::<Header<'static>>();
        send_sync::<Plane<'static>>();
        send_sync::<ImageSets<'static>>();
        send_sync::<Object<'static>>();
        send_sync::<Objects<'static>>();
        send_sync::<TileProperties<'static>>();
        send_sync::<TileProperty<'static>>();
        send_sync::<TilePropertyIndex<'static>>();
        send_sync::<TilePropertyIter<'static>>();
        send_sync::<Error>();
        send_sync::<ErrorKind>();
    };
}

#[test]
fn one_level_read_from_several_threads_at_once() {
    let file = wap_core::synth::level(5, 40, 30).to_file(true).unwrap();
    let limits = wap_core::Limits::default();
    let level_file = LevelFile::from_data(file, &LevelOptions::new().with_limits(limits)).unwrap();
    let level = level_file.view().unwrap();
    let walk = |level: &Level<'_>| {
        level
            .planes()
            .map(|p| {
                let p = p.unwrap();
                (p.special_tile_counts(), p.objects().count())
            })
            .collect::<Vec<_>>()
    };
    let alone = walk(&level);
    assert!(alone.iter().any(|&(_, objects)| objects > 0));
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..4).map(|_| scope.spawn(|| walk(&level))).collect();
        for run in runs {
            assert_eq!(run.join().unwrap(), alone);
        }
    });
}
