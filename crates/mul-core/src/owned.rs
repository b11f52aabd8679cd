//! Single files owned, as [`FacetFiles`](crate::FacetFiles) owns a facet's: tiledata.mul,
//! radarcol.mul, hues.mul, multi.idx with multi.mul, and any UOP container, each read
//! ([`TileData::open`] ...) or mapped ([`TileData::map`] ...) or wrapped from bytes the
//! caller owns (`from_data`), checked once at opening, then viewed as often as wanted.

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{FileData, find_file_ignoring_case};

use crate::colours::{Hues, RadarColours};
use crate::error::{DataError, Result};
use crate::facet::FacetOptions;
use crate::multi::Multis;
use crate::tiledata::TileData;
use crate::uop::UopFile;

/// Declares the owner of one single-file view: `open`, `open_with`, `map`, `map_with` on the
/// view, `from_data` and `view` on the owner.
macro_rules! owned_file {
    (
        $(#[$meta:meta])*
        $owner:ident owns $view:ident, $name:literal,
        |$data:ident, $options:ident| $parse:expr
    ) => {
        $(#[$meta])*
        pub struct $owner {
            data: FileData,
            options: FacetOptions,
        }

        impl fmt::Debug for $owner {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($owner))
                    .field("data", &self.data)
                    .finish_non_exhaustive()
            }
        }

        impl $owner {
            #[doc = concat!("Wraps ", $name, "'s bytes that the caller owns (a `Vec<u8>`, an ")]
            #[doc = "`Arc<[u8]>`, a `&'static [u8]`, a [`FileData`]) and checks them as the"]
            #[doc = concat!("view's `parse` does; `options.limits` caps what is decoded.")]
            ///
            /// Returns `Err` as that `parse` does.
            pub fn from_data(
                data: impl Into<FileData>,
                options: &FacetOptions,
            ) -> Result<Self, DataError> {
                let data = data.into();
                {
                    let ($data, $options) = (&data[..], options);
                    let _checked = $parse?;
                }
                Ok($owner { data, options: *options })
            }

            #[doc = concat!("The view over the bytes, parsed again (cheap: checked at opening, ")]
            /// so it fails only as opening did).
            ///
            /// Returns `Err` as the view's `parse` does.
            pub fn view(&self) -> Result<$view<'_>, DataError> {
                let ($data, $options) = (&self.data[..], &self.options);
                $parse
            }

            /// The bytes.
            pub fn data(&self) -> &FileData {
                &self.data
            }
        }

        impl $view<'_> {
            #[doc = concat!("Reads ", $name, " at `path` into memory and checks it, with the ")]
            /// default [`FacetOptions`].
            ///
            /// Returns `Err` ([`Error::File`](crate::Error::File)) if the file cannot be
            /// read, or ([`Error::Data`](crate::Error::Data), naming the file) as `parse`.
            pub fn open(path: impl AsRef<Path>) -> Result<$owner> {
                Self::open_with(path, &FacetOptions::default())
            }

            #[doc = concat!("Reads ", $name, " at `path` into memory and checks it within ")]
            /// `options.limits` (the other options are not used).
            ///
            /// Returns `Err` as `open`.
            pub fn open_with(path: impl AsRef<Path>, options: &FacetOptions) -> Result<$owner> {
                let path = path.as_ref();
                let data = FileData::read_with(path, &options.limits)?;
                Ok($owner::from_data(data, options).map_err(DataError::in_file(path))?)
            }

            #[doc = concat!("Memory-maps ", $name, " at `path` and checks it, with the default ")]
            /// [`FacetOptions`].
            ///
            /// Returns `Err` as `open`.
            ///
            /// # Safety
            ///
            /// As [`FileData::map`]: no process may modify or truncate the file while the
            /// mapping lives (truncation makes a later access raise SIGBUS).
            #[allow(unsafe_code)]
            pub unsafe fn map(path: impl AsRef<Path>) -> Result<$owner> {
                // SAFETY: the caller upholds this function's contract, map_with's.
                unsafe { Self::map_with(path, &FacetOptions::default()) }
            }

            #[doc = concat!("Memory-maps ", $name, " at `path` and checks it within ")]
            /// `options.limits`.
            ///
            /// Returns `Err` as `open`.
            ///
            /// # Safety
            ///
            /// As `map`.
            #[allow(unsafe_code)]
            pub unsafe fn map_with(path: impl AsRef<Path>, options: &FacetOptions) -> Result<$owner> {
                let path = path.as_ref();
                // SAFETY: the caller upholds FileData::map's contract, this function's.
                let data = unsafe { FileData::map(path) }?;
                Ok($owner::from_data(data, options).map_err(DataError::in_file(path))?)
            }
        }
    };
}

owned_file! {
    /// tiledata.mul, owned ([`TileData::open`], [`TileData::map`]).
    OwnedTileData owns TileData, "tiledata.mul", |data, _options| TileData::parse(data)
}

owned_file! {
    /// radarcol.mul, owned ([`RadarColours::open`], [`RadarColours::map`]).
    OwnedRadarColours owns RadarColours, "radarcol.mul", |data, _options| RadarColours::parse(data)
}

owned_file! {
    /// hues.mul, owned ([`Hues::open`], [`Hues::map`]).
    OwnedHues owns Hues, "hues.mul", |data, _options| Hues::parse(data)
}

owned_file! {
    /// A UOP container, owned ([`UopFile::open`], [`UopFile::map`]). Its table is read at
    /// opening and again by each [`OwnedUopFile::view`] (linear in the file's length).
    OwnedUopFile owns UopFile, "the UOP container", |data, options| UopFile::parse(data, &options.limits)
}

/// multi.idx and multi.mul, owned ([`Multis::open`], [`Multis::map`]).
pub struct OwnedMultis {
    /// Where they are: multi.idx, multi.mul.
    pub paths: Option<[PathBuf; 2]>,
    index: FileData,
    data: FileData,
}

impl fmt::Debug for OwnedMultis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedMultis")
            .field("paths", &self.paths)
            .field("index", &self.index)
            .field("data", &self.data)
            .finish()
    }
}

impl OwnedMultis {
    /// Wraps the bytes of multi.idx (`index`) and multi.mul (`data`) that the caller owns,
    /// and checks them as [`Multis::parse`] does (the format detected).
    ///
    /// Returns `Err` as [`Multis::parse`].
    pub fn from_data(
        index: impl Into<FileData>,
        data: impl Into<FileData>,
    ) -> Result<Self, DataError> {
        let (index, data) = (index.into(), data.into());
        Multis::parse(&index, &data, None)?;
        Ok(OwnedMultis {
            paths: None,
            index,
            data,
        })
    }

    /// The view, parsed again (cheap: a cast checked at opening).
    ///
    /// Returns `Err` as [`Multis::parse`].
    pub fn view(&self) -> Result<Multis<'_>, DataError> {
        Multis::parse(&self.index, &self.data, None)
    }
}

impl Multis<'_> {
    /// Finds multi.idx and multi.mul in `dir` (any letter case), reads them into memory and
    /// checks them.
    ///
    /// Returns `Err` ([`Error::File`](crate::Error::File)) if either is missing or cannot
    /// be read, or as [`Multis::parse`], naming multi.idx.
    pub fn open(dir: impl AsRef<Path>) -> Result<OwnedMultis> {
        Self::load(dir.as_ref(), |p| FileData::read(p))
    }

    /// Finds multi.idx and multi.mul in `dir` (any letter case), maps and checks them.
    ///
    /// Returns `Err` as [`Multis::open`].
    ///
    /// # Safety
    ///
    /// As [`FileData::map`]: no process may modify or truncate the files while the
    /// mappings live.
    #[allow(unsafe_code)]
    pub unsafe fn map(dir: impl AsRef<Path>) -> Result<OwnedMultis> {
        // SAFETY: the caller upholds FileData::map's contract, this function's.
        Self::load(dir.as_ref(), |p| unsafe { FileData::map(p) })
    }

    fn load(
        dir: &Path,
        load: impl Fn(&Path) -> std::result::Result<FileData, gamedata_io::FileError>,
    ) -> Result<OwnedMultis> {
        let index_path = find_file_ignoring_case(dir, "multi.idx")?;
        let data_path = find_file_ignoring_case(dir, "multi.mul")?;
        let (index, data) = (load(&index_path)?, load(&data_path)?);
        let mut owned =
            OwnedMultis::from_data(index, data).map_err(DataError::in_file(&index_path))?;
        owned.paths = Some([index_path, data_path]);
        Ok(owned)
    }
}
