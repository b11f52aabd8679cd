//! The 1,524-byte header: read without decompressing anything, which is what a level picker
//! listing hundreds of levels needs.

use std::borrow::Cow;
use std::fmt;

use gamedata_io::{Bytes, CodePage, decode, field_text};

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{FLAG_COMPRESS, FLAG_USE_Z, HEADER_LEN, WwdHeader};

/// A view of a level's header.
#[derive(Clone, Copy)]
pub struct Header<'data> {
    raw: &'data WwdHeader,
}

impl fmt::Debug for Header<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Header")
            .field("name", &self.name_lossy())
            .field("flags", &self.flags())
            .field("planes", &self.raw.plane_count.get())
            .finish_non_exhaustive()
    }
}

impl<'data> Header<'data> {
    /// Reads the header at the start of `data`; only the first 1,524 bytes are looked at.
    ///
    /// Returns `Err` ([`ErrorKind::TooShort`]) if `data` is shorter than the header, or
    /// ([`ErrorKind::Signature`]) if its first word is not 1,524.
    pub fn parse(data: &'data [u8]) -> Result<Self, DataError> {
        let raw = Bytes::new(data)
            .read_at::<WwdHeader>(0)
            .map_err(|_| ErrorKind::TooShort { found: data.len() })?;
        let size = raw.size.get();
        if size as usize != HEADER_LEN {
            return Err(ErrorKind::Signature { found: size }.into());
        }
        Ok(Header { raw })
    }

    /// A view of a header already checked by [`Header::parse`].
    pub(crate) fn from_checked(raw: &'data WwdHeader) -> Self {
        Header { raw }
    }

    /// The raw header, every field, reserved words included.
    pub fn raw(&self) -> &'data WwdHeader {
        self.raw
    }

    /// The flags word as stored.
    pub fn flags(&self) -> u32 {
        self.raw.flags.get()
    }

    /// The REZ archive's path as stored (`..\CLAW.REZ`).
    pub fn rez_path(&self) -> &'data [u8] {
        field_text(&self.raw.rez_file)
    }

    /// The folder of the planes' tile sets in the archive as stored (`\LEVEL1\TILES`).
    pub fn image_dir(&self) -> &'data [u8] {
        field_text(&self.raw.image_dir)
    }

    /// The level's palette in the archive as stored (`\LEVEL1\PALETTES\MAIN.PAL`).
    pub fn palette_path(&self) -> &'data [u8] {
        field_text(&self.raw.pal_rez)
    }

    /// The four image-set prefixes and the folders they stand for, as stored (`LEVEL` and
    /// `LEVEL1\IMAGES`, `GAME` and `GAME\IMAGES`; unused pairs empty).
    pub fn image_set_prefixes(&self) -> [(&'data [u8], &'data [u8]); 4] {
        let (p, s) = (&self.raw.prefixes, &self.raw.image_sets);
        [0, 1, 2, 3].map(|i| {
            let prefix = p.get(i).map_or(&[][..], |f| field_text(f));
            let set = s.get(i).map_or(&[][..], |f| field_text(f));
            (prefix, set)
        })
    }

    /// Flag 0x2: the main block is a zlib stream.
    pub fn compressed(&self) -> bool {
        self.flags() & FLAG_COMPRESS != 0
    }

    /// Flag 0x1: the level uses z coordinates.
    pub fn uses_z(&self) -> bool {
        self.flags() & FLAG_USE_Z != 0
    }

    /// The level name's bytes (up to the first NUL of its 64-byte field).
    pub fn name(&self) -> &'data [u8] {
        field_text(&self.raw.name)
    }

    /// The author's bytes.
    pub fn author(&self) -> &'data [u8] {
        field_text(&self.raw.author)
    }

    /// The date of creation, as the editor wrote it.
    pub fn birth(&self) -> &'data [u8] {
        field_text(&self.raw.birth)
    }

    /// The name decoded as cp1252.
    pub fn name_lossy(&self) -> Cow<'data, str> {
        decode(self.name(), CodePage::Cp1252)
    }

    /// Start position in pixels (x, y).
    pub fn start(&self) -> (i32, i32) {
        (self.raw.start_x.get(), self.raw.start_y.get())
    }

    /// Number of planes.
    pub fn plane_count(&self) -> u32 {
        self.raw.plane_count.get()
    }

    /// The declared length of the decompressed main block (meaningful when compressed).
    pub fn main_block_size(&self) -> u32 {
        self.raw.main_block_size.get()
    }

    /// The stored checksum.
    pub fn checksum(&self) -> u32 {
        self.raw.checksum.get()
    }
}
