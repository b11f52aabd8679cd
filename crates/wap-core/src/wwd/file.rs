//! The owner of a level's bytes: the file as stored, and for a compressed level the header
//! plus the decompressed main block in one buffer, so that the file's absolute offsets work
//! unchanged. Source: `docs/formats/wwd.md`, "Compression".

use std::fmt;
use std::io::Read;
use std::path::Path;

use gamedata_io::{
    FileData, FileError, FileOptions, Format, InflateError, Inflated, Owned, inflate_exact,
};
use zerocopy::FromBytes;

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{HEADER_LEN, WwdHeader};
use crate::wwd::checksum::ChecksumClass;
use crate::wwd::header::Header;
use crate::wwd::level::Level;

/// Reads only the first 1,524 bytes of the level at `path`: name, author, flags, sizes and
/// checksum without decompressing anything (a level picker lists hundreds this way).
///
/// Returns `Err` ([`Error::File`](crate::Error::File)) if the file cannot be read, ([`ErrorKind::TooShort`]) if it
/// is shorter than the header, or ([`ErrorKind::Signature`]) if it is not a WWD level.
pub fn read_header(path: impl AsRef<Path>) -> Result<WwdHeader> {
    let path = path.as_ref();
    let mut bytes = [0u8; HEADER_LEN];
    let mut file = std::fs::File::open(path).map_err(|e| FileError::io(path, e))?;
    let mut filled = 0;
    while filled < HEADER_LEN {
        let rest = bytes.get_mut(filled..).unwrap_or_default();
        match file.read(rest) {
            Ok(0) => break,
            // read returns at most rest's length: filled stays at most HEADER_LEN.
            Ok(n) => filled = filled.saturating_add(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(FileError::io(path, e).into()),
        }
    }
    let read = bytes.get(..filled).unwrap_or_default();
    Header::parse(read).map_err(DataError::in_file(path))?;
    WwdHeader::read_from_bytes(&bytes)
        .map_err(|_| DataError::in_file(path)(ErrorKind::TooShort { found: filled }.into()).into())
}

/// A level, owned ([`Owned`]): read ([`LevelFile::open`]), mapped ([`LevelFile::map`]) or
/// handed over ([`LevelFile::from_data`]), checked once; it dereferences to [`LevelContents`],
/// whose methods give the header, the level image and the view ([`LevelFile::view`]).
pub type LevelFile = Owned<LevelContents>;

/// How a level is opened: the shared [`FileOptions`], since a level needs nothing else:
/// its [`Limits`](gamedata_io::Limits) cap the decompressed main block
/// (`max_decoded_bytes`, checked before anything is allocated) and a path that is not a
/// regular file (`max_stream_bytes`); its mapping is how [`LevelFile::map_with`] maps.
/// `LevelOptions::default()` is what [`LevelFile::open`] and [`LevelFile::map`] use.
///
/// ```
/// use wap_core::LevelOptions;
///
/// // A level whose main block decompresses past 64 MiB is refused before any allocation.
/// let mut options = LevelOptions::default();
/// options.limits.max_decoded_bytes = 64 << 20;
/// # let _ = options;
/// ```
pub type LevelOptions = FileOptions;

/// A level's bytes, checked: the stored file and, when compressed, the decompressed image.
/// What [`LevelFile`] holds; the WWD implementation of [`Format`].
pub struct LevelContents {
    /// A copy of the checked header (1,524 bytes), so that [`LevelContents::header`] cannot fail.
    header: WwdHeader,
    file: FileData,
    /// Header + decompressed main block, for compressed levels.
    image: Option<Vec<u8>>,
    /// Absolute end of the stored main block in the file (the zlib stream's end).
    stored_end: usize,
}

impl fmt::Debug for LevelContents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LevelFile")
            .field("file_len", &self.file.len())
            .field("compressed", &self.image.is_some())
            .field("image_len", &self.image().len())
            .finish()
    }
}

impl Format for LevelContents {
    type Options = LevelOptions;
    type Kind = ErrorKind;
    type View<'data> = Level<'data>;

    /// Checks the header and, if flag 0x2 is set, decompresses the main block as a zlib
    /// stream, stopping at the stream's end (what follows is the trailer). An uncompressed
    /// level is used in place, zero-copy.
    ///
    /// Returns `Err` if the header is missing or not a WWD header, the declared main block
    /// is larger than `options.limits.max_decoded_bytes` ([`ErrorKind::Limit`], before
    /// anything is allocated), or ([`ErrorKind::MainBlock`]) the stream is not zlib, ends
    /// early, decodes to another length than the header declares, or declares more than its
    /// stored bytes can decode to.
    fn from_file(file: FileData, options: &LevelOptions) -> Result<Self, DataError> {
        let limits = &options.limits;
        let header = Header::parse(&file)?;
        let copy = *header.raw();
        if !header.compressed() {
            let stored_end = file.len();
            return Ok(LevelContents {
                header: copy,
                file,
                image: None,
                stored_end,
            });
        }
        let declared = u64::from(header.main_block_size());
        let stored = file.get(HEADER_LEN..).unwrap_or_default();
        let prefix = file.get(..HEADER_LEN).unwrap_or_default();
        let Inflated {
            data: image,
            consumed,
        } = inflate_exact("the main block", stored, declared, prefix, limits).map_err(
            |e| match e {
                InflateError::Limit(limit) => ErrorKind::Limit(limit),
                other => ErrorKind::MainBlock(other),
            },
        )?;
        Ok(LevelContents {
            header: copy,
            stored_end: HEADER_LEN.saturating_add(consumed),
            image: Some(image),
            file,
        })
    }

    /// The view of the level: planes, objects, tile properties.
    ///
    /// Returns `Err` as [`Level::parse`]: only the header and the plane header table are
    /// checked here; each plane and the tile property table are checked when read.
    fn view(&self) -> Result<Level<'_>, DataError> {
        Level::parse(self.image())
    }
}

impl LevelContents {
    /// The level image: the 1,524-byte header then the main block as decompressed. Every
    /// offset in the header and the plane headers is an absolute position in it.
    pub fn image(&self) -> &[u8] {
        self.image.as_deref().unwrap_or(&self.file)
    }

    /// The main block as decompressed (the image after the header).
    pub fn main_block(&self) -> &[u8] {
        self.image().get(HEADER_LEN..).unwrap_or_default()
    }

    /// The header.
    pub fn header(&self) -> Header<'_> {
        Header::from_checked(&self.header)
    }

    /// True if the main block is stored as a zlib stream.
    pub fn compressed(&self) -> bool {
        self.image.is_some()
    }

    /// The file's bytes as stored.
    pub fn file(&self) -> &[u8] {
        &self.file
    }

    /// The main block as stored (the zlib stream, or the plain block), without the trailer:
    /// the bytes the checksum is computed over.
    pub fn stored_main_block(&self) -> &[u8] {
        self.file
            .get(HEADER_LEN..self.stored_end)
            .unwrap_or_default()
    }

    /// Bytes after the end of the zlib stream (WapMap's `<wm_meta>` block, a stray newline);
    /// empty for uncompressed levels.
    pub fn trailer(&self) -> &[u8] {
        self.file.get(self.stored_end..).unwrap_or_default()
    }

    /// How the stored checksum relates to the stored main block.
    pub fn checksum_class(&self) -> ChecksumClass {
        ChecksumClass::classify(self.header().checksum(), self.stored_main_block())
    }
}
