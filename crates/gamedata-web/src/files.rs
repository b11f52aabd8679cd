//! The files a page was given, by folder: each a name (a path relative to the folder
//! chosen, `uo/map0.mul`, or a bare name) and its bytes, found by name in any letter case
//! as the command line finds files in a folder.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use gamedata_io::FileData;

/// Whether a file of this path is one the readers may use (a facet's files and tables,
/// art, texture maps, verdata, diffs; levels and archives; Cosmo's group files): a page
/// reads only those, not a client's gigabyte of animations.
pub(crate) fn wanted(path: &str) -> bool {
    let name = path
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(path)
        .to_ascii_lowercase();
    let numbered = |prefix: &str, suffix: &str| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    const TABLES: [&str; 9] = [
        "tiledata.mul",
        "radarcol.mul",
        "hues.mul",
        "artidx.mul",
        "art.mul",
        "artlegacymul.uop",
        "texidx.mul",
        "texmaps.mul",
        "verdata.mul",
    ];
    TABLES.contains(&name.as_str())
        || [
            "map", "staidx", "statics", "mapdifl", "mapdif", "stadifl", "stadifi", "stadif",
        ]
        .iter()
        .any(|p| numbered(p, ".mul"))
        || numbered("map", "legacymul.uop")
        || numbered("map", "xlegacymul.uop")
        || numbered("cosmo", ".stn")
        || numbered("cosmo", ".vol")
        || name.ends_with(".wwd")
        || name.ends_with(".rez")
}

/// One file: its name as given and its bytes, shared by every owner that reads it.
#[derive(Clone)]
pub(crate) struct File {
    /// The path as the page gave it (`uo/map0.mul`), used in messages.
    pub(crate) path: String,
    /// The bytes.
    pub(crate) bytes: Arc<[u8]>,
}

impl File {
    /// The bytes as a reader's owner, without a copy.
    pub(crate) fn data(&self) -> FileData {
        FileData::from_owner(Arc::clone(&self.bytes))
    }

    /// The path, as the readers name files in messages.
    pub(crate) fn path_buf(&self) -> PathBuf {
        PathBuf::from(&self.path)
    }

    /// The name after the last `/`.
    pub(crate) fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }
}

/// The files of one folder.
#[derive(Default)]
pub(crate) struct Folder {
    /// The folder's path (`""` for files given alone).
    pub(crate) path: String,
    /// Its files by name as given.
    pub(crate) files: BTreeMap<String, File>,
}

impl Folder {
    /// The file named `name`: the exact name if the folder has it, else one whose name
    /// differs only in ASCII letter case (as `gamedata_io::find_file_ignoring_case`).
    pub(crate) fn find(&self, name: &str) -> Option<&File> {
        self.files.get(name).or_else(|| {
            self.files
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, f)| f)
        })
    }
}

/// Every file given, by folder.
#[derive(Default)]
pub(crate) struct Files {
    folders: BTreeMap<String, Folder>,
}

impl Files {
    /// Adds `bytes` as `path` (a later file of the same path replaces the first). A leading
    /// `/` or `./` is dropped; `\` counts as `/`.
    pub(crate) fn add(&mut self, path: &str, bytes: Vec<u8>) {
        let path = path.replace('\\', "/");
        let path = path.trim_start_matches("./").trim_start_matches('/');
        let (dir, name) = match path.rsplit_once('/') {
            Some((dir, name)) => (dir, name),
            None => ("", path),
        };
        let folder = self
            .folders
            .entry(dir.to_owned())
            .or_insert_with(|| Folder {
                path: dir.to_owned(),
                files: BTreeMap::new(),
            });
        folder.files.insert(
            name.to_owned(),
            File {
                path: path.to_owned(),
                bytes: bytes.into(),
            },
        );
    }

    /// The folders, by path.
    pub(crate) fn folders(&self) -> impl Iterator<Item = &Folder> {
        self.folders.values()
    }

    /// Every file whose name ends with `extension` (`.wwd`; any letter case).
    pub(crate) fn with_extension<'a>(
        &'a self,
        extension: &'a str,
    ) -> impl Iterator<Item = &'a File> {
        self.folders
            .values()
            .flat_map(|f| f.files.values())
            .filter(move |f| {
                let name = f.name();
                name.len() > extension.len()
                    && name
                        .get(name.len() - extension.len()..)
                        .is_some_and(|end| end.eq_ignore_ascii_case(extension))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_in_any_case_the_exact_one_first() {
        let mut files = Files::default();
        files.add("game/MAP0.MUL", vec![1]);
        files.add("game/map0.mul", vec![2]);
        files.add("game/StaIdx0.mul", vec![3]);
        files.add("single.wwd", vec![4]);
        let folders: Vec<&Folder> = files.folders().collect();
        assert_eq!(folders.len(), 2);
        let game = folders
            .iter()
            .find(|f| f.path == "game")
            .expect("the folder");
        assert_eq!(game.find("map0.mul").map(|f| &*f.bytes), Some(&[2u8][..]));
        assert_eq!(game.find("MAP0.MUL").map(|f| &*f.bytes), Some(&[1u8][..]));
        assert_eq!(
            game.find("staidx0.MUL").map(|f| &*f.bytes),
            Some(&[3u8][..])
        );
        assert!(game.find("statics0.mul").is_none());
        let wwd: Vec<&str> = files
            .with_extension(".WWD")
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(wwd, ["single.wwd"]);
        assert_eq!(
            files.with_extension(".wwd").next().map(File::name),
            Some("single.wwd")
        );
    }

    #[test]
    fn only_the_files_the_readers_use_are_wanted() {
        for yes in [
            "uo/MAP0.MUL",
            "uo/map12LegacyMUL.uop",
            "uo/map1xLegacyMUL.uop",
            "StaIdx3.mul",
            "statics0.mul",
            "a/b/tiledata.mul",
            "art.mul",
            "artLegacyMUL.uop",
            "stadifl0.mul",
            "wwd/RETAIL01.WWD",
            "CLAW.REZ",
            "COSMO1.STN",
            "cosmo/cosmo2.vol",
        ] {
            assert!(wanted(yes), "{yes}");
        }
        for no in [
            "anim.mul",
            "map.mul",
            "mapx.mul",
            "gumpart.mul",
            "file_id.diz",
            "COSMO.STN",
            "wwd",
        ] {
            assert!(!wanted(no), "{no}");
        }
    }
}
