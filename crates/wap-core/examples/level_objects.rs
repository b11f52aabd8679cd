//! The objects of a WWD level's planes, counted by logic name, most common first.
//! `cargo run -p wap-core --example level_objects -- FILE.WWD`

use std::collections::BTreeMap;

use wap_core::LevelFile;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: level_objects FILE.WWD")?;
    let file = LevelFile::open(&path)?;
    let level = file.view()?;
    println!("{} ({})", level.header().name_lossy(), level.game().name());
    let mut by_logic: BTreeMap<String, usize> = BTreeMap::new();
    for plane in level.planes() {
        for object in plane?.objects() {
            let logic = String::from_utf8_lossy(object?.logic()).into_owned();
            *by_logic.entry(logic).or_default() += 1;
        }
    }
    let mut counts: Vec<(String, usize)> = by_logic.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (logic, count) in counts {
        println!("{count:>6}  {logic}");
    }
    Ok(())
}
