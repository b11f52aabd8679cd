//! Writes an archive shaped like CLAW.REZ from libwap32's `claw-image-sets.dict` (every PID
//! folder of the real archive with each image's size and offset): the real paths, sizes
//! and offsets, synthetic pixels (`wap_core::synth::image_archive_with`), and the 14 retail
//! levels' palettes; given the folder of the retail levels, also an animation for every
//! animation string their objects hold (frames 1, 2 and 3, 125 ms each, under the `ANIS`
//! folder beside the prefix's `IMAGES`). What the level-picture figures (`docs/cli.md`,
//! "Level pictures", and `benches/README.md`, "Pictures at memory speed") are measured with:
//!
//! ```sh
//! cargo run --release -p gamedata-render --example claw_like_rez -- \
//!     "$GAMEDATA_DIR/wap32/claw-image-sets.dict" target/CLAWLIKE.REZ "$GAMEDATA_DIR/wwd"
//! ```

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The path of every animation string of the retail levels in `dir` (`LEVEL_A_B` in
/// RETAIL01 is `LEVEL1/ANIS/A/B.ANI`).
fn animation_paths(dir: &Path) -> Result<BTreeSet<String>, Box<dyn std::error::Error>> {
    let mut paths = BTreeSet::new();
    for n in 1..=14 {
        let file = wap_core::LevelFile::open(dir.join(format!("RETAIL{n:02}.WWD")))?;
        let level = file.view()?;
        let names = wap_core::ImageNames::of(&level.header());
        for plane in level.planes() {
            for object in plane?.objects() {
                let key = String::from_utf8_lossy(object?.animation()).into_owned();
                for (prefix, folder) in &names.prefixes {
                    let Some(rest) = key.strip_prefix(&format!("{prefix}_")) else {
                        continue;
                    };
                    // The folder key (`LEVEL1_IMAGES`) with its last name made `ANIS`.
                    if let Some(parent) = folder.strip_suffix("_IMAGES") {
                        let folders = format!("{parent}_ANIS_{rest}").replace('_', "/");
                        paths.insert(format!("{folders}.ANI"));
                    }
                }
            }
        }
    }
    Ok(paths)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(dict), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: claw_like_rez claw-image-sets.dict OUT.REZ [LEVELS_DIR]".into());
    };
    let text = std::fs::read_to_string(&dict)?;
    let images = gamedata_testkit::claw_images(&text);
    let entries: Vec<wap_core::synth::SynthImage<'_>> = images
        .iter()
        .map(|(p, s, o)| (p.as_str(), *s, *o))
        .collect();
    let palettes: Vec<String> = (1..=14)
        .map(|n| format!("LEVEL{n}/PALETTES/MAIN.PAL"))
        .collect();
    let palettes: Vec<&str> = palettes.iter().map(String::as_str).collect();
    let paths = match args.next() {
        Some(dir) => animation_paths(&dir)?,
        None => BTreeSet::new(),
    };
    let ani = wap_core::write_ani(b"", &[(1, 125, None), (2, 125, None), (3, 125, None)]);
    let extra: Vec<(&str, &[u8])> = paths.iter().map(|p| (p.as_str(), &ani[..])).collect();
    let bytes = wap_core::synth::image_archive_with(&entries, &palettes, &extra)?;
    std::fs::write(&out, &bytes)?;
    println!(
        "wrote {} ({} images, {} animations, {} bytes)",
        out.display(),
        entries.len(),
        extra.len(),
        bytes.len()
    );
    Ok(())
}
