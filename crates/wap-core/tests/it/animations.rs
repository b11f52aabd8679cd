//! The animations a level's objects name (`ImageIndex::animations`): every `.ANI` file
//! under the `ANIS`/`ANIZ` folder beside each prefix's `IMAGES`/`IMAGEZ` folder, keyed by
//! the prefix, the folders below and the file's name, on archives and folders written
//! here.

use gamedata_testkit::ani::{Record, bytes};
use gamedata_testkit::rez::{Builder, Entry, pid};
use wap_core::{Ani, ImageNames, ImageSource, RezFile, RezOptions};

/// A folder being written: subfolders and files in the order given (the stored order).
#[derive(Default)]
struct Tree {
    folders: Vec<(String, Tree)>,
    files: Vec<(String, String, Vec<u8>)>,
}

impl Tree {
    fn add(&mut self, path: &str, data: Vec<u8>) {
        let mut parts: Vec<&str> = path.split('/').collect();
        let file = parts.pop().unwrap();
        let mut at = self;
        for part in parts {
            let i = match at.folders.iter().position(|(n, _)| n == part) {
                Some(i) => i,
                None => {
                    at.folders.push((part.to_owned(), Tree::default()));
                    at.folders.len() - 1
                }
            };
            at = &mut at.folders[i].1;
        }
        let (name, ext) = file.rsplit_once('.').unwrap();
        at.files.push((name.to_owned(), ext.to_owned(), data));
    }

    fn write(&self, b: &mut Builder) -> (u32, u32) {
        let subs: Vec<_> = self.folders.iter().map(|(n, t)| (n, t.write(b))).collect();
        let data: Vec<_> = self.files.iter().map(|(_, _, d)| b.data(d)).collect();
        let mut entries = Vec::new();
        for (name, table) in &subs {
            entries.push(Entry::Dir {
                name: name.as_bytes(),
                table: *table,
            });
        }
        for ((name, ext, _), data) in self.files.iter().zip(data) {
            entries.push(Entry::File {
                name: name.as_bytes(),
                ext: ext.as_bytes(),
                data,
            });
        }
        b.table(&entries)
    }

    fn archive(&self) -> ImageSource {
        let mut b = Builder::new();
        let root = self.write(&mut b);
        ImageSource::Archive(RezFile::from_data(b.finish(root), &Default::default()).unwrap())
    }
}

/// An animation showing `image` (its number tells the test which file answered).
fn ani(image: i16) -> Vec<u8> {
    bytes(b"", &[Record::show(image, 100)])
}

fn names(prefixes: &[(&str, &str)]) -> ImageNames {
    ImageNames {
        tiles: "LEVEL1/TILES".into(),
        palette: String::new(),
        prefixes: prefixes
            .iter()
            .map(|(p, f)| ((*p).to_owned(), (*f).to_owned()))
            .collect(),
    }
}

/// The image the animation `key` names shows first, through the source's registry.
fn shown(source: &ImageSource, names: &ImageNames, key: &str) -> Option<u16> {
    let index = source.index(&RezOptions::default()).unwrap();
    let anis = index.animations(names);
    let id = index.find_animation(&anis, key.as_bytes())?;
    let data = index.animation(&anis, id).unwrap()?;
    Ani::parse(&data)
        .unwrap()
        .frames()
        .next()
        .map(|f| f.image())
}

/// Claw's and Gruntz's layouts: `LEVEL` for `LEVEL1/IMAGES` finds `LEVEL1/ANIS`, `GAME` for
/// `GAME/IMAGEZ` finds `GAME/ANIZ`; folders below join the key with `_`; keys in any case.
#[test]
fn keys_are_the_prefix_the_folders_and_the_name() {
    let mut tree = Tree::default();
    tree.add("LEVEL1/IMAGES/MANICAL1/FRAME001.PID", pid(2, 2, 1));
    tree.add("LEVEL1/ANIS/MANICALS/MANICAL.ANI", ani(1));
    tree.add("LEVEL1/ANIS/TORCH.ANI", ani(2));
    tree.add("LEVEL1/ANIS/DEEP/ER/STILL.ANI", ani(3));
    tree.add("LEVEL1/ANIS/NOTES.TXT", b"not an animation".to_vec());
    tree.add("GAME/IMAGEZ/X/FRAME001.PID", pid(2, 2, 1));
    tree.add("GAME/ANIZ/CYCLE100.ANI", ani(4));
    // A prefix whose folder is no IMAGES folder has no animations.
    tree.add("OTHER/PICS/A.PID", pid(2, 2, 1));
    tree.add("OTHER/ANIS/A.ANI", ani(5));
    let source = tree.archive();
    let names = names(&[
        ("LEVEL", "LEVEL1_IMAGES"),
        ("GAME", "GAME_IMAGEZ"),
        ("OTHER", "OTHER_PICS"),
    ]);
    let at = |key| shown(&source, &names, key);
    assert_eq!(at("LEVEL_MANICALS_MANICAL"), Some(1));
    assert_eq!(at("level_manicals_Manical"), Some(1));
    assert_eq!(at("LEVEL_TORCH"), Some(2));
    assert_eq!(at("LEVEL_DEEP_ER_STILL"), Some(3));
    assert_eq!(at("GAME_CYCLE100"), Some(4));
    assert_eq!(at("OTHER_A"), None);
    assert_eq!(at("LEVEL_NOTES"), None);
    assert_eq!(at("LEVEL_MANICALS"), None);
    assert_eq!(at("GAME_IMAGEZ_X_FRAME001"), None);
    let index = source.index(&RezOptions::default()).unwrap();
    let anis = index.animations(&names);
    assert_eq!(anis.len(), 4);
    let id = index
        .find_animation(&anis, b"LEVEL_MANICALS_MANICAL")
        .unwrap();
    assert_eq!(
        index.animation_path(&anis, id).as_deref(),
        Some("LEVEL1/ANIS/MANICALS/MANICAL.ANI")
    );
    // Two prefixes for one folder: both keys, the folder listed once.
    let twice = names_twice();
    assert_eq!(shown(&source, &twice, "LEVEL_TORCH"), Some(2));
    assert_eq!(shown(&source, &twice, "AGAIN_TORCH"), Some(2));
    assert_eq!(index.animations(&twice).len(), 6);
    // No prefixes: nothing.
    assert!(!anis.is_empty());
    assert_eq!(anis.unread(), 0);
    assert!(index.animations(&names_none()).is_empty());
}

/// An animation folder whose table cannot be read to its end is counted unread, and its
/// animations are not registered; the other folders' are.
#[test]
fn an_animation_folder_that_cannot_be_listed_is_counted() {
    let mut b = Builder::new();
    let image = b.data(&pid(2, 2, 1));
    let set = b.table(&[Entry::File {
        name: b"F1",
        ext: b"PID",
        data: image,
    }]);
    let images = b.table(&[Entry::Dir {
        name: b"S",
        table: set,
    }]);
    let good = b.data(&ani(1));
    let fine = b.table(&[Entry::File {
        name: b"GOOD",
        ext: b"ANI",
        data: good,
    }]);
    // A table of one file entry and 12 bytes that begin another but do not hold it.
    let mut raw = Entry::File {
        name: b"LOST",
        ext: b"ANI",
        data: good,
    }
    .bytes();
    raw.extend_from_slice(&[0; 12]);
    let broken = b.data(&raw);
    let anis = b.table(&[
        Entry::Dir {
            name: b"FINE",
            table: fine,
        },
        Entry::Dir {
            name: b"BROKEN",
            table: broken,
        },
    ]);
    let level = b.table(&[
        Entry::Dir {
            name: b"IMAGES",
            table: images,
        },
        Entry::Dir {
            name: b"ANIS",
            table: anis,
        },
    ]);
    let root = b.table(&[Entry::Dir {
        name: b"L",
        table: level,
    }]);
    let source =
        ImageSource::Archive(RezFile::from_data(b.finish(root), &Default::default()).unwrap());
    let names = names(&[("LEVEL", "L_IMAGES")]);
    let index = source.index(&RezOptions::default()).unwrap();
    let registry = index.animations(&names);
    assert_eq!(registry.unread(), 1);
    assert_eq!(registry.len(), 1);
    assert_eq!(shown(&source, &names, "LEVEL_FINE_GOOD"), Some(1));
    assert_eq!(shown(&source, &names, "LEVEL_BROKEN_LOST"), None);
}

fn names_twice() -> ImageNames {
    names(&[("LEVEL", "LEVEL1_IMAGES"), ("AGAIN", "LEVEL1_IMAGES")])
}

fn names_none() -> ImageNames {
    names(&[])
}

/// Of two files one key names, the last the engine's scan meets wins: a folder's
/// subfolders first, then its files. `A/B_C.ANI` (a file of `A`) beats `A/B/C.ANI` (of its
/// subfolder) whatever the stored order; of `A_B/C.ANI` and `A/B_C.ANI`, in sibling
/// folders, the one stored second.
#[test]
fn of_two_files_with_one_key_the_last_scanned_wins() {
    for (first, second, want) in [
        ("A/B/C.ANI", "A/B_C.ANI", 2),
        ("A/B_C.ANI", "A/B/C.ANI", 1),
        ("A_B/C.ANI", "A/B_C.ANI", 2),
        ("A/B_C.ANI", "A_B/C.ANI", 2),
    ] {
        let mut tree = Tree::default();
        tree.add("L/IMAGES/S/F1.PID", pid(2, 2, 1));
        tree.add(&format!("L/ANIS/{first}"), ani(1));
        tree.add(&format!("L/ANIS/{second}"), ani(2));
        let source = tree.archive();
        let names = names(&[("LEVEL", "L_IMAGES")]);
        let got = shown(&source, &names, "LEVEL_A_B_C");
        assert_eq!(got, Some(want), "{first}, then {second}");
    }
}

/// A folder of extracted files keys its animations the same way, in any letter case.
#[test]
fn a_disk_folder_s_animations_are_keyed_alike() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("level1/images/torch")).unwrap();
    std::fs::write(root.join("level1/images/torch/frame001.pid"), pid(2, 2, 1)).unwrap();
    std::fs::create_dir_all(root.join("level1/Anis/Lights")).unwrap();
    std::fs::write(root.join("level1/Anis/Lights/Torch.ani"), ani(7)).unwrap();
    let source = ImageSource::Folder(root.to_path_buf());
    let names = names(&[("LEVEL", "LEVEL1_IMAGES")]);
    assert_eq!(shown(&source, &names, "LEVEL_LIGHTS_TORCH"), Some(7));
}
