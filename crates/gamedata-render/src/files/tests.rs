//! The small-file writer's tests: inputs refused under any name, what lies at a path
//! replaced or refused, new files linked whole, files holding the bytes left alone.

use super::*;

#[cfg(unix)]
#[test]
fn an_input_under_another_name_is_never_the_output() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = dir.path().join("map0.mul");
    std::fs::write(&input, b"map").expect("the input");
    // A hard link and a symbolic link: other names of the same file.
    let hard = dir.path().join("hard.png");
    std::fs::hard_link(&input, &hard).expect("a hard link");
    let soft = dir.path().join("soft.png");
    std::os::unix::fs::symlink(&input, &soft).expect("a symbolic link");
    for path in [&hard, &soft] {
        let err = write_small(path, &[&input], b"tile").expect_err("refused");
        assert!(err.to_string().contains("inputs"), "{err}");
    }
    assert_eq!(std::fs::read(&input).expect("untouched"), b"map");
    // A new name is written.
    write_small(&dir.path().join("new.png"), &[&input], b"tile").expect("written");
}

/// What may lie at a tile's path already: a dangling symbolic link (replaced by the
/// tile, never followed: its target is not made), a folder (an error, the folder
/// kept), and a symbolic link to a file that is no input (replaced, the file kept).
#[cfg(unix)]
#[test]
fn what_lies_at_a_small_file_s_path_is_replaced_or_refused_never_followed() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dangling = dir.path().join("0.png");
    let target = dir.path().join("elsewhere.png");
    std::os::unix::fs::symlink(&target, &dangling).expect("a symbolic link");
    write_small(&dangling, &[], b"tile").expect("written");
    assert!(!target.exists(), "the link was not followed");
    assert!(
        !std::fs::symlink_metadata(&dangling)
            .expect("there")
            .is_symlink()
    );
    assert_eq!(std::fs::read(&dangling).expect("there"), b"tile");
    let folder = dir.path().join("1.png");
    std::fs::create_dir(&folder).expect("a folder");
    assert!(write_small(&folder, &[], b"tile").is_err());
    assert!(folder.is_dir());
    let other = dir.path().join("other.bin");
    std::fs::write(&other, b"keep").expect("written");
    let link = dir.path().join("2.png");
    std::os::unix::fs::symlink(&other, &link).expect("a symbolic link");
    write_small(&link, &[], b"tile").expect("written");
    assert_eq!(std::fs::read(&other).expect("there"), b"keep");
    assert_eq!(std::fs::read(&link).expect("there"), b"tile");
    // Nothing left behind: the three names, the folder and the other file.
    assert_eq!(std::fs::read_dir(dir.path()).expect("listed").count(), 4);
}

#[cfg(target_os = "linux")]
#[test]
fn a_new_small_file_is_linked_whole_never_over_another() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let tile = dir.path().join("0.png");
    assert!(link_whole(dir.path(), &tile, b"tile").expect("written"));
    assert_eq!(std::fs::read(&tile).expect("there"), b"tile");
    // As any new file: 0666 less the umask.
    let plain = dir.path().join("plain");
    std::fs::write(&plain, b"").expect("written");
    let mode = |p: &Path| std::fs::metadata(p).expect("there").permissions().mode();
    assert_eq!(mode(&tile), mode(&plain));
    // A name taken is left as it is, for the caller's rename.
    assert!(!link_whole(dir.path(), &tile, b"other").expect("not linked"));
    assert_eq!(std::fs::read(&tile).expect("there"), b"tile");
    // Nothing else left in the folder.
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("listed")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["0.png", "plain"]);
    // write_small goes on by the rename there.
    write_small(&tile, &[], b"other").expect("written");
    assert_eq!(std::fs::read(&tile).expect("there"), b"other");
}

#[test]
fn a_small_file_holding_the_bytes_already_is_left_as_it_is() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let tile = dir.path().join("0.png");
    write_small(&tile, &[], b"tile").expect("written");
    let old = std::fs::metadata(&tile)
        .expect("there")
        .modified()
        .expect("a time");
    std::thread::sleep(std::time::Duration::from_millis(20));
    write_small(&tile, &[], b"tile").expect("the same bytes");
    let kept = std::fs::metadata(&tile)
        .expect("there")
        .modified()
        .expect("a time");
    assert_eq!(kept, old, "not written again");
    // Other bytes of the same length, and another length, are written.
    write_small(&tile, &[], b"TILE").expect("written");
    assert_eq!(std::fs::read(&tile).expect("there"), b"TILE");
    write_small(&tile, &[], b"tiles").expect("written");
    assert_eq!(std::fs::read(&tile).expect("there"), b"tiles");
}
