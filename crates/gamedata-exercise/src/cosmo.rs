//! Walks every reading path of `mni-core` over arbitrary bytes.
//!
//! The fuzz targets (`fuzz/fuzz_targets/cosmo_*.rs`) and the regression test that replays fuzz
//! findings call these, so both exercise exactly the same code. Each returns a number
//! derived from what it read, so the work cannot be optimised away; errors are expected
//! and count as results. None of them may panic, on any input.

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose), and their
// coordinates come from sizes the parsers checked. Their assertions are the properties
// the fuzzer checks: a failed one is a finding.
#![allow(clippy::arithmetic_side_effects, clippy::expect_used, clippy::panic)]

use crate::io::split_parts;

use mni_core::group::Group;
use mni_core::map::{Map, MapTile};
use mni_core::raw::{MaskedTileRaw, SolidTileRaw};
use mni_core::tileattr::TileAttrTable;
use mni_core::tiles::{MaskedTiles, SolidTiles, TileImages, TilePixels};

/// Parses `data` as a group file and reads every entry, by slot and by name.
pub fn group(data: &[u8]) -> u64 {
    let Ok(group) = Group::parse(data) else {
        return 0;
    };
    let mut acc = u64::from(group.declared_count().unwrap_or(0));
    for entry in group.entries() {
        acc = acc.wrapping_add(match entry.data() {
            Ok(bytes) => bytes.len() as u64,
            Err(err) => err.to_string().len() as u64,
        });
        let name = entry.name_lossy();
        acc = acc.wrapping_add(group.find(&name).map_or(0, |e| e.slot() as u64));
        acc = acc.wrapping_add(format!("{entry:?}").len() as u64);
    }
    assert_eq!(group.entries().count(), group.len());
    assert_eq!(group.is_empty(), group.entries().next().is_none());
    for i in 0..group.len() {
        let entry = group.entry(i).expect("an entry below len");
        assert_eq!(entry.slot(), i);
        acc = acc.wrapping_add(u64::from(entry.raw().size.get()));
    }
    assert!(group.entry(group.len()).is_none());
    acc = acc.wrapping_add(group.terminator().map_or(0, |t| u64::from(t.offset.get())));
    acc = acc.wrapping_add(format!("{group:?}").len() as u64 + group.bytes().len() as u64);
    acc.wrapping_add(match group.get("TILEATTR.MNI") {
        Ok(Some(d)) => d.len() as u64,
        Ok(None) => 2,
        Err(_) => 1,
    })
}

/// Parses `data` as TILEATTR.MNI and reads every attribute, by tile and by map value.
/// Checked: a value's attributes are its tile's (solid value `v`: solid tile `v / 8`;
/// masked value `16,000 + 40 i`: masked tile `i`).
pub fn tileattr(data: &[u8]) -> u64 {
    let Ok(table) = TileAttrTable::parse(data) else {
        return 0;
    };
    let s = table.summary();
    let by_value = (0..=u16::MAX)
        .step_by(97)
        .filter_map(|v| table.for_value(v))
        .fold(0u64, |a, t| a.wrapping_add(u64::from(t.bits())));
    let mut acc = by_value + u64::from(s.other_mix) + u64::from(s.flags.iter().sum::<u32>());
    for v in (0..16_000u16).step_by(13) {
        assert_eq!(table.for_value(v), table.solid(v / 8));
    }
    for i in 0..1000u16 {
        assert_eq!(table.for_value(16_000 + 40 * i), table.masked(i));
    }
    for t in table.tiles() {
        let flags = [
            t.block_south(),
            t.block_north(),
            t.block_west(),
            t.block_east(),
            t.slippery(),
            t.in_front(),
            t.sloped(),
            t.clingable(),
        ];
        for (bit, &flag) in (0u32..).zip(&flags) {
            assert_eq!(flag, t.has(bit));
        }
        acc = acc.wrapping_add(u64::from(t.movement()));
    }
    acc.wrapping_add(format!("{table:?} {s:?}").len() as u64 + table.bytes().len() as u64)
}

/// Parses `data` as a map and reads its actors, cells and attributes (with a TILEATTR.MNI
/// cut from the same bytes).
pub fn map(data: &[u8]) -> u64 {
    let map = match Map::parse(data) {
        Ok(map) => map,
        Err(err) => return err.to_string().len() as u64 + u64::from(err.slot().is_some()),
    };
    assert_eq!(map.actor_records().len(), map.actors().len());
    assert_eq!(
        usize::from(map.width()) * usize::from(map.height()),
        map.tile_values()
            .len()
            .next_multiple_of(usize::from(map.width()))
    );
    for (x, y) in [
        (0, 0),
        (map.width() - 1, map.height() - 1),
        (map.width(), 0),
    ] {
        assert_eq!(
            map.tile(x, y),
            map.tile_value(x, y).map(MapTile::from_value)
        );
    }
    let mut acc = format!("{map:?}").len() as u64 + u64::from(map.header().width.get());
    acc = map.actors().fold(acc, |a, actor| {
        a.wrapping_add(u64::from(actor.x) + u64::from(actor.y))
    });
    for actor in map.actors() {
        acc = acc.wrapping_add(u64::from(map.tile_value(actor.x, actor.y).unwrap_or(1)));
    }
    let attrs = data.get(..7000).and_then(|d| TileAttrTable::parse(d).ok());
    if let Some(attrs) = attrs {
        acc = map
            .cell_attributes(&attrs)
            .fold(acc, |a, t| a.wrapping_add(u64::from(t.bits())));
        acc = acc.wrapping_add(
            map.attributes(map.width(), 0, &attrs)
                .map_or(3, |t| u64::from(t.bits())),
        );
    }
    acc.wrapping_add(map.trailing().len() as u64)
}

/// Parses `data` as a map and decodes the image of every drawn cell, as a renderer does,
/// with tile tables cut from the same bytes: the first 2,048 bytes as TILES.MNI, the first
/// 2,560 as MASKTILE.MNI.
pub fn render(data: &[u8]) -> u64 {
    let Ok(map) = Map::parse(data) else {
        return 0;
    };
    let (Some(solid), Some(masked)) = (data.get(..32 * 64), data.get(..40 * 64)) else {
        return 0;
    };
    let (Ok(solid), Ok(masked)) = (SolidTiles::parse(solid), MaskedTiles::parse(masked)) else {
        return 0;
    };
    let images = TileImages { solid, masked };
    let mut acc = 0u64;
    for (x, y, tile) in map.drawn_cells() {
        acc = acc.wrapping_add(u64::from(x) ^ u64::from(y));
        let pixels = images.pixels(tile);
        // The same tile decoded here from its bytes: 8 rows of 4 plane bytes (blue, green,
        // red, intensity; a masked tile has the mask first, 1 transparent), bit 7 leftmost.
        let (bytes, row_len, masked) = match tile {
            MapTile::Solid(i) => (
                data.get(usize::from(i) * 32..usize::from(i) * 32 + 32),
                4,
                0,
            ),
            MapTile::Masked(i) => (
                data.get(usize::from(i) * 40..usize::from(i) * 40 + 40),
                5,
                1,
            ),
        };
        let want = bytes.filter(|_| {
            // Only the tiles of the tables parsed above (32 x 64 and 40 x 64 bytes).
            let (index, count) = match tile {
                MapTile::Solid(i) | MapTile::Masked(i) => (i, 64),
            };
            index < count
        });
        let want: Option<TilePixels> = want.map(|b| {
            std::array::from_fn(|row| {
                std::array::from_fn(|col| {
                    let at = row * row_len;
                    let byte = |k: usize| b.get(at + k).copied().expect("within the tile");
                    let bit = |k: usize| (byte(masked + k) >> (7 - col)) & 1;
                    let transparent = masked == 1 && (byte(0) >> (7 - col)) & 1 == 1;
                    (!transparent).then(|| bit(3) << 3 | bit(2) << 2 | bit(1) << 1 | bit(0))
                })
            })
        });
        assert_eq!(pixels, want, "cell ({x}, {y}): {tile:?}");
        acc = match pixels {
            Some(pixels) => pixels
                .iter()
                .flatten()
                .fold(acc, |a, p| a.wrapping_add(p.map_or(16, u64::from))),
            None => acc.wrapping_add(1),
        };
    }
    acc
}

/// Parses `data` as TILES.MNI and as MASKTILE.MNI (the longest whole prefix) and decodes
/// every tile.
pub fn tiles(data: &[u8]) -> u64 {
    let whole = |n: usize| data.get(..data.len() / n * n).unwrap_or(&[]);
    let mut acc = 0u64;
    if let Ok(solid) = SolidTiles::parse(whole(32)) {
        assert_eq!(solid.is_empty(), solid.as_slice().is_empty());
        assert_eq!(solid.len(), solid.as_slice().len());
        acc = acc.wrapping_add(format!("{solid:?}").len() as u64);
        for t in solid.as_slice() {
            // Decoding then encoding gives the stored planes back.
            assert_eq!(SolidTileRaw::from_pixels(&t.pixels()).rows, t.rows);
            assert!(t.rgba().iter().flatten().all(|p| p[3] == 0xFF));
            acc = t
                .pixels()
                .iter()
                .flatten()
                .fold(acc, |a, &p| a.wrapping_add(u64::from(p)));
        }
    }
    if let Ok(masked) = MaskedTiles::parse(whole(40)) {
        assert_eq!(masked.is_empty(), masked.as_slice().is_empty());
        assert_eq!(masked.len(), masked.as_slice().len());
        for t in masked.as_slice() {
            // Encoding the decoded pixels decodes to them again (the planes under
            // transparent pixels are not kept).
            let pixels = t.pixels();
            assert_eq!(MaskedTileRaw::from_pixels(&pixels).pixels(), pixels);
            let rgba = t.rgba();
            for (row, rgba_row) in pixels.iter().zip(&rgba) {
                for (p, c) in row.iter().zip(rgba_row) {
                    assert_eq!(p.is_none(), c[3] == 0);
                }
            }
            acc = t
                .pixels()
                .iter()
                .flatten()
                .fold(acc, |a, p| a.wrapping_add(p.map_or(16, u64::from)));
        }
    }
    acc
}

/// Actor sprites and a backdrop: ACTRINFO.MNI and ACTORS.MNI in
/// [`crate::io::split_parts`] form (4-byte lengths); ACTORS.MNI is also parsed
/// as a backdrop. Checked: every sprite type's frames lie in the file's frame records and
/// types start in the order of their records; a frame cut from ACTORS.MNI has `width *
/// height` tiles, each reachable by column and row and nothing past them; a frame refused
/// for its data is past the end of the file or spans two 65,535-byte segments; a backdrop
/// parses exactly when it is 23,040 bytes; actor types the table knows name their own type.
pub fn sprites(data: &[u8]) -> u64 {
    use mni_core::actor_types::ActorSprite;
    use mni_core::backdrop::Backdrop;
    use mni_core::error::ErrorKind;
    use mni_core::raw::{BACKDROP_LEN, SPRITE_SEGMENT_LEN};
    use mni_core::sprites::ActorSprites;

    let [info, tiles] = split_parts::<2, 4>(data);
    let mut acc = match Backdrop::parse(tiles) {
        Ok(b) => {
            assert_eq!(tiles.len(), BACKDROP_LEN);
            let t = b.tile(39, 17).expect("the last tile of 40 x 18");
            assert!(b.tile(40, 0).is_none() && b.tile(0, 18).is_none());
            u64::from(t.pixels()[7][7])
        }
        Err(_) => {
            assert_ne!(tiles.len(), BACKDROP_LEN);
            1
        }
    };
    for t in data.iter().take(8) {
        if let Some(a) = ActorSprite::of(u16::from(*t)) {
            assert_eq!(a.actor_type, u16::from(*t));
            acc = acc.wrapping_add(u64::from(a.sprite));
        }
    }
    let sprites = match ActorSprites::parse(info, tiles) {
        Ok(s) => s,
        Err(e) => return acc.wrapping_add(e.to_string().len() as u64),
    };
    let all = sprites.table.all_frames();
    let range = all.as_ptr_range();
    let count = sprites.table.sprite_count();
    assert!(sprites.table.frames(count).is_none());
    assert!(matches!(sprites.frame(count, 0), Ok(None)));
    assert!(matches!(
        sprites.missing(count, 0).kind(),
        ErrorKind::SpriteIndex { .. }
    ));
    acc = acc.wrapping_add(format!("{sprites:?}").len() as u64);
    // At most 64 types and 16 frames each: a crafted table of 65,535 types sharing one
    // long run of frames would otherwise cost seconds an input.
    for sprite in 0..count.min(64) {
        let frames = sprites
            .table
            .frames(sprite)
            .expect("a type below the count");
        if let (Some(first), Some(last)) = (frames.first(), frames.last()) {
            assert!(range.contains(&std::ptr::from_ref(first)));
            assert!(range.contains(&std::ptr::from_ref(last)));
        }
        // Past its frames: none, and the error a caller reports names the count.
        let past = u16::try_from(frames.len()).unwrap_or(u16::MAX);
        if past < u16::MAX {
            assert!(matches!(sprites.frame(sprite, past), Ok(None)));
            assert!(matches!(
                sprites.missing(sprite, past).kind(),
                ErrorKind::FrameIndex { count, .. } if count == past
            ));
        }
        for frame in 0..u16::try_from(frames.len().min(16)).unwrap_or(16) {
            match sprites.frame(sprite, frame) {
                Ok(None) => panic!("frame {frame} of {sprite} is below its count"),
                Ok(Some(f)) => {
                    let (w, h) = (f.width, f.height);
                    assert_eq!(f.tiles().len(), usize::from(w) * usize::from(h));
                    assert!(f.tile(w, 0).is_none() && f.tile(0, h).is_none());
                    if w > 0 && h > 0 {
                        let last = f.tile_pixels(w - 1, h - 1).expect("the last tile");
                        acc = acc.wrapping_add(last.iter().flatten().flatten().count() as u64);
                        assert!(std::ptr::eq(
                            f.tile(w - 1, h - 1).expect("the last tile"),
                            f.tiles().last().expect("a tile")
                        ));
                    }
                }
                Err(e) => match e.kind() {
                    ErrorKind::FrameData {
                        offset,
                        start,
                        end,
                        file_len,
                        ..
                    } => {
                        let len = end - start;
                        assert!(
                            end > file_len as u64 || u64::from(offset) + len > SPRITE_SEGMENT_LEN
                        );
                        acc = acc.wrapping_add(e.to_string().len() as u64);
                    }
                    ErrorKind::FrameOverlap {
                        start, end, other, ..
                    } => {
                        // The record read instead starts no later and shares bytes with it.
                        let o = sprites.table.all_frames().get(other).expect("a record");
                        let o_start = u64::from(o.segment.get()) * SPRITE_SEGMENT_LEN
                            + u64::from(o.offset.get());
                        let o_len = u64::from(o.width.get()) * u64::from(o.height.get()) * 40;
                        assert!(o_start <= start && start < o_start + o_len && o_start < end);
                        acc = acc.wrapping_add(other as u64);
                    }
                    other => panic!("frame {frame} of {sprite}: {other:?}"),
                },
            }
        }
        acc = acc.wrapping_add(frames.len() as u64);
    }
    acc
}

/// A whole episode: an STN and a VOL group file in [`crate::io::split_parts`] form (4-byte
/// lengths), opened as the game does: the tile attributes and images from the STN, every map
/// of the VOL, each map's attributes and the image of each drawn cell (what a renderer
/// draws).
pub fn episode(data: &[u8]) -> u64 {
    let [stn, vol] = split_parts::<2, 4>(data);
    let files = mni_core::episode::EpisodeFiles::from_data(
        mni_core::episode::EpisodePaths {
            stn: "COSMO1.STN".into(),
            vol: "COSMO1.VOL".into(),
        },
        [stn.to_vec().into(), vol.to_vec().into()],
        &mni_core::episode::EpisodeOptions::default(),
    );
    // Nothing is read at opening: handing bytes over cannot fail.
    let Ok(files) = files else {
        unreachable!("EpisodeSet::from_files never fails");
    };
    let same = files.view().map(|e| (e.stn.len(), e.vol.len()));
    let episode = match mni_core::episode::Episode::parse(stn, vol) {
        Ok(e) => e,
        Err(e) => {
            assert!(same.is_err());
            return e.to_string().len() as u64 + u64::from(e.file.is_some());
        }
    };
    assert_eq!(same.ok(), Some((episode.stn.len(), episode.vol.len())));
    let attrs = episode.tile_attributes();
    let images = episode.tile_images();
    let sprites = episode.sprites();
    let mut acc = u64::from(attrs.is_ok()) + u64::from(images.is_ok());
    acc += sprites.map_or(1, |s| u64::from(s.table.sprite_count()));
    for entry in episode.level_names() {
        // Lookups take text: a name whose bytes are not UTF-8 cannot be asked for (its
        // lossy form names another entry or none), so only text names must be found.
        let Ok(name) = std::str::from_utf8(entry.name()) else {
            acc = acc.wrapping_add(
                episode
                    .get(&entry.name_lossy())
                    .map_or(1, |d| d.map_or(2, <[u8]>::len) as u64),
            );
            continue;
        };
        acc = acc.wrapping_add(match episode.get(name) {
            Ok(Some(d)) => d.len() as u64,
            Ok(None) => panic!("{name} is listed but not found"),
            Err(_) => 1,
        });
        let map = match episode.level(name) {
            Ok(Some(map)) => map,
            Ok(None) => panic!("{name} is listed but not found"),
            Err(e) => {
                let context = e.slot().unwrap_or(0) as u64;
                acc = acc.wrapping_add(e.to_string().len() as u64 + context);
                continue;
            }
        };
        // The map as read here from its bytes: width, actor list, and the cells after it.
        // The game reads the first entry of that name in the STN, else the first in the VOL
        // (a name may repeat, and the entry listed here may be a later one).
        let bytes = episode
            .get(name)
            .ok()
            .flatten()
            .expect("a map that parses has bytes");
        let read = match episode.stn.find(name) {
            Some(first) => raw_entry(stn, first.slot()),
            None => episode
                .vol
                .find(name)
                .and_then(|e| raw_entry(vol, e.slot())),
        };
        assert_eq!(Some(bytes), read, "{name}");
        let word = |at: usize| {
            let w: Option<[u8; 2]> = bytes.get(at..at + 2).and_then(|w| w.try_into().ok());
            w.map(u16::from_le_bytes)
        };
        assert_eq!(Some(map.width()), word(2));
        let actor_words = usize::from(word(4).expect("a map has a header"));
        assert_eq!(map.actors().len(), actor_words / 3, "{name}");
        let cells_at = 6 + actor_words * 2;
        assert_eq!(word(cells_at), map.tile_value(0, 0));
        assert_eq!(map.tile_values().len(), 32_764);
        let last = map.tile_values().last().map(|v| v.get());
        assert_eq!(word(cells_at + 2 * 32_763), last, "{name}");
        acc = acc.wrapping_add(map.actors().len() as u64);
        acc = acc.wrapping_add(match episode.backdrop(map.flags().backdrop) {
            Ok(Some(b)) => b.tile(0, 0).map_or(0, |t| u64::from(t.pixels()[0][0])),
            Ok(None) => 1,
            Err(e) => e.to_string().len() as u64,
        });
        if let Ok(attrs) = &attrs {
            acc = map
                .cell_attributes(attrs)
                .fold(acc, |a, t| a.wrapping_add(u64::from(t.bits())));
        }
        if let Ok(images) = &images {
            for (_, _, tile) in map.drawn_cells() {
                acc = acc.wrapping_add(images.pixels(tile).map_or(1, |p| {
                    p.iter().flatten().filter(|p| p.is_some()).count() as u64
                }));
            }
        }
    }
    acc
}

/// The bytes of directory slot `slot` of a group file, read here from its 20-byte slots
/// (name, u32 offset, u32 size).
fn raw_entry(file: &[u8], slot: usize) -> Option<&[u8]> {
    let at = slot * 20;
    let word = |k: usize| {
        let w: Option<[u8; 4]> = file.get(at + k..at + k + 4).and_then(|w| w.try_into().ok());
        w.map(|w| u32::from_le_bytes(w) as usize)
    };
    let (offset, size) = (word(12)?, word(16)?);
    file.get(offset..offset.checked_add(size)?)
}

/// Round trips through the writers: `data` as a group file (its readable entries with
/// writable names, written again, must read back as the same names and bytes in order) and
/// as a map (its flags, width, actors and tiles, written again, must read back the same).
pub fn round_trip(data: &[u8]) -> u64 {
    let mut acc = 0u64;
    if let Ok(group) = Group::parse(data) {
        let entries: Vec<(String, &[u8])> = group
            .entries()
            .filter_map(|e| {
                let name = std::str::from_utf8(e.name()).ok()?.to_owned();
                Some((name, e.data().ok()?))
            })
            .collect();
        let pairs = entries.iter().map(|(n, d)| (n.as_str(), *d));
        if let Ok(written) = mni_core::write::write_group(pairs) {
            let back = Group::parse(&written).expect("a written group file reads");
            let read: Vec<(String, &[u8])> = back
                .entries()
                .map(|e| {
                    let name = String::from_utf8_lossy(e.name()).into_owned();
                    (name, e.data().expect("a written entry reads"))
                })
                .collect();
            assert_eq!(read, entries, "the group file reads back as written");
            acc = acc.wrapping_add(written.len() as u64);
        }
    }
    if let Ok(map) = Map::parse(data) {
        let actors: Vec<_> = map.actors().collect();
        let tiles: Vec<u16> = map.tile_values().iter().map(|v| v.get()).collect();
        let written = mni_core::write::write_map(map.flags(), map.width(), &actors, &tiles)
            .expect("a map that reads writes");
        let back = Map::parse(&written).expect("a written map reads");
        assert_eq!(back.flags(), map.flags());
        assert_eq!(back.width(), map.width());
        assert!(
            back.actors().eq(actors.iter().copied()),
            "the actors read back"
        );
        assert!(
            back.tile_values()
                .iter()
                .map(|v| v.get())
                .eq(tiles.iter().copied()),
            "the tiles read back"
        );
        assert!(back.trailing().is_empty());
        acc = acc.wrapping_add(written.len() as u64);
    }
    acc
}
