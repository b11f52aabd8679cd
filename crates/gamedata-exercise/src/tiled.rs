//! `gamedata-tiled`: a level read back from a TMX or TMJ map (`from_tmx::level_from_tmx`,
//! `level_from_tmj`), the import's contract on any text.

use gamedata_tiled::TiledError;
use gamedata_tiled::from_tmx::{level_from_tmj, level_from_tmx};
use wap_core::{LevelData, Limits};

/// `data` (as UTF-8 text) read as a TMX map of a level, within small limits, never
/// panicking; a level read back is written (its image and file, or an error), and its
/// planes' tiles are what their headers say. Returns the bytes written, or 0.
pub fn from_tmx(data: &[u8]) -> u64 {
    read_back(data, level_from_tmx)
}

/// `data` (as UTF-8 text) read as a TMJ map (Tiled's JSON) of a level, as [`from_tmx`]
/// reads a TMX one, with the same checks.
pub fn from_tmj(data: &[u8]) -> u64 {
    read_back(data, level_from_tmj)
}

fn read_back(data: &[u8], read: fn(&str, &Limits) -> Result<LevelData, TiledError>) -> u64 {
    let Ok(text) = std::str::from_utf8(data) else {
        return 0;
    };
    let limits = Limits::default()
        .with_max_decoded_bytes(16 << 20)
        .with_max_records(100_000);
    let Ok(level) = read(text, &limits) else {
        return 0;
    };
    for plane in &level.planes {
        let (w, h) = (plane.header.tiles_wide.get(), plane.header.tiles_high.get());
        let cells = u64::try_from(w)
            .unwrap_or(0)
            .saturating_mul(u64::try_from(h).unwrap_or(0));
        assert_eq!(
            plane.tiles.len() as u64,
            cells,
            "a plane's tiles are its size"
        );
    }
    level.to_file(false).map_or(0, |bytes| bytes.len() as u64)
}
