//! Problems in pictures' bytes: art and gumps, the BWT stage of compressed gumps, and
//! animation frame groups.

/// What is wrong in a picture's bytes (see [`ErrorKind::Picture`](super::ErrorKind::Picture)); offsets are in bytes.
/// Source: `docs/formats/uo.md`, "Art".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum PictureProblem {
    /// A land tile shorter than its 1,012 pixels.
    #[error("the land tile is {found} bytes, expected at least 2024 (1012 pixels)")]
    LandTooShort {
        /// The entry's length.
        found: usize,
    },
    /// A texture map whose entry is neither 0x2000 bytes (64 x 64 pixels) nor 0x8000 bytes
    /// (128 x 128). Source: `docs/formats/uo.md`, "Texture maps".
    #[error(
        "the texture map is {found} bytes, expected 8192 (64 x 64 pixels) or 32768 (128 x 128)"
    )]
    TexmapLength {
        /// The entry's length.
        found: usize,
    },
    /// An item shorter than its 8-byte header.
    #[error("the item is {found} bytes, shorter than its 8-byte header")]
    ItemHeader {
        /// The entry's length.
        found: usize,
    },
    /// A width or height of 0x8000 or more, negative to the client.
    #[error(
        "the item is {width} x {height} pixels: a side of 32768 or more is negative to the client"
    )]
    NegativeSize {
        /// Width read.
        width: u16,
        /// Height read.
        height: u16,
    },
    /// The row table does not fit in the entry.
    #[error("the item's {height} row offsets do not fit in its {found} bytes")]
    RowTable {
        /// Height read (rows in the table).
        height: u16,
        /// The entry's length.
        found: usize,
    },
    /// A row offset past the end of the entry.
    #[error("row {row} starts at word {offset} after the row table, past the entry's end")]
    RowOffset {
        /// The row.
        row: u16,
        /// Its offset, in 16-bit words from the end of the row table.
        offset: u16,
    },
    /// A run header or its pixels past the end of the entry (a row with no end).
    #[error("row {row}'s run at byte {at} after the row table runs past the entry's end")]
    RunCut {
        /// The row.
        row: u16,
        /// The run header's place, in bytes from the end of the row table.
        at: u64,
    },
    /// A run past the picture's right edge.
    #[error("row {row} has a run of {count} pixels from x = {x}, past the width of {width}")]
    RunPastWidth {
        /// The row.
        row: u16,
        /// The run's first column.
        x: u32,
        /// Its pixels.
        count: u32,
        /// The picture's width.
        width: u16,
    },
    /// A gump whose size (the index's third word: width in the high 16 bits, height in the
    /// low ones) is not 1 to 32767 on each side.
    #[error(
        "the gump's size word {extra:#010x} gives {width} x {height} pixels, expected each \
         side from 1 to 32767"
    )]
    GumpSize {
        /// The size word.
        extra: u32,
        /// Width read (the high 16 bits).
        width: u16,
        /// Height read (the low 16 bits).
        height: u16,
    },
    /// A gump's row table does not fit in its entry.
    #[error("the gump's {height} row offsets do not fit in its {found} bytes")]
    GumpRows {
        /// Rows in the table.
        height: u16,
        /// The entry's length.
        found: usize,
    },
    /// A gump row's offset lies past the entry, or before the row above's (rows' runs must
    /// follow one another).
    #[error(
        "row {row} starts at word {offset}, expected from word {from} to the entry's {words} \
         words"
    )]
    GumpRowOffset {
        /// The row.
        row: u16,
        /// Its offset, in 4-byte words from the entry's first byte.
        offset: u32,
        /// Where it may start at the earliest: the row above's start.
        from: u32,
        /// The entry's length in whole 4-byte words.
        words: u32,
    },
    /// A gump row whose runs do not add up to the width.
    #[error("row {row}'s runs cover {found} pixels, expected the width of {width}")]
    GumpRowWidth {
        /// The row.
        row: u16,
        /// Pixels its runs cover (counted up to the first that passes the width).
        found: u64,
        /// The gump's width.
        width: u16,
    },
}

/// What is wrong in the input of Mythic's BWT stage (see [`ErrorKind::Bwt`](super::ErrorKind::Bwt)), the bytes a
/// compression-3 gump's zlib stream decodes to; places are byte offsets in the list the
/// move-to-front step makes (the input less its 4-byte header). Source:
/// `docs/formats/uo.md`, "Gumps" (ClassicUO's `BwtDecompress`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum BwtProblem {
    /// Shorter than the 4-byte header and the 1,024 bytes of symbol counts (the input's
    /// last byte is never decoded; the list ends with a 0 in its place).
    #[error(
        "its input is {found} bytes, expected at least 1028 (a 4-byte header, then 256 \
         symbol counts of 4 bytes)"
    )]
    TooShort {
        /// The input's length.
        found: usize,
    },
    /// A symbol's count is negative.
    #[error("symbol {symbol}'s count is {count}, expected 0 or more")]
    NegativeCount {
        /// The symbol (byte value).
        symbol: u8,
        /// Its count as stored (signed 32-bit).
        count: i32,
    },
    /// The counts add up past what the client's signed 32-bit sum holds.
    #[error("the symbol counts add up to {sum}, past 2147483647")]
    CountsPastClient {
        /// Their sum.
        sum: u64,
    },
    /// A symbol's segment (its first place, then its re-insert positions) is read past the
    /// end of the list.
    #[error("symbol {symbol}'s segment is read at byte {at}, past the {len} bytes of the list")]
    SegmentPast {
        /// The symbol (byte value).
        symbol: u8,
        /// The byte read, from the list's first byte (the counts are bytes 0 to 1023).
        at: u64,
        /// The list's length.
        len: usize,
    },
}

/// What is wrong in an animation's frame group, the bytes of one anim*.mul entry, or in a
/// decoded AnimationFrame*.uop entry (see [`ErrorKind::Anim`](super::ErrorKind::Anim));
/// places are byte offsets from the group's (the entry's) first byte. For a UOP frame the
/// variants shared with MUL groups (runs, overlaps) say "group" for the decoded entry and
/// number the frame by its record's frame number. Source: `docs/formats/uo.md`,
/// "Animations", "MUL frame groups" and "UOP animations".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum AnimProblem {
    /// A group shorter than its palette and frame count.
    #[error(
        "the frame group is {found} bytes, shorter than its 512-byte palette and 4-byte frame count"
    )]
    GroupTooShort {
        /// The group's length.
        found: usize,
    },
    /// The frame offsets do not fit in the group.
    #[error(
        "the group's {count} frame offsets (4 bytes each, from byte 516) do not fit in its {found} bytes"
    )]
    FrameTable {
        /// Frames the group declares.
        count: u32,
        /// The group's length.
        found: usize,
    },
    /// A frame's 8-byte header (centre x, centre y, width, height) lies past the group's
    /// end.
    #[error(
        "frame {frame}'s header at byte 512 + {offset} does not fit in the group's {found} bytes"
    )]
    FrameHeader {
        /// The frame, from 0.
        frame: u32,
        /// Its offset, counted from byte 512.
        offset: u32,
        /// The group's length.
        found: usize,
    },
    /// A run header or its pixels past the group's end.
    #[error("frame {frame}'s run at byte {at} runs past the group's end")]
    RunCut {
        /// The frame, from 0.
        frame: u32,
        /// The run header's place.
        at: u64,
    },
    /// A run whose pixels lie outside its frame: a row outside 0 to height - 1, or columns
    /// outside 0 to width - 1.
    #[error(
        "frame {frame}'s run of {length} pixels at column {column}, row {row} lies outside \
         its {width} x {height} pixels"
    )]
    RunOutside {
        /// The frame, from 0.
        frame: u32,
        /// The run's first column (its x plus the centre x).
        column: i32,
        /// Its row (its y plus the centre y plus the height).
        row: i32,
        /// Its pixels.
        length: u16,
        /// The frame's width.
        width: i16,
        /// The frame's height.
        height: i16,
    },
    /// A frame whose header or runs reach the bytes where another frame of the group starts
    /// before their end marker: frames must have bytes of their own (two frames at the
    /// same offset are one frame, read for both), so that reading every frame reads each
    /// byte once.
    #[error(
        "frame {frame}'s bytes reach byte {next}, where another frame starts, before their \
         end marker 0x7FFF7FFF"
    )]
    FrameOverlap {
        /// The frame, from 0.
        frame: u32,
        /// Where the next frame starts.
        next: u64,
    },
    /// A decoded UOP animation entry shorter than the 40 bytes that hold its frame count
    /// (byte 32) and its frame table's offset (byte 36). Source: `docs/formats/uo.md`,
    /// "Animations", "UOP animations".
    #[error(
        "the UOP animation is {found} bytes, shorter than its 40-byte header (frame count at \
         byte 32, frame table offset at byte 36)"
    )]
    UopHeader {
        /// The decoded entry's length.
        found: usize,
    },
    /// A UOP animation's frame table does not fit: a negative count, a table that starts
    /// inside the 40-byte header, or records that pass the entry's end.
    #[error(
        "the UOP animation's frame table of {count} 16-byte records at byte {offset} does not \
         fit: expected 0 or more records from byte 40 to the entry's end at {found}"
    )]
    UopFrameTable {
        /// Records declared (signed, as stored at byte 32).
        count: i32,
        /// Where the table starts (stored at byte 36).
        offset: u32,
        /// The decoded entry's length.
        found: usize,
    },
    /// A UOP frame record whose frame number is not above the previous record's: numbers
    /// count from 1 and rise through the table (the client's gaps and directions depend on
    /// it).
    #[error(
        "UOP frame record {record} has frame number {number}, expected above {previous} (the \
         previous record's; numbers count from 1 and rise)"
    )]
    UopFrameNumber {
        /// The record, from 0.
        record: u32,
        /// Its frame number.
        number: u16,
        /// The previous record's (0 for the first record).
        previous: u16,
    },
    /// A UOP frame's data (its 512-byte palette and 8-byte frame header) does not lie after
    /// the frame table and inside the entry.
    #[error(
        "UOP frame {number} (record {record}) starts at byte {at} (its record's place plus \
         {offset}), expected its 512-byte palette and 8-byte header between the frame table's \
         end at {table_end} and the entry's end at {found}"
    )]
    UopFrameData {
        /// The record, from 0.
        record: u32,
        /// Its frame number.
        number: u16,
        /// The stored offset, counted from the record's first byte.
        offset: u32,
        /// Where that puts the frame's data, from the entry's first byte.
        at: u64,
        /// Where the frame table ends.
        table_end: u64,
        /// The decoded entry's length.
        found: usize,
    },
    /// A decoded AnimationSequence.uop entry whose records do not fit: shorter than the 56
    /// bytes before them, a negative count (48 and 68 read no record), or records past the
    /// entry's end.
    #[error(
        "the animation sequence's {} do not fit in its {found} bytes (expected a 56-byte \
         header, then 72 bytes a record)",
        match count { Some(c) => format!("{c} records"), None => "header".to_owned() }
    )]
    UopSequence {
        /// Records declared (at byte 52), when the header is there.
        count: Option<i32>,
        /// The decoded entry's length.
        found: usize,
    },
}
