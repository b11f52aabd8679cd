//! A Cosmo map's size, its actors by type, and how many of its solid cells can be stood on.
//! `cargo run -p mni-core --example map_info -- DIR MAP.MNI` (DIR holds COSMO1.STN/.VOL)

use std::collections::BTreeMap;

use mni_core::{ActorKind, EpisodeFiles, MapTile};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, name] = args.as_slice() else {
        return Err("usage: map_info DIR MAP.MNI".into());
    };
    let files = EpisodeFiles::open(dir, 1)?;
    let episode = files.view()?;
    let attributes = episode.tile_attributes()?;
    let map = episode.level(name)?.ok_or_else(|| episode.missing(name))?;
    let (width, height, actors) = (map.width(), map.height(), map.actors().len());
    println!("{name}: {width} x {height} tiles, {actors} actors");
    let (mut special, mut by_type) = (0, BTreeMap::<u16, usize>::new());
    for actor in map.actors() {
        match actor.kind {
            ActorKind::Normal(actor_type) => *by_type.entry(actor_type).or_default() += 1,
            _ => special += 1,
        }
    }
    println!("{special} special actors; normal actors by type: {by_type:?}");
    let (mut solid, mut ground) = (0, 0);
    for y in 0..height {
        for x in 0..width {
            if let Some(MapTile::Solid(_)) = map.tile(x, y) {
                let attrs = map.attributes(x, y, &attributes);
                solid += 1;
                ground += usize::from(attrs.is_some_and(|a| a.block_south()));
            }
        }
    }
    println!("{solid} solid cells, {ground} of them can be stood on");
    Ok(())
}
