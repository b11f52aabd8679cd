//! Whole-facet figures of a client folder, scanned in parallel.
//! `cargo run --release -p mul-core --example facet_stats -- DIR [FACET] [--size WxH]`
//! (the size, in tiles, for a map of no known size, such as the pre-alpha's 1024x1024).

use mul_core::{FacetFiles, FacetOptions, MapSize, facet::query};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .ok_or("usage: facet_stats DIR [FACET] [--size WxH]")?;
    let number: u8 = match args.get(1).filter(|a| !a.starts_with("--")) {
        Some(n) => n.parse()?,
        None => 0,
    };
    let size: Option<MapSize> = match args.iter().position(|a| a == "--size") {
        Some(i) => Some(args.get(i + 1).ok_or("--size needs WxH")?.parse()?),
        None => None,
    };
    let mut options = FacetOptions::default();
    options.size = size;
    // SAFETY: nothing modifies or truncates the client's files while this runs.
    #[allow(unsafe_code)]
    let files = unsafe { FacetFiles::map_with(dir, number, &options) }?;
    let facet = files.view()?;
    let land = query::land_stats_par(&facet.map);
    let statics = query::statics_stats_par(&facet.statics, facet.size().blocks());
    let (z, top) = ((land.z_min, land.z_max), land.top(3));
    println!(
        "facet {number}: {}\nland: z {z:?}, top ids {top:?}",
        facet.size()
    );
    let (count, bad, top) = (statics.count, statics.bad_blocks, statics.top(3));
    println!("statics: {count} ({bad} bad blocks), top ids {top:?}");
    Ok(())
}
