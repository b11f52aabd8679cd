//! Sprite frames over the synthetic ACTRINFO.MNI and ACTORS.MNI.

use mni_core::{ActorSprites, MaskedTiles};

#[test]
fn frames_their_tiles_and_debug() {
    let (info, tiles) = mni_core::synth::sprites();
    let sprites = ActorSprites::parse(&info, &tiles).unwrap();
    let frame = sprites.frame(0, 0).unwrap().unwrap();
    assert!(frame.width > 0 && frame.height > 0);
    // A type past the table and a frame past its type's are not there: the error a caller
    // that needs them reports says which.
    let count = sprites.table.sprite_count();
    assert!(sprites.table.frames(count).is_none());
    assert!(sprites.frame(count, 0).unwrap().is_none());
    assert_eq!(
        sprites.missing(count, 0).to_string(),
        format!("sprite type {count} is past the end of ACTRINFO.MNI ({count} sprite types)")
    );
    let frames = u16::try_from(sprites.table.frames(0).unwrap().len()).unwrap();
    assert!(sprites.frame(0, frames).unwrap().is_none());
    assert_eq!(
        sprites.missing(0, frames).to_string(),
        format!("sprite type 0 has {frames} frames, no frame {frames}")
    );
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
