//! Sprite frames over the synthetic ACTRINFO.MNI and ACTORS.MNI.

use mni_core::{ActorSprites, MaskedTiles};

#[test]
fn frames_their_tiles_and_debug() {
    let (info, tiles) = mni_core::synth::sprites();
    let sprites = ActorSprites::parse(&info, &tiles).unwrap();
    let frame = sprites.frame(0, 0).unwrap();
    assert!(frame.width > 0 && frame.height > 0);
    // The frame's first tile is the first masked tile of ACTORS.MNI (type 0 starts there).
    let first = MaskedTiles::parse(&tiles[..40]).unwrap();
    assert_eq!(frame.tile_pixels(0, 0), Some(first.as_slice()[0].pixels()));
    assert!(frame.tile_pixels(frame.width, 0).is_none());
    assert!(frame.tile_pixels(0, frame.height).is_none());
    for (what, debug, name) in [
        ("frame", format!("{frame:?}"), "SpriteFrame {"),
        ("table", format!("{:?}", sprites.table), "SpriteTable {"),
        ("sprites", format!("{sprites:?}"), "ActorSprites {"),
    ] {
        assert!(
            debug.starts_with(name) && debug.len() < 1024,
            "{what}: {debug}"
        );
    }
}
