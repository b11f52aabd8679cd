//! Writes an archive shaped like CLAW.REZ from libwap32's `claw-image-sets.dict` (every PID
//! folder of the real archive with each image's size and offset): the real paths, sizes
//! and offsets, synthetic pixels (`wap_core::synth::image_archive`), and the 14 retail
//! levels' palettes. What the README's level-picture figures are measured with:
//!
//! ```sh
//! cargo run --release -p gamedata-render --example claw_like_rez -- \
//!     "$GAMEDATA_DIR/wap32/claw-image-sets.dict" target/CLAWLIKE.REZ
//! ```

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(dict), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: claw_like_rez claw-image-sets.dict OUT.REZ".into());
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
    let bytes = wap_core::synth::image_archive(&entries, &palettes)?;
    std::fs::write(&out, &bytes)?;
    println!(
        "wrote {} ({} images, {} bytes)",
        out.display(),
        entries.len(),
        bytes.len()
    );
    Ok(())
}
