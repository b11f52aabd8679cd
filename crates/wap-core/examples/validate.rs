//! Opens every .wwd file (any letter case) of a folder and reads every plane, object and
//! tile property record ([`wap_core::Level::validate`]); prints one line a level and exits
//! 1 if one failed.
//! `cargo run -p wap-core --example validate -- DIR`

use wap_core::LevelFile;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).ok_or("usage: validate DIR")?;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    paths.retain(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wwd")));
    paths.sort();
    let mut failed = 0;
    for path in &paths {
        let result = LevelFile::open(path).and_then(|file| Ok(file.view()?.validate()?));
        match &result {
            Ok(counts) => println!("ok      {} ({} objects)", path.display(), counts.objects),
            Err(e) => println!("FAILED  {}: {e}", path.display()),
        }
        failed += usize::from(result.is_err());
    }
    println!("{} levels, {failed} failed", paths.len());
    std::process::exit(i32::from(failed > 0));
}
