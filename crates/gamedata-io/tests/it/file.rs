use std::fs;

use gamedata_io::{Access, FileData, FileError, MapOptions, find_file_ignoring_case};

#[test]
fn read_and_map_give_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.bin");
    let bytes: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    fs::write(&path, &bytes).unwrap();

    let read = FileData::read(&path).unwrap();
    assert!(!read.is_mapped());
    assert_eq!(&read[..], &bytes[..]);

    let options = [
        MapOptions::new(),
        MapOptions::new().populate(true),
        MapOptions::new().access(Access::Sequential),
        MapOptions::new().populate(true).access(Access::Random),
    ];
    for o in options {
        // SAFETY: the file is private to this test and nothing changes it while mapped.
        #[allow(unsafe_code)]
        let mapped = unsafe { FileData::map_with(&path, o) }.unwrap();
        assert!(mapped.is_mapped(), "{o:?}");
        assert_eq!(mapped.as_bytes(), &bytes[..], "{o:?}");
        assert_eq!(mapped.as_ref().len(), 10_000);
    }
    // SAFETY: as above.
    #[allow(unsafe_code)]
    let mapped = unsafe { FileData::map(&path) }.unwrap();
    let debug = format!("{mapped:?}");
    assert_eq!(debug, "FileData { kind: \"Mapped\", len: 10000 }");
}

#[test]
fn an_empty_file_maps_to_an_empty_buffer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty");
    fs::write(&path, b"").unwrap();
    // SAFETY: private file, unchanged while mapped.
    #[allow(unsafe_code)]
    let data = unsafe { FileData::map(&path) }.unwrap();
    assert!(data.is_empty());
}

#[test]
fn missing_files_are_io_errors_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nope.mul");
    let err = FileData::read(&path).unwrap_err();
    assert!(
        matches!(&err, FileError::Io { path: p, source } if *p == path
            && source.kind() == std::io::ErrorKind::NotFound)
    );
    assert_eq!(err.to_string(), format!("cannot read {}", path.display()));
    // SAFETY: nothing is mapped; the open fails first.
    #[allow(unsafe_code)]
    let err = unsafe { FileData::map(&path) }.unwrap_err();
    assert!(matches!(err, FileError::Io { .. }));
}

#[test]
fn finds_files_in_any_case_and_prefers_the_exact_name() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("MAP0.MUL"), b"a").unwrap();
    fs::write(dir.path().join("tiledata.mul"), b"b").unwrap();
    fs::create_dir(dir.path().join("statics0.mul")).unwrap(); // a folder is not a file

    let found = find_file_ignoring_case(dir.path(), "map0.mul").unwrap();
    assert!(found.ends_with("MAP0.MUL"));
    let found = find_file_ignoring_case(dir.path(), "TILEDATA.MUL").unwrap();
    assert!(found.ends_with("tiledata.mul"));
    let found = find_file_ignoring_case(dir.path(), "MAP0.MUL").unwrap();
    assert_eq!(found, dir.path().join("MAP0.MUL"));

    let err = find_file_ignoring_case(dir.path(), "statics0.mul").unwrap_err();
    assert!(matches!(&err, FileError::Missing { name, .. } if name == "statics0.mul"));
    assert!(err.to_string().starts_with("no statics0.mul in "), "{err}");
}

#[test]
fn an_unreadable_folder_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder");
    let err = find_file_ignoring_case(&missing, "MAP0.MUL").unwrap_err();
    assert!(matches!(&err, FileError::Io { path, .. } if *path == missing));
}

#[test]
fn a_folder_where_a_file_is_expected_and_the_reverse_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let err = FileData::read(dir.path()).unwrap_err();
    assert!(matches!(err, FileError::IsFolder { ref path } if path == dir.path()));
    assert_eq!(
        err.to_string(),
        format!("{} is a folder, expected a file", dir.path().display())
    );
    // SAFETY: nothing is mapped: the path is a folder, refused before mapping.
    #[allow(unsafe_code)]
    let err = unsafe { FileData::map(dir.path()) }.unwrap_err();
    assert!(matches!(err, FileError::IsFolder { .. }), "{err}");

    let file = dir.path().join("map0.mul");
    std::fs::write(&file, b"x").unwrap();
    let err = find_file_ignoring_case(&file, "staidx0.mul").unwrap_err();
    assert!(matches!(err, FileError::NotFolder { ref path } if *path == file));
    assert_eq!(
        err.to_string(),
        format!("{} is not a folder", file.display())
    );
}
