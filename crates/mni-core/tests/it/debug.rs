//! `Debug` of every view is bounded: lengths, counts and the first few items, never the
//! group files' bytes or a map's cells.

use gamedata_testkit::assert_debug_bounded;
use mni_core::{EpisodeFiles, EpisodeOptions, EpisodePaths, synth};

#[test]
fn debug_of_an_episode_and_its_parts_is_bounded() {
    let e = synth::episode().unwrap();
    assert!(
        e.stn.len() + e.vol.len() > 100_000,
        "{}",
        e.stn.len() + e.vol.len()
    );
    assert_debug_bounded("the synthetic episode", &e, 1024);
    assert_debug_bounded("a synthetic level", &synth::level(2048, 1), 1024);
    let paths = EpisodePaths {
        stn: "COSMO1.STN".into(),
        vol: "COSMO1.VOL".into(),
    };
    let files = EpisodeFiles::from_data(
        paths,
        [e.stn.into(), e.vol.into()],
        &EpisodeOptions::default(),
    )
    .unwrap();
    assert_debug_bounded("episode files", &files, 1024);
    let episode = files.view().unwrap();
    assert_debug_bounded("an episode", &episode, 4096);
    for entry in episode.stn.entries().chain(episode.vol.entries()) {
        assert_debug_bounded("an entry", &entry, 1024);
    }
    let map = episode.level("A3.MNI").unwrap().unwrap();
    assert_debug_bounded("a map", &map, 1024);
    assert_debug_bounded("tile images", &episode.tile_images().unwrap(), 2048);
    assert_debug_bounded("tile attributes", &episode.tile_attributes().unwrap(), 2048);
    let sprites = episode.sprites().unwrap();
    assert_debug_bounded("actor sprites", &sprites, 2048);
    assert_debug_bounded("a frame", &sprites.frame(0, 0).unwrap().unwrap(), 1024);
    assert_debug_bounded("a backdrop", &episode.backdrop(3).unwrap().unwrap(), 1024);
}
