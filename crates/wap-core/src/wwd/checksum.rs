//! The header's checksum word, and how a stored value relates to the bytes.
//!
//! Let S be the bytes stored after the header up to the end of the zlib stream (the trailer
//! left out; for an uncompressed level, the whole main block) and n its length. The base
//! value is `-n + sum over o in 1..n of (S[o] - o)`, all modulo 2^32. The original editor
//! stores the base plus one byte it reads past its buffer (1..=255); the WapMap editor stores
//! `base + S[0] - 160`. The games never check it, so a reader classifies and never rejects.
//! Source: `docs/formats/wwd.md`, "Checksum".

/// The base checksum of the stored main block bytes `stored`.
pub fn base_checksum(stored: &[u8]) -> u32 {
    // Arithmetic modulo 2^32, as the editor's 32-bit words do: lengths and offsets are taken
    // modulo 2^32 too.
    let modulo = |v: usize| (v as u64 & 0xFFFF_FFFF) as u32;
    let mut sum = 0u32.wrapping_sub(modulo(stored.len()));
    for (offset, &byte) in stored.iter().enumerate().skip(1) {
        sum = sum
            .wrapping_add(u32::from(byte))
            .wrapping_sub(modulo(offset));
    }
    sum
}

/// How a stored checksum relates to the base value of the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChecksumClass {
    /// Stored equals the base value.
    Exact,
    /// Stored is the base plus this byte (1..=255): the original editor's read past its buffer.
    EditorSlack(u8),
    /// Stored is `base + S[0] - 160`: saved by the WapMap editor.
    WapMap,
    /// None of the above.
    Mismatch,
}

impl ChecksumClass {
    /// Classifies `stored` against the main block bytes `stored_block`.
    pub fn classify(stored: u32, stored_block: &[u8]) -> Self {
        let base = base_checksum(stored_block);
        let slack = stored.wrapping_sub(base);
        if slack == 0 {
            return ChecksumClass::Exact;
        }
        if let Ok(byte @ 1..=255) = u8::try_from(slack) {
            return ChecksumClass::EditorSlack(byte);
        }
        let first = stored_block.first().copied().map_or(0, u32::from);
        if stored == base.wrapping_add(first).wrapping_sub(160) {
            return ChecksumClass::WapMap;
        }
        ChecksumClass::Mismatch
    }

    /// The class's name in reports: `exact`, `editor_slack`, `wapmap`, `mismatch`.
    pub fn name(self) -> &'static str {
        match self {
            ChecksumClass::Exact => "exact",
            ChecksumClass::EditorSlack(_) => "editor_slack",
            ChecksumClass::WapMap => "wapmap",
            ChecksumClass::Mismatch => "mismatch",
        }
    }
}
