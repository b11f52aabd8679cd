//! Writes the `tiled_from_tmx` and `tiled_from_tmj` fuzz seeds (TMX and TMJ maps this
//! project's export writes of its own synthetic levels, and the import's attacks made small
//! from the first: empty elements in a layer, a plane declaring 8192 x 8192 tiles,
//! `wwd_tiles` past the plane's, zeros in the TMJ properties, an array in a cell) under a
//! folder:
//! `cargo run -p gamedata-exercise --example write_tiled_fuzz_seeds -- fuzz/seeds`.

use std::path::PathBuf;

use gamedata_tiled::tmj::write_tmj;
use gamedata_tiled::tmx::write_tmx;
use gamedata_tiled::wwd::{ExportOptions, export};
use wap_core::{ImageSource, Level, Limits, RezFile, synth};

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
    let mut first = None;
    for (seed, wide, high) in [(3u64, 8u32, 6u32), (11, 12, 4)] {
        let data = synth::level(seed, wide, high);
        let archive = synth::level_archive(&data)?;
        let source = ImageSource::Archive(RezFile::from_data(archive, &Default::default())?);
        let image = data.image()?;
        let level = Level::parse(&image)?;
        let options = ExportOptions::default().with_images_dir("level_images");
        let exported = export(&level, &source, &options, &Limits::default())?;
        let mut tmx = Vec::new();
        write_tmx(&exported.map, &mut tmx)?;
        let mut tmj = Vec::new();
        write_tmj(&exported.map, &mut tmj)?;
        for (path, text) in [
            (tmx_dir.join(format!("synthetic_{wide}x{high}.tmx")), &tmx),
            (tmj_dir.join(format!("synthetic_{wide}x{high}.tmj")), &tmj),
        ] {
            std::fs::write(&path, text)?;
            println!("{} ({} bytes)", path.display(), text.len());
        }
        first.get_or_insert((String::from_utf8(tmx)?, String::from_utf8(tmj)?));
    }
    let (tmx, tmj) = first.ok_or("no map")?;
    for (path, text) in attacks(&tmx, &tmj, &tmx_dir, &tmj_dir)? {
        std::fs::write(&path, &text)?;
        println!("{} ({} bytes)", path.display(), text.len());
    }
    Ok(())
}

/// The import's attacks (`docs/robustness.md`, the Tiled import's rows), small.
fn attacks(
    tmx: &str,
    tmj: &str,
    tmx_dir: &std::path::Path,
    tmj_dir: &std::path::Path,
) -> Result<Vec<(PathBuf, String)>, Box<dyn std::error::Error>> {
    let after = |text: &str, key: &str| text.find(key).map(|at| at + key.len()).ok_or("no key");
    let layer = after(tmx, "<layer id=\"1\"")?;
    let layer = layer + tmx[layer..].find('>').ok_or("no tag end")? + 1;
    let elements = format!(
        "{}<x>{}</x>{}",
        &tmx[..layer],
        "<x/>".repeat(3000),
        &tmx[layer..]
    );
    // The first plane's size, whatever it is, made 8192 x 8192 tiles.
    let set = |text: &str, name: &str| -> Result<String, Box<dyn std::error::Error>> {
        let at = after(text, &format!("name=\"{name}\" type=\"int\" value=\""))?;
        let end = at + text[at..].find('"').ok_or("no value end")?;
        Ok(format!("{}8192{}", &text[..at], &text[end..]))
    };
    let declared = set(&set(tmx, "wwd_tiles_wide")?, "wwd_tiles_high")?;
    let wide = "<property name=\"wwd_tiles_wide\"";
    let values = vec!["0"; 5000].join(",");
    let tiles = tmx.replacen(
        wide,
        &format!("<property name=\"wwd_tiles\" value=\"{values}\"/>\n   {wide}"),
        1,
    );
    let properties = after(tmj, "\"properties\":[")?;
    let zeros = format!(
        "{}{}{}",
        &tmj[..properties],
        "0,".repeat(5000),
        &tmj[properties..]
    );
    let data = after(tmj, "\"data\":[")?;
    let cell = format!("{}[{values}],{}", &tmj[..data], &tmj[data..]);
    Ok(vec![
        (tmx_dir.join("empty_elements_in_a_layer.tmx"), elements),
        (
            tmx_dir.join("a_plane_declaring_8192x8192_tiles.tmx"),
            declared,
        ),
        (tmx_dir.join("wwd_tiles_past_the_plane.tmx"), tiles),
        (tmj_dir.join("zeros_in_the_properties.tmj"), zeros),
        (tmj_dir.join("an_array_in_a_cell.tmj"), cell),
    ])
}
