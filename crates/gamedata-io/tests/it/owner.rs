//! The one owner, with formats of the test's own: a file of 16-bit words (its length must
//! be even, and its decoded words within `max_records`) and a pair of such files.

use std::fs;
use std::path::{Path, PathBuf};

use gamedata_io::{
    Category, DataError, FileData, FileError, FileOptions, FileSet, Format, FormatError, Kind,
    Limits, Owned, OwnedSet, find_file_ignoring_case,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
enum Odd {
    #[error("{len} bytes, not whole words")]
    Length { len: usize },
    #[error("{words} words, over the cap of {cap}")]
    TooMany { words: u64, cap: u64 },
}

impl Kind for Odd {
    fn category(&self) -> Category {
        match self {
            Odd::Length { .. } => Category::Data,
            Odd::TooMany { .. } => Category::Limit,
        }
    }
}

#[derive(Debug)]
struct Words {
    data: FileData,
    first: u16,
}

fn check(data: &[u8], limits: &Limits) -> Result<(), DataError<Odd>> {
    if !data.len().is_multiple_of(2) {
        return Err(DataError::new(Odd::Length { len: data.len() }));
    }
    let words = (data.len() / 2) as u64;
    if words > limits.max_records {
        return Err(DataError::new(Odd::TooMany {
            words,
            cap: limits.max_records,
        }));
    }
    Ok(())
}

impl Format for Words {
    type Options = FileOptions;
    type Kind = Odd;
    type View<'data> = &'data [u8];

    fn from_file(data: FileData, options: &FileOptions) -> Result<Self, DataError<Odd>> {
        check(&data, &options.limits)?;
        let first = match data.get(..2) {
            Some(&[a, b]) => u16::from_le_bytes([a, b]),
            _ => 0,
        };
        Ok(Words { data, first })
    }

    fn view(&self) -> Result<&[u8], DataError<Odd>> {
        Ok(&self.data)
    }
}

#[derive(Debug)]
struct Pair {
    names: [String; 2],
    files: [FileData; 2],
}

impl FileSet for Pair {
    type Options = FileOptions;
    type Kind = Odd;
    type Id = u8;
    type Paths = [PathBuf; 2];
    type Files = [FileData; 2];
    type View<'data> = (&'data [u8], &'data [u8]);

    fn find(dir: &Path, id: u8, _: &FileOptions) -> Result<[PathBuf; 2], FormatError<Odd>> {
        Ok([
            find_file_ignoring_case(dir, &format!("a{id}.bin"))?,
            find_file_ignoring_case(dir, &format!("b{id}.bin"))?,
        ])
    }

    fn load(
        paths: &[PathBuf; 2],
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        Ok([load(&paths[0])?, load(&paths[1])?])
    }

    fn from_files(
        paths: [PathBuf; 2],
        files: [FileData; 2],
        options: &FileOptions,
    ) -> Result<Self, DataError<Odd>> {
        let names = paths.map(|p| gamedata_io::file_name(&p));
        for (name, file) in names.iter().zip(&files) {
            check(file, &options.limits).map_err(|e| e.with_file_name(name))?;
        }
        Ok(Pair { names, files })
    }

    fn view(&self) -> Result<(&[u8], &[u8]), DataError<Odd>> {
        Ok((&self.files[0], &self.files[1]))
    }
}

#[test]
fn the_shared_options_give_what_was_set() {
    use gamedata_io::{FormatOptions, MapOptions};
    let mut mapping = MapOptions::default();
    mapping.populate = true;
    let limits = Limits::new().with_max_records(7);
    let options = FileOptions::new().with_limits(limits).with_mapping(mapping);
    assert_eq!(FormatOptions::mapping(&options), mapping);
    assert_eq!(*FormatOptions::limits(&options), limits);
    assert_ne!(FormatOptions::mapping(&options), MapOptions::default());
}

fn tight(records: u64) -> FileOptions {
    FileOptions::new().with_limits(Limits::new().with_max_records(records))
}

#[test]
#[allow(unsafe_code)]
fn one_file_opens_every_way_and_names_it_in_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("GOOD.BIN");
    fs::write(&good, [1, 2, 3, 4]).unwrap();
    let odd = dir.path().join("ODD.BIN");
    fs::write(&odd, [1, 2, 3]).unwrap();

    let read = Owned::<Words>::open(&good).unwrap();
    assert_eq!(
        (read.view().unwrap(), read.first),
        (&[1, 2, 3, 4][..], 0x0201)
    );
    assert!(!read.data.is_mapped());
    // SAFETY: the test's own file, unchanged while mapped.
    let mapped = unsafe { Owned::<Words>::map(&good) }.unwrap();
    assert!(mapped.data.is_mapped());
    assert_eq!(mapped.view().unwrap(), [1, 2, 3, 4]);
    let owned = Owned::<Words>::from_data(vec![9, 8], &FileOptions::default()).unwrap();
    // The owner prints as its format's value.
    assert_eq!(format!("{owned:?}"), format!("{:?}", *owned));
    assert!(format!("{owned:?}").starts_with("Words { data: "));
    assert_eq!(owned.into_inner().first, 0x0809);

    // Bad bytes name the file, whichever way it was opened; bytes handed over name none.
    let err = Owned::<Words>::open(&odd).unwrap_err();
    assert_eq!(err.to_string(), "ODD.BIN: 3 bytes, not whole words");
    assert_eq!(err.category(), Category::Data);
    // SAFETY: as above.
    let err = unsafe { Owned::<Words>::map(&odd) }.unwrap_err();
    assert_eq!(err.file(), Some("ODD.BIN"));
    let err = Owned::<Words>::from_data(vec![1], &FileOptions::default()).unwrap_err();
    assert_eq!((err.kind, err.file()), (Odd::Length { len: 1 }, None));

    // The options reach the check, read or mapped.
    let err = Owned::<Words>::open_with(&good, &tight(1)).unwrap_err();
    assert_eq!(err.kind(), Some(Odd::TooMany { words: 2, cap: 1 }));
    assert_eq!(err.category(), Category::Limit);
    // SAFETY: as above.
    let err = unsafe { Owned::<Words>::map_with(&good, &tight(1)) }.unwrap_err();
    assert_eq!(err.kind(), Some(Odd::TooMany { words: 2, cap: 1 }));
    assert!(Owned::<Words>::open_with(&good, &tight(2)).is_ok());

    // A missing file is a file error.
    let err = Owned::<Words>::open(dir.path().join("NONE")).unwrap_err();
    assert!(matches!(err, FormatError::File(FileError::Io { .. })));
    assert_eq!((err.category(), err.kind()), (Category::File, None));
}

/// A path that is not a regular file is read, not mapped, within the options' stream cap,
/// by `map_with` as by `open_with`.
#[cfg(unix)]
#[test]
#[allow(unsafe_code)]
fn an_endless_stream_is_cut_at_the_options_cap_by_every_way() {
    let zero = Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let options = FileOptions::new().with_limits(Limits::new().with_max_stream_bytes(4096));
    let cut = |err: FormatError<Odd>| match err {
        FormatError::File(FileError::StreamTooLong { limit, .. }) => limit,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        cut(Owned::<Words>::open_with(zero, &options).unwrap_err()),
        4096
    );
    // SAFETY: a device is read, never mapped.
    let mapped = unsafe { Owned::<Words>::map_with(zero, &options) };
    assert_eq!(cut(mapped.unwrap_err()), 4096);
}

#[test]
#[allow(unsafe_code)]
fn a_set_is_found_in_any_case_and_opens_every_way() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("A3.BIN"), [1, 0]).unwrap();
    fs::write(dir.path().join("b3.Bin"), [2, 0, 3, 0]).unwrap();
    fs::write(dir.path().join("A4.BIN"), [1, 0]).unwrap();
    fs::write(dir.path().join("B4.BIN"), [7]).unwrap();

    let read = OwnedSet::<Pair>::open(dir.path(), 3).unwrap();
    assert_eq!(read.view().unwrap(), (&[1, 0][..], &[2, 0, 3, 0][..]));
    assert_eq!(read.names, ["A3.BIN", "b3.Bin"]);
    assert!(!read.files[0].is_mapped());
    // SAFETY: the test's own files, unchanged while mapped.
    let mapped = unsafe { OwnedSet::<Pair>::map(dir.path(), 3) }.unwrap();
    assert!(mapped.files[1].is_mapped());
    let pair = mapped.into_inner();
    assert_eq!(&*pair.files[1], [2, 0, 3, 0]);

    let err = OwnedSet::<Pair>::open(dir.path(), 4).unwrap_err();
    assert_eq!(err.to_string(), "B4.BIN: 1 bytes, not whole words");
    let err = OwnedSet::<Pair>::open_with(dir.path(), 3, &tight(1)).unwrap_err();
    assert_eq!(
        (err.kind(), err.file()),
        (Some(Odd::TooMany { words: 2, cap: 1 }), Some("b3.Bin"))
    );
    // SAFETY: as above.
    let err = unsafe { OwnedSet::<Pair>::map_with(dir.path(), 3, &tight(1)) }.unwrap_err();
    assert_eq!(err.file(), Some("b3.Bin"));
    let err = OwnedSet::<Pair>::open(dir.path(), 5).unwrap_err();
    assert!(matches!(err, FormatError::File(FileError::Missing { .. })));

    assert_eq!(format!("{read:?}"), format!("{:?}", *read));
    assert!(format!("{read:?}").starts_with("Pair { names: "));
    let handed = OwnedSet::<Pair>::from_data(
        ["x".into(), "y".into()],
        [vec![5, 0].into(), vec![].into()],
        &FileOptions::default(),
    )
    .unwrap();
    assert_eq!(handed.view().unwrap(), (&[5, 0][..], &[][..]));
}
