//! The land, the statics and the top surface at one tile of facet 0.
//! `cargo run -p mul-core --example tile -- DIR X Y [--size WxH]`

use mul_core::{FacetFiles, FacetOptions, MapSize};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, x, y, rest @ ..] = args.as_slice() else {
        return Err("usage: tile DIR X Y [--size WxH]".into());
    };
    let (x, y): (u32, u32) = (x.parse()?, y.parse()?);
    let size: Option<MapSize> = match rest {
        [flag, text] if flag == "--size" => Some(text.parse()?),
        _ => None,
    };
    let mut options = FacetOptions::default();
    options.size = size;
    let files = FacetFiles::open_with(dir, 0, &options)?;
    let facet = files.view()?;
    let cell = facet.map.cell(x, y).ok_or("the tile is outside the map")?;
    println!("({x}, {y}): land {:#06x} at z {}", cell.id.get(), cell.z);
    for s in facet.statics_at(x, y)? {
        let tile = facet.tiledata.and_then(|t| t.item(s.id.get()));
        let name = tile
            .map(|t| t.name_lossy().into_owned())
            .unwrap_or_default();
        println!("  static {:#06x} {name:?} at z {}", s.id.get(), s.z);
    }
    println!("top surface: z {:?}", facet.top_surface(x, y)?);
    Ok(())
}
