//! Writes the Ultima Online fuzz seeds (synthetic files, this project's own) under a folder:
//! `cargo run -p gamedata-exercise --example write_mul_fuzz_seeds -- fuzz/seeds`.

use std::path::PathBuf;

use gamedata_exercise::io::join_parts;
use mul_core::MapSize;
use mul_core::synth::{self, World};

/// A 12-byte index record.
fn record(offset: u32, length: u32) -> Vec<u8> {
    [offset, length, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// `stored` (a one-chunk map UOP from the writer) with its chunk replaced by a zlib stream
/// and the entry's stored length, compression and Adler-32 set to match.
fn zlib_chunk(stored: &[u8], map: &[u8]) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    // flate2 at its default level, as in write_io_fuzz_seeds (zlib-rs, the workspace's one
    // backend: the same bytes whatever is built).
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut z, map)?;
    let stream = z.finish()?;
    let data_at = stored.len() - map.len();
    let mut out = stored.get(..data_at).ok_or("short")?.to_vec();
    // The first entry follows the table header at 0x200 + 12.
    let entry = 0x200 + 12;
    let len = u32::try_from(stream.len())?;
    out.get_mut(entry + 12..entry + 16)
        .ok_or("short")?
        .copy_from_slice(&len.to_le_bytes());
    out.get_mut(entry + 28..entry + 32)
        .ok_or("short")?
        .copy_from_slice(&adler2::adler32_slice(&stream).to_le_bytes());
    out.get_mut(entry + 32..entry + 34)
        .ok_or("short")?
        .copy_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&stream);
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds".into()),
    );
    let world = World::generate(MapSize::from_blocks(8, 8)?, 21);
    let small = World::generate(MapSize::from_blocks(4, 4)?, 22);
    let mut map = vec![4u8 - 1]; // width byte: 4 blocks
    map.extend_from_slice(&small.map);

    // Pre-alpha statics: 11-byte records, block 1 at offset 0.
    let mut pre_data = Vec::new();
    for (i, id) in (0u8..).zip([1004u16, 5, 9]) {
        pre_data.extend_from_slice(&u32::from(i).to_le_bytes()); // serial
        pre_data.extend_from_slice(&id.to_le_bytes()); // id
        pre_data.extend_from_slice(&[i, 7 - i, 0, 0, 0]); // x, y, z, hue
    }
    let pre_index = [
        record(0xFFFF_FFFF, 0),
        record(0, 33),
        record(0xFFFF_FFFF, 0),
        record(11, 11),
    ]
    .concat();

    // Multis: two 16-byte multis, an empty entry and a garbage one.
    let mut multi_data = Vec::new();
    for (id, x, y, z) in [(0x3FFFu16, -2i16, -5i16, 0i16), (1, 3, 4, 7), (2, 0, 0, 20)] {
        multi_data.extend_from_slice(&id.to_le_bytes());
        for v in [x, y, z] {
            multi_data.extend_from_slice(&v.to_le_bytes());
        }
        multi_data.extend_from_slice(&1u32.to_le_bytes());
        multi_data.extend_from_slice(&0u32.to_le_bytes());
    }
    let multi_index = [
        record(0, 32),
        record(0xFFFF_FFFF, 0),
        record(32, 16),
        record(0xFF04_0C38, 0xFFFF_FFFF),
    ]
    .concat();

    // A map UOP of 64 blocks (one short chunk), and the same with the chunk stored as zlib.
    let uop_world = World::generate(MapSize::from_blocks(4, 16)?, 23);
    let stored = mul_core::write_map_uop(&uop_world.map, 0)?;
    let compressed = zlib_chunk(&stored, &uop_world.map)?;

    // A 4 x 4-block facet with diff files patching 3 blocks (one listed twice).
    let diffs = small.diffs(3, 5);
    let patched = join_parts::<2>(&[
        &small.map,
        &small.staidx,
        &small.statics,
        &diffs.mapdifl,
        &diffs.mapdif,
        &diffs.stadifl,
        &diffs.stadifi,
        &diffs.stadif,
    ]);

    // A whole folder: the 4 x 4-block facet with its diffs, in both map forms, with and
    // without tiledata (3 MB); control: form, size given (bit 1), then tiles to look at.
    let picks: Vec<u8> = (0u8..64).map(|i| i.wrapping_mul(37)).collect();
    let small_uop = mul_core::write_map_uop(&small.map, 1)?;
    let folder = |map: &[u8], tiledata: &[u8], flags: u8| {
        join_parts::<4>(&[
            map,
            &small.staidx,
            &small.statics,
            tiledata,
            &small.radarcol,
            &small.hues,
            &diffs.mapdifl,
            &diffs.mapdif,
            &diffs.stadifl,
            &diffs.stadifi,
            &diffs.stadif,
            &[&[flags][..], &picks].concat(),
        ])
    };
    let folder_mul = folder(&small.map, &[], 2);
    let folder_uop = folder(&small_uop, &[], 3);
    let folder_tiledata = folder(&small.map, &small.tiledata, 2);

    // Sizes: the real facets' sizes in blocks and map lengths, and text.
    let mut sizes = Vec::new();
    for (w, h, facet, blocks) in [
        (896u32, 512u32, 0u32, 896 * 512 + 1),
        (768, 512, 1, 768 * 512),
        (288, 200, 2, 288 * 200),
        (320, 256, 3, 320 * 256),
        (181, 181, 4, 181 * 181),
        (160, 512, 5, 160 * 512),
    ] {
        for word in [w, h, facet, blocks * 196] {
            sizes.extend_from_slice(&word.to_le_bytes());
        }
    }
    sizes.extend_from_slice(b"7168x4096 1024 x 1024\0\0\0");

    // Round trip: 16 blocks as they are, and repeated to 4,100 (two chunks).
    let mut long_map = vec![0xFAu8];
    long_map.extend_from_slice(&small.map);
    let mut short_map = vec![0u8];
    short_map.extend_from_slice(&small.map);

    // Art: a land tile, its exact repeat, two items (one with a gap and a run), an empty
    // entry, and an entry overlapping the land tile, in a 6-entry index over the writer's
    // art.mul (its entries read from the full-size index it writes).
    let land: Vec<u16> = (0..1012u16).map(|i| i.wrapping_mul(41) & 0x7FFF).collect();
    let item: Vec<u16> = (0..6 * 5u16)
        .map(|i| if i % 4 == 0 { 0 } else { i | 0x0400 })
        .collect();
    let mut pictures = vec![mul_core::art::write::ArtPicture::Empty; 0x4000];
    pictures.splice(..1, [mul_core::art::write::ArtPicture::Land(&land)]);
    pictures.push(mul_core::art::write::ArtPicture::Item {
        width: 6,
        height: 5,
        pixels: &item,
    });
    pictures.push(mul_core::art::write::ArtPicture::Item {
        width: 3,
        height: 1,
        pixels: &[0, 7, 0],
    });
    let (full_index, art_data) = mul_core::art::write::write_art(&pictures)?;
    let entry = |n: usize| full_index.get(n * 12..n * 12 + 12).ok_or("short index");
    let art_index = [
        entry(0)?,
        entry(0)?,
        entry(0x4000)?,
        entry(0x4001)?,
        &record(u32::MAX, u32::MAX)[..],
        &record(8, 2048)[..],
    ]
    .concat();
    let art = join_parts::<4>(&[&art_index, &art_data]);
    // verdata.mul over that art: number 1 patched twice (the second wins), number 2 with
    // no byte, number 3 past the file, and a gump patch of number 0 (with its size).
    let patch = [0x11u8; 16];
    let mut verdata = 5i32.to_le_bytes().to_vec();
    for entry in [
        [4u32, 1, 104, 8, 0],
        [4, 1, 112, 8, 0],
        [4, 2, 104, 0, 0],
        [4, 3, 4000, 8, 0],
        [12, 0, 104, 16, (1 << 16) | 1],
    ] {
        for word in entry {
            verdata.extend(word.to_le_bytes());
        }
    }
    verdata.extend(patch);
    let art_verdata = join_parts::<4>(&[&art_index, &art_data, &verdata]);

    // Gumps: two gumps, a repeat, an empty entry and one overlapping the first, over the
    // writer's gumpart.mul; and the same gumps as a gumpartLegacyMUL.uop (no index).
    use mul_core::gump::write::{GumpPicture, gumps_to_uop, write_gumps};
    let frame: Vec<u16> = (0..5 * 4u16)
        .map(|i| if i == 0 { 0 } else { i | 0x8000 })
        .collect();
    let gump_pictures = [
        GumpPicture::Picture {
            width: 5,
            height: 4,
            pixels: &frame,
        },
        GumpPicture::Picture {
            width: 2,
            height: 1,
            pixels: &[0x7C00, 0x7C00],
        },
        GumpPicture::Repeat(0),
        GumpPicture::Empty,
    ];
    let (mut gump_index, gump_data) = write_gumps(&gump_pictures)?;
    let first = gump_index.get(..12).ok_or("short gump index")?;
    // The first record moved 4 bytes on: it overlaps the first gump and the second.
    let overlap = [&4u32.to_le_bytes()[..], first.get(4..).unwrap_or_default()].concat();
    let four_gumps = mul_core::Gumps::parse(&gump_index, &gump_data)?;
    let gump_uop = gumps_to_uop(&four_gumps)?.files;
    // The same gumps stored as newer clients store them (compression 3: zlib, then the BWT
    // stage) and with compression 1; and one gump's BWT stage alone.
    let compressed_uop = |how| -> Result<Vec<u8>, mul_core::DataError> {
        let uop = mul_core::gump::write::gumps_to_compressed_uop(&four_gumps, how)?.files;
        Ok(join_parts::<4>(&[&[], &uop]))
    };
    use mul_core::gump::write::GumpCompression;
    let gumps_bwt = compressed_uop(GumpCompression::ZlibBwt)?;
    let gumps_zlib = compressed_uop(GumpCompression::Zlib)?;
    // The four gumps' UOP alone, stored as is and compressed with zlib: what uo_uop reads
    // by ranges too, the gumps' sizes among the ranges.
    let gumps_zlib_alone =
        mul_core::gump::write::gumps_to_compressed_uop(&four_gumps, GumpCompression::Zlib)?.files;
    let bwt_stage = mul_core::gump::bwt::compress(gump_data.get(..40).unwrap_or_default())?;
    gump_index.extend_from_slice(&overlap);
    let gumps = join_parts::<4>(&[&gump_index, &gump_data]);
    let gumps_uop = join_parts::<4>(&[&[], &gump_uop]);

    // Animations: body 0's block (110 records of the high group) over the writer's anim.mul:
    // record 0 two frames (one with gaps and black), record 1 its exact repeat, record 2
    // empty, record 3 overlapping record 0's bytes, record 4 a frame, an empty frame and the
    // first frame again.
    use mul_core::anim::write::{AnimEntry, AnimFramePicture, write_animations};
    let palette: [u16; 256] =
        std::array::from_fn(|i| u16::try_from(i).unwrap_or(0).wrapping_mul(0x0421) & 0x7FFF);
    let blob: Vec<Option<u8>> = (0..6 * 5u8)
        .map(|i| if i % 7 == 3 { None } else { Some(i % 5) })
        .collect();
    let anim_big = AnimFramePicture {
        centre_x: 3,
        centre_y: -2,
        width: 6,
        height: 5,
        pixels: &blob,
    };
    let anim_small = AnimFramePicture {
        centre_x: 0,
        centre_y: 0,
        width: 2,
        height: 1,
        pixels: &[Some(9), Some(0)],
    };
    let anim_empty = AnimFramePicture {
        centre_x: 1,
        centre_y: 1,
        width: 0,
        height: 0,
        pixels: &[],
    };
    let (frames, with_empty) = ([anim_big, anim_small], [anim_small, anim_empty, anim_big]);
    let anim_entries: Vec<AnimEntry<'_>> = (0..110)
        .map(|record| match record {
            0 => AnimEntry::Group {
                palette: &palette,
                frames: &frames,
            },
            1 => AnimEntry::Repeat(0),
            4 => AnimEntry::Group {
                palette: &palette,
                frames: &with_empty,
            },
            _ => AnimEntry::Empty,
        })
        .collect();
    let (mut anim_index, anim_data) = write_animations(&anim_entries)?;
    // Record 3: record 0's size from offset 4.
    let size = anim_index.get(4..8).ok_or("short anim index")?.to_vec();
    let record3 = anim_index.get_mut(36..44).ok_or("short anim index")?;
    record3.copy_from_slice(&[&4u32.to_le_bytes()[..], &size].concat());
    let anims = join_parts::<4>(&[&anim_index, &anim_data]);

    // Texture maps: a 64 x 64 and a 128 x 128 picture (bit 15 set on some pixels), an exact
    // repeat, an empty entry, one of 0x1000 bytes (neither size), one overlapping the first
    // and one past the end of the data.
    let small: Vec<u16> = (0..4096u16).map(|i| i.wrapping_mul(41)).collect();
    let large: Vec<u16> = (0..16384u16).map(|i| i.wrapping_mul(7) & 0x7FFF).collect();
    let (tex_written, mut tex_data) = mul_core::texmap::write::write_texmaps(&[
        mul_core::texmap::write::TexmapPicture::Pixels(&small),
        mul_core::texmap::write::TexmapPicture::Pixels(&large),
        mul_core::texmap::write::TexmapPicture::Repeat(0),
        mul_core::texmap::write::TexmapPicture::Empty,
    ])?;
    let end = u32::try_from(tex_data.len())?;
    tex_data.extend(vec![0x5Au8; 0x1000]);
    let mut tex_index = tex_written;
    for (offset, length) in [(end, 0x1000), (2, 0x2000), (end + 0x0FFC, 0x2000)] {
        tex_index.extend(record(offset, length));
    }
    let texmaps = join_parts::<4>(&[&tex_index, &tex_data]);

    // A decoded UOP animation entry: frames 1 (3 x 2, one run of 2 pixels), 2 (empty) and
    // 4 (1 x 1), frame 3 a gap; and a sequence entry where 2 plays 5 and 5 plays 7.
    let uop_palette: [u16; 256] = std::array::from_fn(|i| 3 * u16::try_from(i).unwrap_or(0));
    let uop_pixels = [Some(0u8), Some(5), None, None, None, None];
    let uop_pixel = [Some(7u8)];
    let uop_frame = |number, centre_x, centre_y, width, height, pixels| {
        mul_core::anim::write::UopFramePicture {
            group: 2,
            number,
            palette: &uop_palette,
            picture: mul_core::anim::write::AnimFramePicture {
                centre_x,
                centre_y,
                width,
                height,
                pixels,
            },
        }
    };
    let anim_uop = mul_core::anim::write::write_uop_animation(&[
        uop_frame(1, 1, -3, 3, 2, &uop_pixels[..]),
        uop_frame(2, 0, 0, 0, 0, &[][..]),
        uop_frame(4, 0, -1, 1, 1, &uop_pixel[..]),
    ])?;
    let mut sequence = 400u32.to_le_bytes().to_vec();
    sequence.resize(52, 0);
    sequence.extend(2i32.to_le_bytes());
    for (old, new) in [(2i32, 5i32), (5, 7)] {
        sequence.extend(old.to_le_bytes());
        sequence.extend(0u32.to_le_bytes());
        sequence.extend(new.to_le_bytes());
        sequence.extend([0u8; 60]);
    }

    // TexTerr.def over 10 records: a chain, a member past the index, a comment, a line
    // that is no group.
    let mut texterr = 10u16.to_le_bytes().to_vec();
    texterr.extend_from_slice(b"# id {group}\n6 {2} 1\n3 {1, 4, 99}\n5 {6}\n6 {7}\n7 {5}\n8 9\n");

    let seeds: [(&str, &str, Vec<u8>); 32] = [
        ("uo_def", "texterr_chain_past_comment", texterr),
        ("uo_anim_uop", "three_frames_a_gap", anim_uop),
        ("uo_anim_uop", "sequence_two_replacements", sequence),
        (
            "uo_verdata",
            "art_patches_repeat_empty_past_end",
            art_verdata,
        ),
        ("uo_anim", "body_0_repeat_empty_overlap", anims),
        (
            "uo_animdata",
            "synthetic_24_items",
            mul_core::animdata::write::synthetic_animdata(),
        ),
        ("uo_art", "land_repeat_items_overlap", art),
        ("uo_gump", "repeat_empty_overlap", gumps),
        ("uo_gump", "uop_no_index", gumps_uop),
        ("uo_gump", "uop_compressed_bwt", gumps_bwt),
        ("uo_gump", "uop_compressed_zlib", gumps_zlib),
        ("uo_gump", "bwt_stage", bwt_stage),
        (
            "uo_texmap",
            "sizes_repeat_empty_bad_overlap_past_end",
            texmaps,
        ),
        ("uo_folder", "facet_4x4_blocks_mul_diffs", folder_mul),
        ("uo_folder", "facet_4x4_blocks_uop_diffs", folder_uop),
        ("uo_folder", "facet_4x4_blocks_tiledata", folder_tiledata),
        ("uo_sizes", "real_facets_and_text", sizes),
        ("uo_round_trip", "map_16_blocks", short_map),
        ("uo_round_trip", "map_16_blocks_repeated", long_map),
        ("uo_round_trip", "empty", vec![5]),
        ("uo_uop", "map_64_blocks", stored),
        ("uo_uop", "map_64_blocks_zlib", compressed),
        ("uo_uop", "gumps_plain", gump_uop.clone()),
        ("uo_uop", "gumps_zlib", gumps_zlib_alone),
        ("uo_patched", "synthetic_4x4_blocks_3_diffs", patched),
        ("uo_tiledata", "synthetic_high_seas", synth::tiledata()),
        ("uo_map", "synthetic_4x4_blocks", map),
        (
            "uo_statics",
            "synthetic_8x8_blocks",
            join_parts::<2>(&[&world.staidx, &world.statics]),
        ),
        (
            "uo_statics",
            "prealpha_shape",
            join_parts::<2>(&[&pre_index, &pre_data]),
        ),
        (
            "uo_multi",
            "sixteen_byte",
            join_parts::<2>(&[&multi_index, &multi_data]),
        ),
        ("uo_colours", "synthetic_hues", synth::hues()),
        ("uo_colours", "synthetic_radarcol", synth::radarcol()),
    ];
    for (target, name, bytes) in seeds {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), &bytes)?;
        println!("wrote {}/{name} ({} bytes)", dir.display(), bytes.len());
    }
    Ok(())
}
