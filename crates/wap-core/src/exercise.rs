//! Walks every reading path over arbitrary bytes: what the fuzz target
//! (`fuzz/fuzz_targets/wwd_level.rs`) and the regression replay run. Returns a number derived
//! from what it read; errors are results. It must never panic, on any input.

use gamedata_io::{FileData, Limits};

use crate::header::{CodePage, Header, decode};
use crate::level::LevelFile;

/// Opens `data` as a level with a 64 MiB limit and reads its header, trailer and checksum
/// class; also the header alone.
pub fn level(data: &[u8]) -> u64 {
    let mut acc = match Header::parse(data) {
        Ok(h) => decode(h.author(), CodePage::Cp1250).len() as u64 + u64::from(h.plane_count()),
        Err(e) => e.to_string().len() as u64,
    };
    let limits = Limits {
        max_decoded_bytes: 64 << 20,
        ..Limits::default()
    };
    match LevelFile::open(FileData::Read(data.to_vec()), &limits) {
        Ok(level) => {
            acc = acc.wrapping_add(level.main_block().len() as u64);
            acc = acc.wrapping_add(level.trailer().len() as u64);
            acc = acc.wrapping_add(level.checksum_class().name().len() as u64);
            acc = acc.wrapping_add(u64::from(level.header().start().0.unsigned_abs()));
        }
        Err(e) => acc = acc.wrapping_add(e.to_string().len() as u64),
    }
    acc
}
