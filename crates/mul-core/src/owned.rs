//! Single files owned, as [`FacetFiles`](crate::FacetFiles) owns a facet's: tiledata.mul,
//! radarcol.mul, hues.mul, animdata.mul, any UOP container, and multi.idx with multi.mul. Each is one
//! implementation of [`Format`] (or [`FileSet`]); [`Owned`] and [`OwnedSet`] read, map or
//! wrap them (`TileDataFile::open`, `TileDataFile::map`, `from_data`), check them once at
//! opening, then view them as often as wanted (`view`).

use std::fmt;
use std::path::{Path, PathBuf};

use gamedata_io::{
    FileData, FileError, FileOptions, FileSet, Format, Owned, OwnedSet, find_file_ignoring_case,
};

use crate::animdata::AnimData;
use crate::art::{Art, SharedOverlaps};
use crate::colours::{Hues, RadarColours};
use crate::error::{DataError, Error, ErrorKind};
use crate::gump::Gumps;
use crate::multi::Multis;
use crate::picture_uop::{ArtFormat, UopIndex, UopPictures};
use crate::texmap::Texmaps;
use crate::tiledata::TileData;
use crate::verdata::Verdata;

/// tiledata.mul, owned ([`Owned`] of [`TileDataContents`]; view: [`TileData`]).
pub type TileDataFile = Owned<TileDataContents>;

/// radarcol.mul, owned ([`Owned`] of [`RadarColoursContents`]; view: [`RadarColours`]).
pub type RadarColoursFile = Owned<RadarColoursContents>;

/// hues.mul, owned ([`Owned`] of [`HuesContents`]; view: [`Hues`]).
pub type HuesFile = Owned<HuesContents>;

/// animdata.mul, owned ([`Owned`] of [`AnimDataContents`]; view: [`AnimData`]).
pub type AnimDataFile = Owned<AnimDataContents>;

/// verdata.mul, owned ([`Owned`] of [`VerdataContents`]; view: [`Verdata`]).
pub type VerdataFile = Owned<VerdataContents>;

/// multi.idx and multi.mul, owned ([`OwnedSet`] of [`MultiSet`]; view: [`Multis`]). A folder
/// holds one pair: its id is `()` (`MultiFiles::open(dir, ())`).
pub type MultiFiles = OwnedSet<MultiSet>;

/// A single file's bytes, checked by its view's `parse` when opened and parsed again by
/// each `view`: the struct, its [`Format`] and its `data()`.
macro_rules! single_file {
    ($(#[$doc:meta])* $name:ident => $view:ident) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name {
            data: FileData,
        }

        impl Format for $name {
            type Options = FileOptions;
            type Kind = ErrorKind;
            type View<'data> = $view<'data>;

            fn from_file(data: FileData, _options: &FileOptions) -> Result<Self, DataError> {
                $view::parse(&data)?;
                Ok($name { data })
            }

            fn view(&self) -> Result<$view<'_>, DataError> {
                $view::parse(&self.data)
            }
        }

        impl $name {
            /// The bytes.
            pub fn data(&self) -> &FileData {
                &self.data
            }
        }
    };
}

single_file! {
    /// tiledata.mul's bytes, checked ([`TileData::parse`]).
    TileDataContents => TileData
}

single_file! {
    /// radarcol.mul's bytes, checked ([`RadarColours::parse`]).
    RadarColoursContents => RadarColours
}

single_file! {
    /// hues.mul's bytes, checked ([`Hues::parse`]).
    HuesContents => Hues
}

single_file! {
    /// animdata.mul's bytes ([`AnimData::parse`]: every length is taken).
    AnimDataContents => AnimData
}

single_file! {
    /// verdata.mul's bytes ([`Verdata::parse`]: every length is taken).
    VerdataContents => Verdata
}

/// An index file and its data file found together in a folder (multi.idx and multi.mul,
/// artidx.mul and art.mul): their bytes, the sets' shared part.
struct IndexedPair {
    index: FileData,
    data: FileData,
}

impl IndexedPair {
    /// The pair named `names` (index, data) in `dir`, any letter case.
    fn find(dir: &Path, [index, data]: [&str; 2]) -> Result<Option<[PathBuf; 2]>, Error> {
        let index = find_file_ignoring_case(dir, index)?;
        let data = find_file_ignoring_case(dir, data)?;
        Ok(Some([index, data]))
    }

    /// Loads both files (nothing for bytes handed over).
    fn load(
        paths: &Option<[PathBuf; 2]>,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        match paths {
            Some([index, data]) => Ok([load(index)?, load(data)?]),
            None => Ok([FileData::from(&[][..]), FileData::from(&[][..])]),
        }
    }

    /// The pair, once `check` (the view's parse) took its bytes; its error names the index
    /// found at `paths`.
    fn checked(
        paths: Option<&[PathBuf; 2]>,
        [index, data]: [FileData; 2],
        check: impl FnOnce(&[u8], &[u8]) -> Result<(), DataError>,
    ) -> Result<Self, DataError> {
        check(&index, &data).map_err(|e| match paths {
            Some([index, _]) => DataError::in_file(index)(e),
            None => e,
        })?;
        Ok(IndexedPair { index, data })
    }

    fn debug(
        &self,
        f: &mut fmt::Formatter<'_>,
        name: &str,
        paths: &Option<[PathBuf; 2]>,
    ) -> fmt::Result {
        f.debug_struct(name)
            .field("paths", paths)
            .field("index", &self.index)
            .field("data", &self.data)
            .finish()
    }
}

/// multi.idx's and multi.mul's bytes, checked ([`Multis::parse`], the format detected).
pub struct MultiSet {
    /// Where they are: multi.idx, multi.mul (`None` for bytes handed over without paths).
    pub paths: Option<[PathBuf; 2]>,
    pair: IndexedPair,
}

impl fmt::Debug for MultiSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pair.debug(f, "MultiFiles", &self.paths)
    }
}

impl FileSet for MultiSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type Id = ();
    type Paths = Option<[PathBuf; 2]>;
    /// multi.idx's bytes, then multi.mul's.
    type Files = [FileData; 2];
    type View<'data> = Multis<'data>;

    /// multi.idx and multi.mul in `dir`, any letter case.
    fn find(dir: &Path, _id: (), _options: &FileOptions) -> Result<Self::Paths, Error> {
        IndexedPair::find(dir, ["multi.idx", "multi.mul"])
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        IndexedPair::load(paths, load)
    }

    /// Checks multi.idx (a whole number of 12-byte records), naming it in errors.
    fn from_files(
        paths: Self::Paths,
        files: [FileData; 2],
        _options: &FileOptions,
    ) -> Result<Self, DataError> {
        let pair = IndexedPair::checked(paths.as_ref(), files, |i, d| {
            Multis::parse(i, d, None).map(drop)
        })?;
        Ok(MultiSet { paths, pair })
    }

    fn view(&self) -> Result<Multis<'_>, DataError> {
        Multis::parse(&self.pair.index, &self.pair.data, None)
    }
}

/// A folder's art, owned ([`OwnedSet`] of [`ArtSet`]; view: [`Art`]): art.mul with
/// artidx.mul, or artLegacyMUL.uop. A folder holds one set: its id is the form to read,
/// `None` for whichever the folder holds (`ArtFiles::open(dir, None)`).
pub type ArtFiles = OwnedSet<ArtSet>;

/// Where a folder's art or gumps are (see [`ArtFormat`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PicturePaths {
    /// The index file, then the data file (artidx.mul, art.mul).
    Mul([PathBuf; 2]),
    /// The UOP container (artLegacyMUL.uop).
    Uop(PathBuf),
}

impl PicturePaths {
    /// The form these paths hold.
    pub fn format(&self) -> ArtFormat {
        match self {
            PicturePaths::Mul(_) => ArtFormat::Mul,
            PicturePaths::Uop(_) => ArtFormat::Uop,
        }
    }

    /// The files: the index file and the data file, or the container.
    pub fn files(&self) -> &[PathBuf] {
        match self {
            PicturePaths::Mul(pair) => pair,
            PicturePaths::Uop(uop) => std::slice::from_ref(uop),
        }
    }

    /// The file named in messages about the index: the index file, or the container.
    fn index_file(&self) -> &Path {
        match self {
            PicturePaths::Mul([index, _]) => index,
            PicturePaths::Uop(uop) => uop,
        }
    }

    /// The paths of `pictures` in `dir`, any letter case, in form `format`; `None`: the
    /// MUL pair when both files are there, else the UOP when it is, else an error naming
    /// the MUL index file.
    fn find(
        dir: &Path,
        format: Option<ArtFormat>,
        mul: [&str; 2],
        pictures: UopPictures,
    ) -> Result<Self, Error> {
        let pair = || -> Result<Self, Error> {
            Ok(PicturePaths::Mul([
                find_file_ignoring_case(dir, mul[0])?,
                find_file_ignoring_case(dir, mul[1])?,
            ]))
        };
        let uop = || -> Result<Self, Error> {
            Ok(PicturePaths::Uop(find_file_ignoring_case(
                dir,
                pictures.file_name(),
            )?))
        };
        match format {
            Some(ArtFormat::Mul) => pair(),
            Some(ArtFormat::Uop) => uop(),
            None => pair().or_else(|mul_missing| uop().map_err(|_| mul_missing)),
        }
    }
}

/// The bytes of a folder's art or gumps, in either form (what [`ArtFiles::from_data`]
/// takes).
pub enum PictureData {
    /// The index file's bytes, then the data file's.
    Mul([FileData; 2]),
    /// The UOP container's bytes.
    Uop(FileData),
}

/// Art or gumps in either form, checked: the MUL pair, or a UOP with the index its slots
/// make; the entries' overlaps, found when the first entry is read, kept for every view.
struct PictureStore {
    files: StoredPictures,
    overlaps: SharedOverlaps,
}

enum StoredPictures {
    Mul(IndexedPair),
    Uop { data: FileData, index: UopIndex },
}

impl PictureStore {
    fn load(
        paths: &Option<PicturePaths>,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<PictureData, FileError> {
        match paths {
            Some(PicturePaths::Mul(pair)) => Ok(PictureData::Mul(IndexedPair::load(
                &Some(pair.clone()),
                load,
            )?)),
            Some(PicturePaths::Uop(uop)) => Ok(PictureData::Uop(load(uop)?)),
            None => Ok(PictureData::Mul([
                FileData::from(&[][..]),
                FileData::from(&[][..]),
            ])),
        }
    }

    /// Checks the files: the MUL pair by `check` (the view's parse), the UOP by making its
    /// index within `options`' limits; errors name the index file found at `paths`.
    fn checked(
        paths: Option<&PicturePaths>,
        files: PictureData,
        options: &FileOptions,
        pictures: UopPictures,
        check: impl FnOnce(&[u8], &[u8]) -> Result<(), DataError>,
    ) -> Result<Self, DataError> {
        let name = |e: DataError| match paths {
            Some(paths) => DataError::in_file(paths.index_file())(e),
            None => e,
        };
        let files = match files {
            PictureData::Mul(pair) => {
                let mul_paths = match paths {
                    Some(PicturePaths::Mul(p)) => Some(p),
                    _ => None,
                };
                StoredPictures::Mul(IndexedPair::checked(mul_paths, pair, check)?)
            }
            PictureData::Uop(data) => {
                let index = UopIndex::build(&data, &options.limits, pictures).map_err(name)?;
                StoredPictures::Uop { data, index }
            }
        };
        Ok(PictureStore {
            files,
            overlaps: SharedOverlaps::default(),
        })
    }

    fn format(&self) -> ArtFormat {
        match self.files {
            StoredPictures::Mul(_) => ArtFormat::Mul,
            StoredPictures::Uop { .. } => ArtFormat::Uop,
        }
    }

    fn debug(
        &self,
        f: &mut fmt::Formatter<'_>,
        name: &str,
        paths: &Option<PicturePaths>,
    ) -> fmt::Result {
        let mut out = f.debug_struct(name);
        out.field("paths", paths);
        match &self.files {
            StoredPictures::Mul(pair) => out.field("index", &pair.index).field("data", &pair.data),
            StoredPictures::Uop { data, index } => out
                .field("uop", data)
                .field("slots", &index.records().len()),
        };
        out.finish()
    }
}

/// A folder's art, checked: art.mul with artidx.mul (checked to be whole records), or
/// artLegacyMUL.uop (its table read and its slots' index made at opening, within the
/// options' limits).
pub struct ArtSet {
    /// Where it is (`None` for bytes handed over without paths).
    pub paths: Option<PicturePaths>,
    store: PictureStore,
}

impl ArtSet {
    /// The form the art is read from.
    pub fn format(&self) -> ArtFormat {
        self.store.format()
    }
}

impl fmt::Debug for ArtSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.store.debug(f, "ArtFiles", &self.paths)
    }
}

impl FileSet for ArtSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    /// The form to read; `None`: art.mul with artidx.mul when both are there, else
    /// artLegacyMUL.uop.
    type Id = Option<ArtFormat>;
    type Paths = Option<PicturePaths>;
    type Files = PictureData;
    type View<'data> = Art<'data>;

    /// The art files in `dir`, any letter case (see [`ArtSet::Id`](FileSet::Id)).
    fn find(
        dir: &Path,
        format: Option<ArtFormat>,
        _options: &FileOptions,
    ) -> Result<Self::Paths, Error> {
        PicturePaths::find(dir, format, ["artidx.mul", "art.mul"], UopPictures::Art).map(Some)
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<PictureData, FileError> {
        PictureStore::load(paths, load)
    }

    /// Checks artidx.mul (a whole number of 12-byte records), or reads artLegacyMUL.uop's
    /// table and makes its index ([`UopIndex::build`]), naming the file in errors.
    fn from_files(
        paths: Self::Paths,
        files: PictureData,
        options: &FileOptions,
    ) -> Result<Self, DataError> {
        let store =
            PictureStore::checked(paths.as_ref(), files, options, UopPictures::Art, |i, d| {
                Art::parse(i, d).map(drop)
            })?;
        Ok(ArtSet { paths, store })
    }

    fn view(&self) -> Result<Art<'_>, DataError> {
        let overlaps = self.store.overlaps.clone();
        match &self.store.files {
            StoredPictures::Mul(pair) => Art::parse_shared(&pair.index, &pair.data, overlaps),
            StoredPictures::Uop { data, index } => Ok(Art::from_uop_shared(index, data, overlaps)),
        }
    }
}

/// A folder's gumps, owned ([`OwnedSet`] of [`GumpSet`]; view: [`Gumps`]): gumpart.mul
/// with gumpidx.mul, or gumpartLegacyMUL.uop. Its id is the form to read, `None` for
/// whichever the folder holds (`GumpFiles::open(dir, None)`).
pub type GumpFiles = OwnedSet<GumpSet>;

/// A folder's gumps, checked: gumpart.mul with gumpidx.mul (checked to be whole records),
/// or gumpartLegacyMUL.uop (its table read and its slots' index made at opening, within
/// the options' limits).
pub struct GumpSet {
    /// Where they are (`None` for bytes handed over without paths).
    pub paths: Option<PicturePaths>,
    store: PictureStore,
}

impl GumpSet {
    /// The form the gumps are read from.
    pub fn format(&self) -> ArtFormat {
        self.store.format()
    }
}

impl fmt::Debug for GumpSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.store.debug(f, "GumpFiles", &self.paths)
    }
}

impl FileSet for GumpSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    /// The form to read; `None`: gumpart.mul with gumpidx.mul when both are there, else
    /// gumpartLegacyMUL.uop.
    type Id = Option<ArtFormat>;
    type Paths = Option<PicturePaths>;
    type Files = PictureData;
    type View<'data> = Gumps<'data>;

    /// The gump files in `dir`, any letter case (see [`GumpSet::Id`](FileSet::Id)).
    fn find(
        dir: &Path,
        format: Option<ArtFormat>,
        _options: &FileOptions,
    ) -> Result<Self::Paths, Error> {
        PicturePaths::find(
            dir,
            format,
            ["gumpidx.mul", "gumpart.mul"],
            UopPictures::Gumps,
        )
        .map(Some)
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<PictureData, FileError> {
        PictureStore::load(paths, load)
    }

    /// Checks gumpidx.mul (a whole number of 12-byte records), or reads
    /// gumpartLegacyMUL.uop's table and makes its index ([`UopIndex::build`]), naming the
    /// file in errors.
    fn from_files(
        paths: Self::Paths,
        files: PictureData,
        options: &FileOptions,
    ) -> Result<Self, DataError> {
        let store = PictureStore::checked(
            paths.as_ref(),
            files,
            options,
            UopPictures::Gumps,
            |i, d| Gumps::parse(i, d).map(drop),
        )?;
        Ok(GumpSet { paths, store })
    }

    fn view(&self) -> Result<Gumps<'_>, DataError> {
        let overlaps = self.store.overlaps.clone();
        match &self.store.files {
            StoredPictures::Mul(pair) => Gumps::parse_shared(&pair.index, &pair.data, overlaps),
            StoredPictures::Uop { data, index } => {
                Ok(Gumps::from_uop_shared(index, data, overlaps))
            }
        }
    }
}

/// texmaps.mul and texidx.mul, owned ([`OwnedSet`] of [`TexmapSet`]; view: [`Texmaps`]). A
/// folder holds one pair: its id is `()` (`TexmapFiles::open(dir, ())`).
pub type TexmapFiles = OwnedSet<TexmapSet>;

/// texmaps.mul and texidx.mul's bytes, texidx.mul checked to be whole records; the entries'
/// overlaps, found when the first entry is read, are kept for every later view.
pub struct TexmapSet {
    /// Where they are: texidx.mul, texmaps.mul (`None` for bytes handed over without paths).
    pub paths: Option<[PathBuf; 2]>,
    pair: IndexedPair,
    overlaps: SharedOverlaps,
}

impl fmt::Debug for TexmapSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pair.debug(f, "TexmapFiles", &self.paths)
    }
}

impl FileSet for TexmapSet {
    type Options = FileOptions;
    type Kind = ErrorKind;
    type Id = ();
    type Paths = Option<[PathBuf; 2]>;
    /// texidx.mul's bytes, then texmaps.mul's.
    type Files = [FileData; 2];
    type View<'data> = Texmaps<'data>;

    /// texidx.mul and texmaps.mul in `dir`, any letter case.
    fn find(dir: &Path, _id: (), _options: &FileOptions) -> Result<Self::Paths, Error> {
        IndexedPair::find(dir, ["texidx.mul", "texmaps.mul"])
    }

    fn load(
        paths: &Self::Paths,
        load: &mut dyn FnMut(&Path) -> Result<FileData, FileError>,
    ) -> Result<[FileData; 2], FileError> {
        IndexedPair::load(paths, load)
    }

    /// Checks texidx.mul (a whole number of 12-byte records), naming it in errors.
    fn from_files(
        paths: Self::Paths,
        files: [FileData; 2],
        _options: &FileOptions,
    ) -> Result<Self, DataError> {
        let pair =
            IndexedPair::checked(paths.as_ref(), files, |i, d| Texmaps::parse(i, d).map(drop))?;
        Ok(TexmapSet {
            paths,
            pair,
            overlaps: SharedOverlaps::default(),
        })
    }

    fn view(&self) -> Result<Texmaps<'_>, DataError> {
        Texmaps::parse_shared(&self.pair.index, &self.pair.data, self.overlaps.clone())
    }
}
