//! The expectation's animation names: which stored `.ANI` file an object's animation
//! string names, worked out from the level's prefixes and the stored paths (the rule of
//! `docs/formats/wap32.md`, "ANI animations": the `ANIS`/`ANIZ` folder beside a prefix's
//! `IMAGES`/`IMAGEZ` folder, the folders below and the name joined by `_`).

use std::collections::HashMap;

use gamedata_testkit::ani::Record;

/// Each stored animation by the upper-case key a level with `prefixes` (prefix, folder
/// `/`-separated) gives it (the tests' archives hold no two files of one key).
pub(crate) fn by_key<'a>(
    anis: &'a [(String, Vec<Record>)],
    prefixes: &[(String, String)],
) -> HashMap<String, &'a Vec<Record>> {
    let mut keys = HashMap::new();
    for (prefix, folder) in prefixes {
        // Some headers join the folder with `_` (`LEVEL3_IMAGES`), as an image-set key.
        let upper = folder.to_ascii_uppercase().replace('_', "/");
        let root = if let Some(parent) = upper.strip_suffix("/IMAGES") {
            format!("{parent}/ANIS/")
        } else if let Some(parent) = upper.strip_suffix("/IMAGEZ") {
            format!("{parent}/ANIZ/")
        } else {
            continue;
        };
        for (path, records) in anis {
            let path = path.to_ascii_uppercase();
            let Some(rest) = path.strip_prefix(&root) else {
                continue;
            };
            let Some(rest) = rest.strip_suffix(".ANI") else {
                continue;
            };
            let key = format!("{}_{}", prefix.to_ascii_uppercase(), rest.replace('/', "_"));
            keys.entry(key).or_insert(records);
        }
    }
    keys
}
