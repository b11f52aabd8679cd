//! Options of an episode: `EpisodeOptions` is the shared `FileOptions`, and nothing in a
//! group file is decoded or collected, so its limits reach only the read of a path that is
//! not a regular file (`Limits::max_stream_bytes`). The folder lookup finds regular files
//! only (a FIFO named COSMO1.STN is not found), so no cap changes how a found episode
//! opens: caps of zero open it as the defaults do, and `map_with` maps it.

use mni_core::{EpisodeFiles, EpisodeOptions, Limits};

#[test]
fn an_episode_opens_with_any_limits_and_a_fifo_is_not_found() {
    let synth = mni_core::synth::episode().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("COSMO1.STN"), &synth.stn).unwrap();
    std::fs::write(dir.path().join("cosmo1.vol"), &synth.vol).unwrap();
    let zero = EpisodeOptions::default().with_limits(
        Limits::new()
            .with_max_stream_bytes(0)
            .with_max_decoded_bytes(0)
            .with_max_records(0),
    );
    // SAFETY: the files are this test's own and nothing changes them while mapped.
    #[allow(unsafe_code)]
    let mapped = unsafe { EpisodeFiles::map_with(dir.path(), 1, &zero) }.unwrap();
    for files in [
        EpisodeFiles::open_with(dir.path(), 1, &zero).unwrap(),
        mapped,
    ] {
        assert_eq!(
            (files.stn.len(), files.vol.len()),
            (synth.stn.len(), synth.vol.len())
        );
        let episode = files.view().unwrap();
        assert!(episode.level("A1.MNI").unwrap().is_some());
        assert_eq!(episode.tile_attributes().unwrap().bytes().len(), 7_000);
    }
    // A FIFO in the STN's place is no group file: the lookup does not find it (so a read
    // never waits on a pipe).
    let fifo_dir = tempfile::tempdir().unwrap();
    gamedata_testkit::mkfifo(&fifo_dir.path().join("COSMO1.STN"));
    std::fs::write(fifo_dir.path().join("COSMO1.VOL"), &synth.vol).unwrap();
    let err = EpisodeFiles::open_with(fifo_dir.path(), 1, &EpisodeOptions::default()).unwrap_err();
    assert!(err.to_string().contains("COSMO1.STN"), "{err}");
    assert!(matches!(err, mni_core::Error::File(_)), "{err:?}");
}
