//! Writes a level of many full-size planes, the worst case of compositing: RETAIL01's
//! planes copied into `PLANES` (12 by default) planes of 1,445 x 481 tiles, the size of a
//! large community level's, by `wap_core::synth::stacked_planes` (the background first,
//! the front last, the main plane with RETAIL01's objects in the middle, shifted copies of
//! the action plane between). Every tile names an image of RETAIL01's sets, which the
//! archive of `claw_like_rez` holds. What the compositing figures (`docs/cli.md`,
//! "Level pictures", and `benches/README.md`) are measured with:
//!
//! ```sh
//! cargo run --release -p gamedata-render --example many_planes -- \
//!     "$GAMEDATA_DIR/wwd/RETAIL01.WWD" target/MANY.WWD 12
//! gamedata wwd render target/MANY.WWD --rez target/CLAWLIKE.REZ --tile-px 16 -o many.png
//! ```

use std::path::PathBuf;

use wap_core::wwd::LevelData;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(input), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: many_planes RETAIL01.WWD OUT.WWD [PLANES]".into());
    };
    let count: u32 = match args.next() {
        Some(n) => n.to_string_lossy().parse()?,
        None => 12,
    };
    let file = wap_core::LevelFile::open(&input)?;
    let level = LevelData::from_level(&file.view()?)?;
    let (wide, high) = (1445, 481);
    let made = wap_core::synth::stacked_planes(&level, count, wide, high)
        .ok_or("the level must have three planes, and PLANES be at least 3")?;
    let bytes = made.to_file(true)?;
    std::fs::write(&out, &bytes)?;
    println!(
        "wrote {} ({count} planes of {wide} x {high} tiles, {} bytes)",
        out.display(),
        bytes.len()
    );
    Ok(())
}
