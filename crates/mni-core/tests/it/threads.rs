//! Views are `Send + Sync` (checked at compile time), and one episode is read from several
//! threads at once with the same results.

use mni_core::{
    Entry, Episode, EpisodeFiles, Error, ErrorKind, Group, Map, MaskedTiles, SolidTiles,
    TileAttrTable, TileImages,
};

const fn send_sync<T: Send + Sync>() {}

#[test]
fn every_public_view_is_send_and_sync() {
    const _: () = {
        send_sync::<Group<'static>>();
        send_sync::<Entry<'static>>();
        send_sync::<Episode<'static>>();
        send_sync::<EpisodeFiles>();
        send_sync::<Map<'static>>();
        send_sync::<TileAttrTable<'static>>();
        send_sync::<SolidTiles<'static>>();
        send_sync::<MaskedTiles<'static>>();
        send_sync::<TileImages<'static>>();
        send_sync::<Error>();
        send_sync::<ErrorKind>();
    };
}

#[test]
fn one_episode_read_from_several_threads_at_once() {
    let e = mni_core::synth::episode().unwrap();
    let episode = Episode::parse(&e.stn, &e.vol).unwrap();
    let walk = |episode: &Episode<'_>| {
        episode
            .level_names()
            .map(|entry| {
                let map = episode.level(&entry.name_lossy()).unwrap().unwrap();
                (map.width(), map.actors().len(), map.drawn_cells().count())
            })
            .collect::<Vec<_>>()
    };
    let alone = walk(&episode);
    assert_eq!(alone.len(), 3);
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..4).map(|_| scope.spawn(|| walk(&episode))).collect();
        for run in runs {
            assert_eq!(run.join().unwrap(), alone);
        }
    });
}
