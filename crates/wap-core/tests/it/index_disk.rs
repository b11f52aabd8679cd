//! An image source's index over disk folders: indexed in any case with links listed once,
//! files found by path as in the archive, the source's bounds, never leaving its folder,
//! paths through a file or a missing folder, and regular files alone read.

use gamedata_testkit::rez::pid;
use wap_core::{ImageSource, RezOptions};

use crate::index::{cut_archive, source, source_of_archive};

#[test]
fn a_disk_folder_is_indexed_in_any_case_and_its_links_are_listed_once() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("Level1").join("Images").join("Arrow_Sign");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(set.join("frame002.pid"), pid(3, 1, 4)).unwrap();
    std::fs::write(set.join("FRAME001.PID"), pid(1, 1, 5)).unwrap();
    std::fs::write(set.join("notes.txt"), b"x").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("Level1"), set.join("LOOP")).unwrap();
    let images = ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
    let index = images.index(&RezOptions::default()).unwrap();
    // Root, Level1, Images, Arrow_Sign; the link back to Level1 is left out.
    assert_eq!(index.len(), 4);
    #[cfg(unix)]
    assert_eq!(index.problems().total(), 1);
    let folder = index.find_set("LEVEL1_IMAGES_ARROW_SIGN").unwrap();
    assert_eq!(index.path(folder), "Level1/Images/Arrow_Sign");
    assert_eq!(index.folder("level1/images/arrow_sign"), Some(folder));
    let frames = index.frames(folder).unwrap();
    // Name order: FRAME001.PID before frame002.pid.
    assert_eq!(frames.len(), 2);
    assert_eq!(frames.get(2), Some(1));
    assert_eq!(frames.get(-1), Some(0));
    assert_eq!(
        index.image(&frames, 1).unwrap().unwrap().as_ref(),
        pid(3, 1, 4).as_slice()
    );
    assert_eq!(
        index.image_path(&frames, 0).as_deref(),
        Some("Level1/Images/Arrow_Sign/FRAME001.PID")
    );
}

#[test]
fn a_source_s_files_are_found_by_path_in_any_case() {
    let archive = source(cut_archive());
    let bytes = archive.file("a/b/c/f1.pid").unwrap().unwrap();
    assert!(matches!(bytes, std::borrow::Cow::Borrowed(_)));
    assert_eq!(bytes.as_ref(), pid(2, 2, 1).as_slice());
    assert_eq!(
        archive.file("A\\B_C\\F2.PID").unwrap().unwrap().as_ref(),
        pid(2, 2, 2).as_slice()
    );
    assert!(archive.file("A/B/C/F2.PID").unwrap().is_none());
    // A folder is not a file.
    assert!(archive.file("A/B").unwrap().is_none());
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("Level1").join("Tiles");
    std::fs::create_dir_all(&set).unwrap();
    std::fs::write(set.join("012.pid"), pid(1, 2, 3)).unwrap();
    std::fs::write(dir.path().join("outside.pid"), b"no").unwrap();
    let folder = ImageSource::at(set.parent().unwrap(), |p| wap_core::RezFile::open(p)).unwrap();
    assert_eq!(
        folder.file("TILES/012.PID").unwrap().unwrap().as_ref(),
        pid(1, 2, 3).as_slice()
    );
    for path in [
        "TILES/013.PID",
        "TILES",
        "../outside.pid",
        "TILES/../../outside.pid",
    ] {
        assert!(folder.file(path).unwrap().is_none(), "{path}");
    }
}

#[test]
fn a_disk_source_s_bounds_are_its_problems() {
    // A root that cannot be listed is an error.
    let dir = tempfile::tempdir().unwrap();
    let gone = ImageSource::Folder(dir.path().join("missing"));
    assert!(gone.index(&RezOptions::default()).is_err());
    // 40 folders nested: the 33rd and deeper are left out (one problem, where it stops).
    let mut deep = dir.path().to_path_buf();
    for i in 0..40 {
        deep = deep.join(format!("N{i}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    let tree = ImageSource::Folder(dir.path().to_path_buf());
    let index = tree.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 33);
    assert_eq!(index.problems().total(), 1);
    // A path cap of 10 bytes keeps N0/N1/N2 (8 bytes) and leaves N0/N1/N2/N3 out.
    let short = RezOptions::default().with_max_path_bytes(10);
    let index = tree.index(&short).unwrap();
    assert_eq!(index.len(), 4);
    assert!(index.folder("N0/N1/N2").is_some());
    assert_eq!(index.problems().total(), 1);
    // A path of exactly the cap (N0/N1/N2/N3, 11 bytes) is kept.
    let exact = RezOptions::default().with_max_path_bytes(11);
    let index = tree.index(&exact).unwrap();
    assert_eq!(index.len(), 5);
    assert!(index.folder("N0/N1/N2/N3").is_some());
    // Folders whose names differ only in case: the first in name order is kept.
    let twins = tempfile::tempdir().unwrap();
    std::fs::create_dir(twins.path().join("SET")).unwrap();
    std::fs::create_dir(twins.path().join("set")).unwrap();
    let twins = ImageSource::Folder(twins.path().to_path_buf());
    let index = twins.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 2);
    assert_eq!(index.path(index.folder("set").unwrap()), "SET");
    assert_eq!(index.problems().total(), 1);
}

/// A link to a folder outside the source is not followed (a link to `/` would index the
/// whole file system); hard links to one image are one file.
#[cfg(unix)]
#[test]
fn a_disk_source_stays_inside_its_folder() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(outside.path().join("OTHER")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("SET");
    std::fs::create_dir(&set).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("AWAY")).unwrap();
    std::os::unix::fs::symlink("/", dir.path().join("ROOT")).unwrap();
    std::fs::write(set.join("001.PID"), pid(2, 2, 1)).unwrap();
    std::fs::hard_link(set.join("001.PID"), set.join("002.PID")).unwrap();
    std::fs::write(set.join("003.PID"), pid(2, 2, 1)).unwrap();
    let images = ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
    let index = images.index(&RezOptions::default()).unwrap();
    assert_eq!(index.len(), 2);
    assert_eq!(index.problems().total(), 2);
    assert!(
        index
            .problems()
            .kept()
            .iter()
            .all(|p| p.to_string().contains("outside the source"))
    );
    let frames = index.frames(index.folder("SET").unwrap()).unwrap();
    let id = |i| index.image_identity(&frames, i).unwrap();
    assert_eq!(id(0), id(1));
    assert_ne!(id(0), id(2));
    assert_eq!(
        source(cut_archive())
            .index(&RezOptions::default())
            .unwrap()
            .image_identity(&frames, 0),
        None
    );
}

/// A path through a file, or through a folder that is not there, names nothing (not an
/// error).
#[test]
fn a_path_through_a_file_or_a_missing_folder_names_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("MAIN.PAL"), b"x").unwrap();
    let folder = ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
    for path in ["MAIN.PAL/X", "NOPE/MAIN.PAL", "NOPE/DEEPER/X"] {
        assert!(folder.file(path).unwrap().is_none(), "{path}");
    }
    assert_eq!(folder.file("main.pal").unwrap().unwrap().as_ref(), b"x");
}

/// A pipe or a device at a path inside a folder source is an error, never waited on; a
/// regular file's length is given without reading it.
#[cfg(unix)]
#[test]
fn a_folder_source_reads_only_regular_files() {
    let dir = tempfile::tempdir().unwrap();
    let pal = dir.path().join("LEVEL1").join("PALETTES");
    std::fs::create_dir_all(&pal).unwrap();
    gamedata_testkit::mkfifo(&pal.join("MAIN.PAL"));
    std::fs::write(pal.join("OTHER.PAL"), [7u8; 768]).unwrap();
    std::os::unix::fs::symlink("/dev/zero", pal.join("ZERO.PAL")).unwrap();
    let source = ImageSource::at(dir.path(), |p| wap_core::RezFile::open(p)).unwrap();
    for path in ["LEVEL1/PALETTES/MAIN.PAL", "level1/palettes/zero.pal"] {
        let err = source.file(path).unwrap_err().to_string();
        assert!(
            err.contains("not a regular file") || err.contains("a FIFO") || err.contains("device"),
            "{path}: {err}"
        );
        assert!(source.file_len(path).is_err(), "{path}");
    }
    assert_eq!(
        source.file_len("LEVEL1/PALETTES/OTHER.PAL").unwrap(),
        Some(768)
    );
    assert_eq!(source.file_len("LEVEL1/PALETTES/NONE.PAL").unwrap(), None);
    assert_eq!(
        source
            .file("LEVEL1/PALETTES/OTHER.PAL")
            .unwrap()
            .unwrap()
            .len(),
        768
    );
    // In an archive, an entry's length.
    let archive = source_of_archive();
    assert_eq!(
        archive.file_len("A/B/C/F1.PID").unwrap(),
        Some(pid(2, 2, 1).len() as u64)
    );
    assert_eq!(archive.file_len("A/NONE").unwrap(), None);
}
