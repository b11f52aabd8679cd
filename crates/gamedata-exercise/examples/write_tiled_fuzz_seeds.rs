//! Writes the `tiled_from_tmx` and `tiled_from_tmj` fuzz seeds (TMX and TMJ maps this
//! project's export writes of its own synthetic levels) under a folder:
//! `cargo run -p gamedata-exercise --example write_tiled_fuzz_seeds -- fuzz/seeds`.

use std::path::PathBuf;

use gamedata_tiled::tmj::write_tmj;
use gamedata_tiled::tmx::write_tmx;
use gamedata_tiled::wwd::{ExportOptions, export};
use wap_core::{ImageSource, Level, Limits, RezArchive, synth};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds".into()),
    );
    let (tmx_dir, tmj_dir) = (root.join("tiled_from_tmx"), root.join("tiled_from_tmj"));
    std::fs::create_dir_all(&tmx_dir)?;
    std::fs::create_dir_all(&tmj_dir)?;
    // Small maps, so that the fuzzer's inputs stay small: the synthetic level's planes,
    // objects and tile property table, from its own archive.
    for (seed, wide, high) in [(3u64, 8u32, 6u32), (11, 12, 4)] {
        let data = synth::level(seed, wide, high);
        let archive = synth::level_archive(&data)?;
        let source = ImageSource::Archive(RezArchive::from_data(archive, &Default::default())?);
        let image = data.image()?;
        let level = Level::parse(&image)?;
        let options = ExportOptions::default().with_images_dir("level_images");
        let exported = export(&level, &source, &options, &Limits::default())?;
        let mut tmx = Vec::new();
        write_tmx(&exported.map, &mut tmx)?;
        let mut tmj = Vec::new();
        write_tmj(&exported.map, &mut tmj)?;
        for (path, text) in [
            (tmx_dir.join(format!("synthetic_{wide}x{high}.tmx")), tmx),
            (tmj_dir.join(format!("synthetic_{wide}x{high}.tmj")), tmj),
        ] {
            std::fs::write(&path, &text)?;
            println!("{} ({} bytes)", path.display(), text.len());
        }
    }
    Ok(())
}
