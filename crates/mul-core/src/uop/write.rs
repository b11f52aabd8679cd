//! Writing UOP containers (the `write` feature): the layout this crate's writers give every
//! UOP they make (the map UOPs of [`write_map_uop`](crate::write_map_uop), art, gumps and
//! animations): version 5, the header padded to 0x200, table blocks of up to 1,000 entries,
//! then the entries' data, each with its Adler-32. Source: `docs/formats/uo.md`, "UOP".

// Writers: their arithmetic is on the lengths of buffers in memory (each at most
// isize::MAX bytes) and small constants; every stored field goes through a checked
// conversion to its width, which refuses what does not fit.
#![allow(clippy::arithmetic_side_effects)]

use zerocopy::IntoBytes;

use crate::raw::{UOP_ENTRY_LEN, UOP_MAGIC, UopEntryRaw, UopHeader, UopTableHeader};

/// Bytes of the header this crate's writer puts before the first table block: 28 bytes of
/// header, padded as the clients' files are.
pub const WRITER_TABLE_OFFSET: usize = 0x200;
/// Entries a table block of this crate's writer holds.
pub const WRITER_BLOCK_CAPACITY: usize = 1000;
/// [`WRITER_BLOCK_CAPACITY`] as stored.
const CAPACITY_WORD: u32 = 1000;
const _: () = assert!(CAPACITY_WORD as usize == WRITER_BLOCK_CAPACITY);

/// An entry [`write_uop`] stores: its name's hash and its bytes.
pub(crate) struct UopWrite<'a> {
    pub(crate) hash: u64,
    pub(crate) data: &'a [u8],
    /// `None`: stored as is; else the compression value and the decompressed length.
    pub(crate) stored_as: Option<(u16, u32)>,
}

/// Where a UOP this crate writes puts things: the header padded to 0x200, then `places`
/// table places in blocks of up to 1,000 entries (each block's header, then its entries),
/// then the entries' data.
#[derive(Clone, Copy, Debug)]
pub(crate) struct UopLayout {
    places: usize,
}

impl UopLayout {
    /// A layout of `places` table places (at least one).
    pub(crate) fn new(places: usize) -> Self {
        UopLayout {
            places: places.max(1),
        }
    }

    fn tables(&self) -> usize {
        self.places.div_ceil(WRITER_BLOCK_CAPACITY)
    }

    /// Where the data starts: after the last table block.
    pub(crate) fn data_start(&self) -> usize {
        WRITER_TABLE_OFFSET
            + self.tables() * size_of::<UopTableHeader>()
            + self.places * UOP_ENTRY_LEN
    }

    /// Where table place `place`'s entry lies (every block before it full).
    pub(crate) fn entry_at(&self, place: usize) -> usize {
        WRITER_TABLE_OFFSET
            + (place / WRITER_BLOCK_CAPACITY + 1) * size_of::<UopTableHeader>()
            + place * UOP_ENTRY_LEN
    }

    /// Appends to the empty `out` the header (of `files` files) and the table blocks with
    /// every place unused (zeros), up to [`UopLayout::data_start`].
    pub(crate) fn write_tables(&self, out: &mut Vec<u8>, files: usize) {
        let header = UopHeader {
            magic: UOP_MAGIC.into(),
            version: 5.into(),
            signature: 0xFD23_EC43.into(),
            first_table: (WRITER_TABLE_OFFSET as u64).into(),
            block_capacity: CAPACITY_WORD.into(),
            file_count: u32::try_from(files).unwrap_or(u32::MAX).into(),
        };
        out.extend_from_slice(header.as_bytes());
        out.resize(WRITER_TABLE_OFFSET, 0);
        let tables = self.tables();
        for t in 0..tables {
            let count = (self.places - t * WRITER_BLOCK_CAPACITY).min(WRITER_BLOCK_CAPACITY);
            let end = out.len() + size_of::<UopTableHeader>() + count * UOP_ENTRY_LEN;
            let next = if t + 1 < tables { end as u64 } else { 0 };
            let table = UopTableHeader {
                count: u32::try_from(count).unwrap_or(u32::MAX).into(),
                next: next.into(),
            };
            out.extend_from_slice(table.as_bytes());
            out.resize(end, 0);
        }
    }
}

/// A UOP container of `entries`, stored as is with their Adler-32s, in list order after
/// the tables: version 5, the header padded to 0x200, table blocks of up to 1,000 entries
/// whose counts add up to `total` (at least the entries; the places past them unused).
pub(crate) fn write_uop(entries: &[UopWrite<'_>], total: usize) -> Vec<u8> {
    let layout = UopLayout::new(total.max(entries.len()));
    let stored: usize = entries.iter().map(|e| e.data.len()).sum();
    let mut out = Vec::with_capacity(layout.data_start() + stored);
    layout.write_tables(&mut out, entries.len());
    for (place, entry) in entries.iter().enumerate() {
        let offset = out.len() as u64;
        out.extend_from_slice(entry.data);
        let len = u32::try_from(entry.data.len()).unwrap_or(u32::MAX);
        let adler = adler2::adler32_slice(entry.data);
        let (compression, decompressed) = entry.stored_as.unwrap_or((0, len));
        let raw = UopEntryRaw {
            offset: offset.into(),
            header_len: 0.into(),
            compressed_len: len.into(),
            decompressed_len: decompressed.into(),
            hash: entry.hash.into(),
            adler32: adler.into(),
            compression: compression.into(),
        };
        let at = layout.entry_at(place);
        if let Some(slot) = out.get_mut(at..at + UOP_ENTRY_LEN) {
            slot.copy_from_slice(raw.as_bytes());
        }
    }
    out
}
