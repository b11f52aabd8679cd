//! A pipeline's first step: a region of a facet as a radar map PNG, in a style (usage: see
//! the README).
use gamedata_render::mul_core::{FacetFiles, RadarColours};
use gamedata_render::{PngOptions, PngPixels, Region, uo};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, facet, region, scale, out, style) = match args.as_slice() {
        [d, f, r, s, o] => (d, f, r, s, o, "flat"),
        [d, f, r, s, o, style] => (d, f, r, s, o, style.as_str()),
        _ => return Err("usage: render_region DIR FACET X,Y,W,H SCALE OUT.png [STYLE]".into()),
    };
    let files = FacetFiles::open(dir, facet.parse()?)?;
    let facet = files.view()?; // the size comes from the map's length; tiledata, hues too
    let colours: RadarColours<'_> = facet.radar.ok_or("the folder has no radarcol.mul")?;
    let n: Vec<u32> = region
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let [x, y, w, h] = n[..] else {
        return Err("the region is X,Y,W,H in tiles".into());
    };
    let options = uo::RadarOptions {
        scale: scale.parse()?,
        region: Some(Region::new(x, y, w, h)),
        style: style.parse()?, // flat, client or altitude
        ..uo::RadarOptions::default()
    };
    let picture = uo::radar(&facet, &colours, &options)?;
    let file = std::io::BufWriter::new(std::fs::File::create(out)?);
    gamedata_render::write_png(file, PngPixels::Image(&picture), &PngOptions::default())?;
    println!("{out}: {} x {} pixels", picture.width(), picture.height());
    Ok(())
}
