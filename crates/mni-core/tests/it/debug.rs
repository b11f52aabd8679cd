//! `Debug` of every view is bounded: lengths, counts and the first few items, never the
//! group files' bytes or a map's cells.

use mni_core::{EpisodeFiles, EpisodePaths, FileData, synth};

fn assert_bounded(what: &str, text: String, bound: usize) {
    assert!(
        text.len() <= bound,
        "Debug of {what} is {} bytes: {}",
        text.len(),
        &text[..text.len().min(300)]
    );
}

#[test]
fn debug_of_an_episode_and_its_parts_is_bounded() {
    let e = synth::episode().unwrap();
    assert!(
        e.stn.len() + e.vol.len() > 100_000,
        "{}",
        e.stn.len() + e.vol.len()
    );
    assert_bounded("the synthetic episode", format!("{e:?}"), 1024);
    assert_bounded(
        "a synthetic level",
        format!("{:?}", synth::level(2048, 1)),
        1024,
    );
    let paths = EpisodePaths {
        stn: "COSMO1.STN".into(),
        vol: "COSMO1.VOL".into(),
    };
    let files = EpisodeFiles::from_data(paths, FileData::Read(e.stn), FileData::Read(e.vol));
    assert_bounded("episode files", format!("{files:?}"), 1024);
    let episode = files.episode().unwrap();
    assert_bounded("an episode", format!("{episode:?}"), 4096);
    for entry in episode.stn.entries().chain(episode.vol.entries()) {
        assert_bounded("an entry", format!("{entry:?}"), 1024);
    }
    let map = episode.map("A3.MNI").unwrap();
    assert_bounded("a map", format!("{map:?}"), 1024);
    assert_bounded(
        "tile images",
        format!("{:?}", episode.tile_images().unwrap()),
        2048,
    );
    assert_bounded(
        "tile attributes",
        format!("{:?}", episode.tile_attributes().unwrap()),
        2048,
    );
    let sprites = episode.sprites().unwrap();
    assert_bounded("actor sprites", format!("{sprites:?}"), 2048);
    assert_bounded(
        "a frame",
        format!("{:?}", sprites.frame(0, 0).unwrap()),
        1024,
    );
    assert_bounded(
        "a backdrop",
        format!("{:?}", episode.backdrop(3).unwrap()),
        1024,
    );
}
