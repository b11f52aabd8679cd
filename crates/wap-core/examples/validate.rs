//! Opens every .wwd file (any letter case) of a folder and walks every plane, object and
//! tile property record; prints one line a level and exits 1 if one failed.
//! `cargo run -p wap-core --example validate -- DIR`

use wap_core::{Level, LevelFile, Limits};

fn walk(level: &Level<'_>) -> wap_core::Result<usize> {
    let mut objects = 0;
    for plane in level.planes() {
        for object in plane?.objects() {
            object?;
            objects += 1;
        }
    }
    level.tile_properties()?.collect()?;
    Ok(objects)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).ok_or("usage: validate DIR")?;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    paths.retain(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wwd")));
    paths.sort();
    let mut failed = 0;
    for path in &paths {
        let result =
            LevelFile::open(path, &Limits::default()).and_then(|file| walk(&file.level()?));
        match &result {
            Ok(objects) => println!("ok      {} ({objects} objects)", path.display()),
            Err(e) => println!("FAILED  {}: {e}", path.display()),
        }
        failed += usize::from(result.is_err());
    }
    println!("{} levels, {failed} failed", paths.len());
    std::process::exit(i32::from(failed > 0));
}
