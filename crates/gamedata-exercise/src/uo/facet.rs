//! The whole-facet paths of [`super`]: a facet with diff patches (checked against the
//! patch put in by hand from the diff files' bytes) and a client folder opened as a client
//! opens it, with the lookups a radar renderer makes.

use super::*;

/// A facet with diff patches: eight files in [`split_parts`] form (2-byte lengths: map, staidx, statics,
/// mapdifl, mapdif, stadifl, stadifi, stadif); the map 4 blocks wide. The patched and the
/// plain facet: land and statics figures both ways (which must agree), validation, and the
/// statics and top surface of a few tiles.
pub fn patched(data: &[u8]) -> u64 {
    let [
        map,
        staidx,
        statics,
        mapdifl,
        mapdif,
        stadifl,
        stadifi,
        stadif,
    ] = split_parts::<8, 2>(data);
    let height = u32::try_from(map.len() / 196 / 4).unwrap_or(0).max(1);
    let Ok(size) = MapSize::from_blocks(4, height) else {
        return 0;
    };
    let Ok(plain) = Facet::parse(
        FacetBytes {
            map,
            staidx,
            statics,
        },
        size,
        None,
    ) else {
        return 1;
    };
    let index = mul_core::facet::diff::DiffIndex::new(
        Some((mapdifl, mapdif)),
        Some((stadifl, stadifi, stadif)),
    );
    let mut facet = plain.clone();
    facet.map = facet.map.with_patch(mul_core::facet::diff::MapPatch {
        index: &index.map,
        blocks: mul_core::facet::diff::map_blocks(mapdif),
    });
    facet.statics = facet
        .statics
        .with_patch(mul_core::facet::diff::StaticsPatch {
            index: &index.statics,
            records: mul_core::facet::diff::index_records(stadifi),
            data: stadif,
        });
    let blocks = size.blocks();
    check_patch_by_hand(
        &plain,
        &facet,
        blocks,
        [mapdifl, mapdif, stadifl, stadifi, stadif],
    );
    let mut acc = index.problems.total();
    for f in [&plain, &facet] {
        acc = acc.wrapping_add(land_both_ways(&f.map).cells);
        acc = acc.wrapping_add(statics_both_ways(&f.statics, blocks).count);
        acc = acc.wrapping_add(f.statics.validate(blocks).total());
        acc = acc.wrapping_add(f.map.runs().count() as u64);
        for (x, y) in [(0, 0), (9, 3), (size.width() - 1, size.height() - 1)] {
            acc = acc.wrapping_add(f.statics_at(x, y).map_or(1, |s| s.count() as u64));
            if let Ok(Some(z)) = f.top_surface(x, y) {
                acc = acc.wrapping_add(z.unsigned_abs().into());
            }
        }
    }
    acc
}

/// The patched facet is the plain one with the diff blocks put in by hand (the diff files
/// read here from their bytes, not through [`mul_core::facet::diff`]): a block named by the list takes
/// the record of the last entry naming it that has one; the others keep the map's.
fn check_patch_by_hand(plain: &Facet<'_>, facet: &Facet<'_>, blocks: usize, files: [&[u8]; 5]) {
    use std::collections::BTreeMap;
    use zerocopy::IntoBytes;
    let [mapdifl, mapdif, stadifl, stadifi, stadif] = files;
    let words = |list: &[u8]| -> Vec<usize> {
        list.chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize)
            .collect()
    };
    // Block number -> the last list entry that names it and has a record.
    let last = |list: &[usize], records: usize| -> BTreeMap<usize, usize> {
        let mut last = BTreeMap::new();
        for (entry, &block) in list.iter().enumerate().take(records) {
            last.insert(block, entry);
        }
        last
    };
    let map_entries = last(&words(mapdifl), mapdif.len() / 196);
    for b in 0..blocks {
        let got = facet.map.block_at(b).map(IntoBytes::as_bytes);
        match map_entries.get(&b) {
            Some(&i) => assert_eq!(got, mapdif.get(i * 196..(i + 1) * 196), "map block {b}"),
            None => assert_eq!(got, plain.map.block_at(b).map(IntoBytes::as_bytes)),
        }
    }
    let slice_bytes = |s: StaticSlice<'_>| -> Vec<u8> {
        match s {
            StaticSlice::Standard(r) => r.as_bytes().to_vec(),
            StaticSlice::PreAlpha(r) => r.as_bytes().to_vec(),
        }
    };
    let record = |entry: usize| -> Option<(usize, usize)> {
        let r = stadifi.get(entry * 12..entry * 12 + 8)?;
        let offset = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
        let length = u32::from_le_bytes([r[4], r[5], r[6], r[7]]);
        (offset != u32::MAX && length != 0 && length != u32::MAX)
            .then_some((offset as usize, length as usize))
    };
    let statics_entries = last(&words(stadifl), stadifi.len() / 12);
    let used: Vec<(usize, usize)> = statics_entries
        .values()
        .filter_map(|&e| record(e))
        .collect();
    for b in 0..blocks {
        let got = facet.statics.block(b).ok().map(slice_bytes);
        let own = plain.statics.block(b).ok().map(slice_bytes);
        let Some(&entry) = statics_entries.get(&b) else {
            assert_eq!(got, own, "statics of block {b}, not patched");
            continue;
        };
        let Some((offset, length)) = record(entry) else {
            // An empty record: the block has no statics, or the record was left out.
            assert!(
                got == Some(Vec::new()) || got == own,
                "statics of block {b}"
            );
            continue;
        };
        let want = stadif.get(offset..offset + length).map(<[u8]>::to_vec);
        let shared = used
            .iter()
            .filter(|&&(o, l)| o < offset + length && offset < o + l)
            .count();
        match (want, shared) {
            // In the data, sharing no byte with another used record: the patch's statics,
            // unless they are not whole records (an error).
            (Some(want), 1) => assert!(got.is_none() || got == Some(want), "block {b}"),
            // Overlapping another record: the patch's statics if it is the one read, else
            // the map's (left out).
            (Some(want), _) => assert!(
                got.is_none() || got == Some(want) || got == own,
                "block {b}"
            ),
            // Past the data: an error.
            (None, _) => assert!(got.is_none(), "block {b}: a record past the data"),
        }
    }
}

/// A whole client folder held in memory: twelve parts in [`split_parts`] form (4-byte lengths) (map, staidx,
/// statics, tiledata, radarcol, hues, mapdifl, mapdif, stadifl, stadifi, stadif, and a
/// control file), opened through [`mul_core::FacetFiles::from_data`] as facet 1 with every
/// file, diffs applied, as a client folder is. The control file's first byte picks the map's form
/// (even: MUL, odd: a map UOP) and whether the size is given (bit 1: a square size from the
/// map's length) or detected; its next bytes pick tiles to look at. The facet's queries run
/// both ways, plus the tile lookups a renderer makes (top static, radar colour, hue).
pub fn folder(data: &[u8]) -> u64 {
    use gamedata_io::FileData;
    use mul_core::facet::{DiffData, FacetData, FacetFiles, FacetOptions, FacetPaths, MapFormat};
    let [
        map,
        staidx,
        statics,
        tiledata,
        radarcol,
        hues,
        mapdifl,
        mapdif,
        stadifl,
        stadifi,
        stadif,
        control,
    ] = split_parts::<12, 4>(data);
    let flags = control.first().copied().unwrap_or(0);
    let format = if flags & 1 == 0 {
        MapFormat::Mul
    } else {
        MapFormat::Uop
    };
    let own = |bytes: &[u8]| FileData::from(bytes.to_vec());
    let some = |bytes: &[u8]| (!bytes.is_empty()).then(|| own(bytes));
    let name = |n: &str| std::path::PathBuf::from(n);
    let paths = FacetPaths {
        facet: 1,
        map: name(&format.file_name(1)),
        map_format: format,
        staidx: name("staidx1.mul"),
        statics: name("statics1.mul"),
        tiledata: Some(name("tiledata.mul")),
        radarcol: Some(name("radarcol.mul")),
        hues: Some(name("hues.mul")),
        diffs: mul_core::facet::DiffPaths {
            mapdifl: Some(name("mapdifl1.mul")),
            mapdif: Some(name("mapdif1.mul")),
            stadifl: Some(name("stadifl1.mul")),
            stadifi: Some(name("stadifi1.mul")),
            stadif: Some(name("stadif1.mul")),
        },
    };
    let data = || FacetData {
        map: own(map),
        staidx: own(staidx),
        statics: own(statics),
        tiledata: some(tiledata),
        radarcol: some(radarcol),
        hues: some(hues),
        diffs: DiffData {
            mapdifl: some(mapdifl),
            mapdif: some(mapdif),
            stadifl: some(stadifl),
            stadifi: some(stadifi),
            stadif: some(stadif),
        },
    };
    let limits = gamedata_io::Limits::default()
        .with_max_decoded_bytes(1 << 24)
        .with_max_records(1 << 20);
    let detecting = FacetOptions::default().with_limits(limits);
    let files = match FacetFiles::from_data(paths.clone(), data(), &detecting) {
        Ok(files) => files,
        Err(e) => return e.to_string().len() as u64,
    };
    let mut acc = files.diff_index().problems.total() + format!("{files:?}").len() as u64;
    acc = acc.wrapping_add(files.data().map.len() as u64 + format.name().len() as u64);
    // Without a size, only a known size of facet 1 that the length proves is taken.
    if let Ok(detected) = files.view() {
        assert!(MapSize::known(1).any(|k| k == detected.size()));
        assert!(MapSize::preset(1).is_ok());
    }
    let side = (files.map_len() / 196).isqrt();
    let size = (flags & 2 != 0)
        .then(|| u32::try_from(side).ok())
        .flatten()
        .and_then(|side| MapSize::from_blocks(side.max(1), side.max(1)).ok());
    let mut options = FacetOptions::default()
        .with_apply_diffs(true)
        .with_limits(limits);
    options.size = size;
    // The same bytes opened again with the size and the diffs: opening must succeed as
    // it did, and the options given are the ones the views use.
    let files = FacetFiles::from_data(paths, data(), &options)
        .unwrap_or_else(|e| panic!("opened once, refused with other view options: {e}"));
    assert_eq!(files.options(), &options);
    let facet = match files.view() {
        Ok(facet) => facet,
        Err(e) => return acc.wrapping_add(e.to_string().len() as u64),
    };
    let size = facet.size();
    let blocks = size.blocks();
    acc = acc.wrapping_add(land_both_ways(&facet.map).cells);
    acc = acc.wrapping_add(statics_both_ways(&facet.statics, blocks).count);
    acc = acc.wrapping_add(facet.statics.validate(blocks).total());
    let wanted = |s: &mul_core::raw::StaticRecord| facet.has_flags(s, TileFlags::IMPASSABLE);
    let found = query::find_statics(&facet.statics, size, wanted);
    let found_par = query::find_statics_par(&facet.statics, size, wanted);
    assert_eq!(
        found, found_par,
        "find_statics and find_statics_par disagree"
    );
    acc = acc.wrapping_add(found.len() as u64);
    let picks = control.get(1..).unwrap_or_default().chunks(4).take(16);
    for (i, pick) in picks.enumerate() {
        let word = pick.iter().fold(0u32, |w, &b| (w << 8) | u32::from(b));
        let (x, y) = if i % 2 == 0 {
            (word % size.width(), (word >> 16) % size.height())
        } else {
            (word, word.rotate_left(16))
        };
        acc = acc.wrapping_add(tile_as_rendered(&facet, x, y));
    }
    acc
}

/// What a radar renderer reads at tile (x, y): the top static's colour, else the land's,
/// and the hue of the top static.
fn tile_as_rendered(facet: &Facet<'_>, x: u32, y: u32) -> u64 {
    let mut acc = facet
        .top_surface(x, y)
        .map_or(1, |z| z.map_or(2, |z| z as u64));
    let Some(cell) = facet.map.cell(x, y) else {
        return acc;
    };
    let top = facet
        .statics_at(x, y)
        .ok()
        .and_then(|s| s.max_by_key(|s| s.z));
    let colour = match (top, facet.radar.as_ref()) {
        (Some(s), Some(radar)) => radar.item(s.id.get()),
        (None, Some(radar)) => radar.land(cell.id.get()),
        _ => None,
    };
    acc = acc.wrapping_add(u64::from(colour.unwrap_or(0)));
    if let (Some(s), Some(hues)) = (top, facet.hues.as_ref()) {
        let hue = usize::from(s.hue.get());
        acc = acc.wrapping_add(hues.get(hue).map_or(3, |h| u64::from(h.table_start.get())));
    }
    acc
}
