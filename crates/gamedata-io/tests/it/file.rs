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

/// A FIFO in a temporary folder, fed `len` bytes by a thread, read with `cap`.
#[cfg(unix)]
fn read_fifo(len: usize, cap: u64, map: bool) -> Result<FileData, FileError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    let writer_path = path.clone();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut pipe = fs::OpenOptions::new()
            .write(true)
            .open(writer_path)
            .unwrap();
        // The reader may stop early (past its cap) and close its end: a broken pipe is fine.
        let _ = pipe.write_all(&vec![7u8; len]);
    });
    let limits = gamedata_io::Limits::default().with_max_stream_bytes(cap);
    let got = if map {
        // SAFETY: a FIFO is never mapped (it is read); nothing else touches it.
        #[allow(unsafe_code)]
        unsafe {
            FileData::map(&path)
        }
    } else {
        FileData::read_with(&path, &limits)
    };
    writer.join().unwrap();
    got
}

#[cfg(unix)]
#[test]
fn streams_are_read_up_to_the_cap_and_refused_past_it() {
    // A pipe with fewer bytes than the cap is read whole; at the cap too.
    let data = read_fifo(5_000, 10_000, false).unwrap();
    assert_eq!((data.len(), data.is_mapped()), (5_000, false));
    assert!(data.iter().all(|&b| b == 7));
    assert_eq!(read_fifo(10_000, 10_000, false).unwrap().len(), 10_000);
    // One byte more is refused, naming the path and the cap.
    let err = read_fifo(10_001, 10_000, false).unwrap_err();
    let FileError::StreamTooLong { path, limit } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(
        (path.file_name().unwrap(), *limit),
        ("pipe".as_ref(), 10_000)
    );
    assert!(
        err.to_string()
            .contains("is not a regular file and gives more than 10000 bytes")
    );
    // A pipe cannot be mapped: it is read, with the default cap.
    let data = read_fifo(3_000, 0, true).unwrap();
    assert_eq!((data.len(), data.is_mapped()), (3_000, false));
}

#[cfg(unix)]
#[test]
fn an_endless_device_is_refused_at_the_cap() {
    let zero = std::path::Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let limits = gamedata_io::Limits::default().with_max_stream_bytes(1 << 20);
    let err = FileData::read_with(zero, &limits).unwrap_err();
    assert!(
        matches!(&err, FileError::StreamTooLong { path, limit: 1_048_576 } if path == zero),
        "{err:?}"
    );
    // The defaults: refused at 256 MiB, by read and by map alike.
    let cap = gamedata_io::Limits::DEFAULT_MAX_STREAM_BYTES;
    let err = FileData::read(zero).unwrap_err();
    assert!(matches!(err, FileError::StreamTooLong { limit, .. } if limit == cap));
    // SAFETY: a device is never mapped (it is read).
    #[allow(unsafe_code)]
    let err = unsafe { FileData::map(zero) }.unwrap_err();
    assert!(matches!(err, FileError::StreamTooLong { limit, .. } if limit == cap));
}

#[test]
fn bytes_the_caller_owns_are_held_without_a_copy() {
    let bytes: Vec<u8> = (0..=255u8).collect();
    let address = bytes.as_ptr();
    let from_vec = FileData::from(bytes);
    assert_eq!(from_vec.as_ptr(), address, "a Vec is taken, not copied");
    assert_eq!(from_vec[255], 255);

    let shared: std::sync::Arc<[u8]> = std::sync::Arc::from(&b"shared bytes"[..]);
    let from_arc = FileData::from(std::sync::Arc::clone(&shared));
    assert_eq!(from_arc.as_ptr(), shared.as_ptr(), "an Arc is shared");
    assert_eq!(std::sync::Arc::strong_count(&shared), 2);
    drop(from_arc);
    assert_eq!(
        std::sync::Arc::strong_count(&shared),
        1,
        "dropping lets go of it"
    );

    static BYTES: [u8; 4] = *b"WWD!";
    let from_static = FileData::from(&BYTES);
    assert_eq!(from_static.as_ptr(), BYTES.as_ptr());
    assert_eq!(
        format!("{from_static:?}"),
        "FileData { kind: \"Static\", len: 4 }"
    );

    struct Buffer(Vec<u8>);
    impl AsRef<[u8]> for Buffer {
        fn as_ref(&self) -> &[u8] {
            &self.0[1..]
        }
    }
    let other = FileData::from_owner(Buffer(vec![9, 8, 7]));
    assert_eq!(&other[..], [8, 7]);
    assert!(!other.is_mapped());
    assert_eq!(format!("{other:?}"), "FileData { kind: \"Other\", len: 2 }");

    fn send_sync<T: Send + Sync>(_: &T) {}
    send_sync(&other);
}

/// A FIFO, socket or device of the name wanted is reported as what it is; a file of the
/// name in another case still wins over it.
#[cfg(unix)]
#[test]
fn a_fifo_of_the_name_is_not_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    gamedata_testkit::mkfifo(&dir.path().join("MAP0.MUL"));
    let err = find_file_ignoring_case(dir.path(), "map0.mul").unwrap_err();
    assert!(
        matches!(&err, FileError::NotRegular { kind: "a FIFO", path } if path.ends_with("MAP0.MUL")),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .ends_with("MAP0.MUL is a FIFO, not a regular file"),
        "{err}"
    );
    assert!(matches!(
        gamedata_io::find_optional(dir.path(), "map0.mul"),
        Err(FileError::NotRegular { .. })
    ));
    fs::write(dir.path().join("map0.mul"), b"x").unwrap();
    let found = find_file_ignoring_case(dir.path(), "MAP0.mul").unwrap();
    assert!(found.ends_with("map0.mul"), "{}", found.display());
    // A device by its exact name.
    let err = find_file_ignoring_case("/dev", "NULL").unwrap_err();
    assert!(
        matches!(
            err,
            FileError::NotRegular {
                kind: "a character device",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn file_data_gives_its_bytes_as_a_vec() {
    assert_eq!(FileData::from(vec![1u8, 2, 3]).into_vec(), [1, 2, 3]);
    assert_eq!(FileData::from(&b"ab"[..]).into_vec(), b"ab");
    let shared: std::sync::Arc<[u8]> = std::sync::Arc::from(&b"xyz"[..]);
    assert_eq!(FileData::from(shared).into_vec(), b"xyz");
}
