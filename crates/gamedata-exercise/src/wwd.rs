//! Walks every reading path of `wap-core` over arbitrary bytes: what the fuzz targets
//! (`fuzz/fuzz_targets/wwd_level.rs`, `wwd_main_block.rs`, `wwd_rez.rs`, `wwd_image_names.rs`,
//! `wwd_pid.rs`) and
//! the regression replay run.
//! Returns a number derived from what it read; errors are results. It must never panic,
//! on any input.

// Fuzzing drivers: their sums only keep results alive (wrapping on purpose), and their
// coordinates come from sizes the parsers checked. Their assertions are the properties
// the fuzzer checks: a failed one is a finding.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod rez_ranged;

use std::io::Write as _;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use gamedata_io::{CodePage, Limits, decode};

use wap_core::raw::{FLAG_COMPRESS, HEADER_LEN};
use wap_core::wwd::Header;
use wap_core::wwd::Level;
use wap_core::wwd::{LevelFile, LevelOptions};

/// Opens `data` as a level file with a 64 MiB limit and walks it (see [`walk`]); also reads
/// the header alone.
pub fn level(data: &[u8]) -> u64 {
    let parsed = Header::parse(data);
    let mut acc = match &parsed {
        Ok(h) => decode(h.author(), CodePage::Cp1250).len() as u64 + u64::from(h.plane_count()),
        Err(e) => e.to_string().len() as u64,
    };
    let limits = Limits::default().with_max_decoded_bytes(64 << 20);
    match LevelFile::from_data(data.to_vec(), &LevelOptions::new().with_limits(limits)) {
        Ok(level) => {
            assert_eq!(level.file(), data);
            // The header read alone is the level's, field for field.
            let alone = parsed
                .as_ref()
                .expect("a level that opens has a header that parses");
            assert_eq!(alone.raw(), level.header().raw());
            assert_eq!(alone.plane_count(), level.header().plane_count());
            acc = acc.wrapping_add(u64::from(level.compressed()));
            acc = acc.wrapping_add(format!("{level:?}").len() as u64);
            acc = acc.wrapping_add(level.main_block().len() as u64);
            acc = acc.wrapping_add(level.trailer().len() as u64);
            acc = acc.wrapping_add(level.checksum_class().name().len() as u64);
            acc = acc.wrapping_add(u64::from(level.header().start().0.unsigned_abs()));
            acc = acc.wrapping_add(walk(level.image()));
        }
        Err(e) => acc = acc.wrapping_add(e.to_string().len() as u64),
    }
    acc
}

/// Treats `data` as a main block followed by two words, the plane count and the tile
/// property table's absolute offset: puts a header in front (planes at byte 1,524, as the
/// writer lays them out), compresses the block as zlib, opens the file and walks it.
/// Mutations of `data` reach the section parsers past the compression.
pub fn main_block(data: &[u8]) -> u64 {
    let split = data.len().saturating_sub(8);
    let (block, tail) = data.split_at(split);
    let word = |at: usize| {
        tail.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u32::from_le_bytes)
    };
    let mut header = [0u8; HEADER_LEN];
    let mut put = |at: usize, value: u32| {
        if let Some(slot) = header.get_mut(at..at + 4) {
            slot.copy_from_slice(&value.to_le_bytes());
        }
    };
    let base = u32::try_from(HEADER_LEN).unwrap_or(u32::MAX);
    put(0, base);
    put(8, FLAG_COMPRESS);
    put(0x2DC, word(0));
    put(0x2E0, base);
    put(0x2E4, word(4));
    put(0x2E8, u32::try_from(block.len()).unwrap_or(u32::MAX));
    let mut encoder = ZlibEncoder::new(Vec::from(header), Compression::fast());
    let Ok(file) = encoder.write_all(block).and_then(|()| encoder.finish()) else {
        return 0;
    };
    level(&file)
}

/// Walks a level image: every plane's tiles, image-set names and objects, the tile
/// property table (records and the attribute of a few pixels), the game, the layout, and
/// the owned copy with its writer (wap-core's `write` feature, always on here).
pub fn walk(image: &[u8]) -> u64 {
    let level = match Level::parse(image) {
        Ok(level) => level,
        Err(e) => return e.to_string().len() as u64,
    };
    let mut acc = level.game().name().len() as u64;
    let header = level.header();
    acc = acc.wrapping_add(format!("{level:?} {header:?}").len() as u64);
    acc = acc.wrapping_add(u64::from(header.uses_z()) + header.name().len() as u64);
    acc = acc.wrapping_add(header.birth().len() as u64 + header.name_lossy().len() as u64);
    assert_eq!(level.plane_headers().len(), level.plane_count());
    assert_eq!(level.image().len(), image.len());
    for plane in level.planes() {
        let plane = match plane {
            Ok(p) => p,
            Err(e) => {
                acc = acc.wrapping_add(e.to_string().len() as u64);
                continue;
            }
        };
        // The first plane of its name is found by name (ASCII case ignored).
        let name = String::from_utf8_lossy(plane.name()).into_owned();
        if name.is_ascii()
            && !name.contains('\0')
            && let Ok(Some(named)) = level.plane_named(&name.to_ascii_lowercase())
        {
            assert!(named.name().eq_ignore_ascii_case(plane.name()));
        }
        let (w, h) = plane.size_px();
        let (mx, my) = plane.movement_percent();
        let (s1, s2) = plane.scroll_words();
        acc = acc
            .wrapping_add(format!("{plane:?}").len() as u64)
            .wrapping_add(u64::from(plane.flags().bits()) + u64::from(plane.is_main()))
            .wrapping_add((w ^ h ^ mx ^ my ^ plane.fill_color() ^ plane.z()) as u64)
            .wrapping_add(u64::from(s1 ^ s2 ^ plane.image_set_count()));
        // A row holds the plane's tiles of that row.
        for y in [0, plane.tiles_high() / 2, plane.tiles_high()] {
            match plane.row(y) {
                Some(row) => {
                    assert_eq!(row.len() as u64, u64::from(plane.tiles_wide()));
                    for (x, t) in (0u32..).zip(row).step_by(7) {
                        assert_eq!(plane.tile_raw(x, y), Some(t.get()));
                    }
                }
                None => assert!(y >= plane.tiles_high()),
            }
        }
        let (invisible, filled) = plane.special_tile_counts();
        acc = acc.wrapping_add((invisible + filled) as u64);
        acc = acc.wrapping_add(
            plane
                .tile(plane.tiles_wide() / 2, 0)
                .map_or(1, |t| u64::from(t.raw())),
        );
        for name in plane.image_sets() {
            acc = acc.wrapping_add(name.map_or(3, |n| n.len() as u64));
        }
        for object in plane.objects() {
            acc = acc.wrapping_add(match object {
                Ok(o) => {
                    for n in 1..=12 {
                        assert_eq!(o.user_flag(n), o.user_flags() & (1 << (n - 1)) != 0);
                    }
                    assert!(!o.user_flag(0) && !o.user_flag(13));
                    let (x, y) = o.position();
                    [
                        o.logic().len() as u64,
                        u64::from(o.hit_type_flags().bits()),
                        format!("{o:?}").len() as u64,
                        (o.id() ^ x ^ y ^ o.z()) as u64,
                        u64::from(o.add_flags().bits() ^ o.dynamic_flags().bits()),
                        u64::from(o.draw_flags().bits()),
                        o.object_type().name().map_or(0, |n| n.len() as u64),
                        o.offset() as u64,
                    ]
                    .into_iter()
                    .fold(0u64, u64::wrapping_add)
                }
                Err(e) => e.to_string().len() as u64,
            });
        }
    }
    match level.tile_properties() {
        Ok(table) => match table.collect() {
            Ok(index) => {
                for (id, record) in (0..=u16::MAX).zip(index.records()) {
                    assert_eq!(record.index(), usize::from(id));
                    assert_eq!(
                        index.attribute_at(id, 0, 0),
                        Some(record.attribute_at(0, 0))
                    );
                    let value = record.attribute_at(1, 1);
                    let attribute = wap_core::wwd::Attribute::from_raw(value);
                    assert_eq!(attribute.raw(), value);
                    acc = acc.wrapping_add(attribute.name().len() as u64 + record.offset() as u64);
                    let (w, h) = record.size();
                    let (x, y) = (w / 2, h.saturating_sub(1));
                    let value = record
                        .attribute_at(i32::try_from(x).unwrap_or(0), i32::try_from(y).unwrap_or(0));
                    acc = acc.wrapping_add(u64::from(value.unsigned_abs()));
                }
            }
            Err(e) => acc = acc.wrapping_add(e.to_string().len() as u64),
        },
        Err(e) => acc = acc.wrapping_add(e.to_string().len() as u64),
    }
    let layout = level.layout();
    acc = acc.wrapping_add((layout.gaps.len() + layout.overlaps.len()) as u64);
    acc = acc.wrapping_add(u64::from(layout.is_canonical()) + format!("{layout:?}").len() as u64);
    if let Ok(data) = wap_core::wwd::LevelData::from_level(&level) {
        acc = acc.wrapping_add(data.main_block().map_or(0, |b| b.len() as u64));
    }
    acc
}

/// The round trip parse -> write -> parse: `data` opened as a level file; a level that reads
/// whole (every plane, object and tile property) is copied ([`wap_core::wwd::LevelData`]),
/// written compressed or not (as the input's length is odd or even), and must read back as the same
/// planes and tile properties, with the same main block, and write again as the same bytes.
pub fn round_trip(data: &[u8]) -> u64 {
    use wap_core::wwd::LevelData;
    let limits = Limits::default().with_max_decoded_bytes(64 << 20);
    let Ok(file) = LevelFile::from_data(data.to_vec(), &LevelOptions::new().with_limits(limits))
    else {
        return 0;
    };
    let Ok(level) = file.view() else {
        return 1;
    };
    let Ok(copy) = LevelData::from_level(&level) else {
        return 2;
    };
    let compress = data.len() % 2 == 1;
    let Ok(written) = copy.to_file(compress) else {
        return 3;
    };
    let again = LevelFile::from_data(written.clone(), &LevelOptions::new().with_limits(limits))
        .expect("a written level file opens");
    let level_again = again.view().expect("a written level reads");
    let copy_again = LevelData::from_level(&level_again).expect("a written level copies");
    // The sections read back as they were, but for where they lie: the writer lays them out
    // in the editor's order, whatever the input's order, so the offsets in the plane
    // headers are the writer's. The level header's layout words (offsets, sizes, checksum,
    // compression flag) are too, so the headers are checked by writing again: the same
    // bytes.
    assert!(
        unplaced(&copy_again.planes) == unplaced(&copy.planes),
        "the planes read back as written"
    );
    assert!(
        copy_again.tile_properties == copy.tile_properties,
        "the tile properties read back as written"
    );
    let rewritten = copy_again
        .to_file(compress)
        .expect("a level read back writes");
    assert!(
        rewritten == written,
        "writing the level read back gives the same bytes"
    );
    let block = copy.main_block().expect("the main block writes");
    assert_eq!(again.main_block(), &block[..], "the main block reads back");
    written.len() as u64
}

/// The planes with their section offsets cleared.
fn unplaced(planes: &[wap_core::wwd::PlaneData]) -> Vec<wap_core::wwd::PlaneData> {
    let mut planes = planes.to_vec();
    for plane in &mut planes {
        plane.header.tiles_offset = 0.into();
        plane.header.image_sets_offset = 0.into();
        plane.header.objects_offset = 0.into();
    }
    planes
}

/// `data` as a REZ archive indexed as an image source (`ImageSource::index`): its folders
/// by path and by image-set key. Checked: at most one folder a 18 bytes; every folder
/// (the first 64) is found by its path in any case, and by its key the folder that trying
/// every cut of the key into folder names, shortest first, finds (for keys of 2 to 10
/// parts: the brute force the index replaces); each frame number finds its first image;
/// no lookup compares more than one folder with the name.
pub fn image_names(data: &[u8]) -> u64 {
    use wap_core::images::ImageSource;
    use wap_core::rez::RezFile;
    let source = match RezFile::from_data(data.to_vec(), &Default::default()) {
        Ok(archive) => ImageSource::Archive(archive),
        Err(e) => return e.to_string().len() as u64,
    };
    let index = match source.index(&wap_core::RezOptions::default()) {
        Ok(index) => index,
        Err(e) => return e.to_string().len() as u64,
    };
    // Each folder but the root has an entry of at least 18 bytes of its own.
    assert!(
        index.len() <= data.len() / 18 + 1,
        "{} folders",
        index.len()
    );
    assert!(index.problems().kept().len() <= 100);
    let mut acc = index.len() as u64 + index.problems().total();
    let mut lookups = 0u64;
    for folder in index.folders().take(64) {
        let path = index.path(folder);
        assert!(path.len() <= 260, "a path of {} bytes indexed", path.len());
        // A folder's path finds it, in any case.
        lookups += 2;
        assert_eq!(index.folder(&path), Some(folder), "{path:?}");
        assert_eq!(
            index.folder(&path.to_ascii_lowercase()),
            Some(folder),
            "{path:?}"
        );
        if !path.is_empty() {
            // Its key finds the folder of that key whose names' lengths come first: the one
            // that trying every cut of the key, shortest first, finds.
            let key = path.replace('/', "_");
            lookups += 1;
            let won = index.find_set(&key).expect("a folder's key finds a folder");
            assert!(index.path(won).replace('/', "_").eq_ignore_ascii_case(&key));
            let parts: Vec<&str> = key.split('_').collect();
            if (2..=10).contains(&parts.len()) {
                let mut best: Option<(Vec<usize>, wap_core::images::FolderId)> = None;
                for cuts in 0u32..1 << (parts.len() - 1) {
                    let mut names = vec![String::from(parts[0])];
                    for (i, part) in parts.iter().enumerate().skip(1) {
                        if cuts & (1 << (i - 1)) != 0 {
                            names.push((*part).to_owned());
                        } else if let Some(last) = names.last_mut() {
                            last.push('_');
                            last.push_str(part);
                        }
                    }
                    // A folder's name is never empty: a cut that makes one names none.
                    if names.iter().any(String::is_empty) {
                        continue;
                    }
                    lookups += 1;
                    if let Some(found) = index.folder(&names.join("/")) {
                        let lengths: Vec<usize> = names.iter().map(String::len).collect();
                        if best.as_ref().is_none_or(|(b, _)| lengths < *b) {
                            best = Some((lengths, found));
                        }
                    }
                }
                assert_eq!(best.map(|(_, f)| f), Some(won), "{key:?}");
            }
        }
        // Frames: each number's first image, -1 the first of the lowest number.
        if let Ok(frames) = index.frames(folder) {
            let lowest = (0..frames.len()).filter_map(|i| frames.number(i)).min();
            let minus_one = frames.get(-1);
            assert_eq!(minus_one.and_then(|i| frames.number(i)), lowest);
            assert!(minus_one.is_none_or(|m| (0..m).all(|i| frames.number(i) != lowest)));
            for i in 0..frames.len().min(64) {
                if let Some(n) = frames.number(i) {
                    let first = frames.get(i64::from(n)).expect("a number present is found");
                    assert!(first <= i);
                    assert_eq!(frames.number(first), Some(n));
                    assert!(frames.candidates(i64::from(n)).any(|c| c == i));
                }
                if let Ok(Some(bytes)) = index.image(&frames, i) {
                    acc = acc.wrapping_add(bytes.len() as u64);
                }
            }
        }
        acc = acc.wrapping_add(path.len() as u64);
    }
    // One folder compared a lookup at most (two 64-bit keyed hashes do not meet here).
    assert!(
        index.checks() <= lookups,
        "{} checks for {lookups} lookups",
        index.checks()
    );
    acc
}

/// `data` as a REZ archive, read by ranges as it is read whole (`rez_ranged::by_ranges`),
/// walked whole and each listed file found again by its path; and
/// when its last byte is odd, the same archive with every directory of the root pointed
/// back at the root's own entries (a tree that points into itself). Checked: a walk ends,
/// listing no more items than the archive has bytes for (an entry is at least 17 bytes);
/// a file found again by a path the walk gives has that name; in the self-pointing
/// archive only the root's own files are listed, and every directory of the root is
/// reported as a loop.
pub fn rez(data: &[u8]) -> u64 {
    use wap_core::error::{ErrorKind, RezProblem};
    use wap_core::rez::{Rez, RezEntry};
    let by_ranges = rez_ranged::by_ranges(data);
    let rez = match Rez::parse(data) {
        Ok(rez) => rez,
        Err(e) => return e.to_string().len() as u64,
    };
    let bound = data.len() / 17 + 1;
    let mut acc = by_ranges;
    let mut items = 0usize;
    for item in rez.walk(&rez.root()) {
        items += 1;
        assert!(
            items <= bound,
            "a walk of {} bytes passed {bound} items",
            data.len()
        );
        match item {
            Ok((path, file)) => {
                // Found again by its path (the first of equal names, which may be another
                // entry, or lie past a bad one): a file found there has that name.
                if items <= 64
                    && let Ok(Some(RezEntry::File(again))) = rez.find(&path)
                {
                    assert!(again.file_name().eq_ignore_ascii_case(&file.file_name()));
                }
                acc = acc.wrapping_add(file.bytes.len() as u64 + path.len() as u64);
            }
            Err(e) => acc = acc.wrapping_add(e.to_string().len() as u64),
        }
    }
    let root = rez.root();
    // The property needs the root's entries past the header (patching them then leaves the
    // header as it is).
    if data.last().is_some_and(|b| b % 2 == 1)
        && root.offset as usize >= wap_core::raw::REZ_HEADER_LEN
    {
        let mut looped = data.to_vec();
        let mut dirs = 0usize;
        for entry in rez.entries(&root).flatten() {
            if let RezEntry::Dir(d) = entry
                && let Some(slot) = looped.get_mut(d.at + 4..d.at + 8)
            {
                slot.copy_from_slice(&root.offset.to_le_bytes());
                // A table too short for one entry is read at once, not checked for loops;
                // a name past the path cap is refused before.
                let max = usize::try_from(wap_core::RezOptions::DEFAULT_MAX_PATH_BYTES)
                    .unwrap_or(usize::MAX);
                let fits = d.name_lossy().len() <= max;
                dirs += usize::from(d.size >= wap_core::rez::MIN_ENTRY && fits);
            }
        }
        let again = Rez::parse(&looped).expect("the same header parses");
        let (mut loops, mut listed) = (0usize, 0usize);
        for item in again.walk(&again.root()) {
            match item {
                Ok((path, _)) => {
                    assert!(!path.contains('/'), "{path} listed below a looping root");
                    listed += 1;
                }
                Err(e) => {
                    if let ErrorKind::Rez(RezProblem::Loop { .. }) = e.kind {
                        loops += 1;
                    }
                }
            }
        }
        assert_eq!(loops, dirs, "every directory of the root loops");
        acc = acc.wrapping_add((loops + listed) as u64);
    }
    acc
}

/// An ANI animation: its frames walked as [`wap_core::Ani::parse`] checked them; the count
/// read equals the header's, the total equals the frames' sum, every frame lies inside the
/// input, the frame at a time is where the sums put it; played on a set of frames, it
/// ends within its budget or says it ran out; written again by [`wap_core::write_ani`] it
/// reads back the same frames.
pub fn ani(data: &[u8]) -> u64 {
    use wap_core::rez::{Ani, AniFrameSpec, write_ani};
    let a = match Ani::parse(data) {
        Ok(a) => a,
        Err(e) => return e.to_string().len() as u64,
    };
    let frames: Vec<_> = a.frames().collect();
    assert_eq!(frames.len() as u64, u64::from(a.frame_count()));
    let total: u64 = frames.iter().map(|f| f.shown_ms()).sum();
    assert_eq!(a.total_ms(), total);
    let (start, len) = a.frames_span();
    assert!(start <= len && len == data.len());
    let range = data.as_ptr_range();
    for f in &frames {
        let record = std::ptr::from_ref(f.record()).cast::<u8>();
        assert!(range.contains(&record));
        if let Some(s) = f.sound() {
            assert!(s.is_empty() || range.contains(&s.as_ptr()));
            assert!(!s.contains(&0));
        }
    }
    // The frame at a few times: the one whose span holds the time, looped.
    let picks = [
        0u64,
        1,
        total / 2,
        total.saturating_sub(1),
        total.saturating_mul(3) + 7,
    ];
    for t in picks {
        let got = a.frame_at_ms(t);
        if total == 0 {
            assert!(got.is_none());
            continue;
        }
        let mut left = t % total;
        let want = frames.iter().find(|f| {
            let d = f.shown_ms();
            let here = left < d;
            left = left.saturating_sub(d);
            here
        });
        assert_eq!(got.as_ref(), want);
    }
    // Played on a small set from a few frames: an answer, or the budget spent.
    let set = wap_core::Frames::numbered(&[0, 1, 2, 5]);
    for (t, start) in [
        (0u64, -1i64),
        (total.saturating_mul(5) + 3, 2),
        (u64::MAX, 9),
    ] {
        let mut budget = 4_096;
        let played = a.play(t, Some(&set), start, &mut budget);
        assert!(played.is_some() || budget == 0 || frames.is_empty());
        assert!(!(frames.is_empty() && played.is_some()));
    }
    let specs: Vec<AniFrameSpec<'_>> = frames
        .iter()
        .map(|f| (f.image(), f.duration_ms(), f.sound()))
        .collect();
    let written = write_ani(a.image_set(), &specs);
    let again = Ani::parse(&written).expect("a written animation parses");
    let again_specs: Vec<AniFrameSpec<'_>> = again
        .frames()
        .map(|f| (f.image(), f.duration_ms(), f.sound()))
        .collect();
    assert_eq!(again_specs, specs);
    assert_eq!(again.image_set(), a.image_set());
    total.wrapping_add(frames.len() as u64)
}

/// `data` as a PID image, decoded within a 16 MiB limit, then written by wap-core's writer
/// (RLE or plain as the input's length is odd or even) and decoded again. Checked: the
/// image read back has the same size, offset and palette, and the same pixels where they
/// are drawn, a pixel being drawn when it was and is not the key index 0 of an image that
/// has transparent pixels.
pub fn pid(data: &[u8]) -> u64 {
    use wap_core::rez::{Pid, write_pid};
    let image = match Pid::parse(data) {
        Ok(image) => image,
        Err(e) => return e.to_string().len() as u64,
    };
    let limits = Limits::default().with_max_decoded_bytes(16 << 20);
    let pixels = match image.decode(&limits) {
        Ok(pixels) => pixels,
        Err(e) => return e.to_string().len() as u64,
    };
    let palette: Option<[u8; 768]> = image.palette().map(|p| {
        let mut flat = [0u8; 768];
        for (slot, c) in flat.chunks_exact_mut(3).zip(p.colours()) {
            slot.copy_from_slice(c);
        }
        flat
    });
    let rle = data.len() % 2 == 1;
    let written = write_pid(
        &pixels,
        image.offset(),
        image.flags(),
        palette.as_ref(),
        rle,
    );
    let again = Pid::parse(&written).expect("a written PID parses");
    assert_eq!(
        (again.width(), again.height()),
        (image.width(), image.height())
    );
    assert_eq!(again.offset(), image.offset());
    assert_eq!(again.palette(), image.palette());
    let back = again.decode(&limits).expect("a written PID decodes");
    let keyed = pixels.opaque.iter().any(|&o| !o);
    for (i, (&o, &index)) in pixels.opaque.iter().zip(&pixels.indices).enumerate() {
        let drawn = o && !(keyed && index == 0);
        assert_eq!(back.opaque[i], drawn, "pixel {i}: drawn");
        if drawn {
            assert_eq!(back.indices[i], index, "pixel {i}: index");
        }
    }
    written.len() as u64 + pixels.indices.len() as u64
}
