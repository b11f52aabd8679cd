//! Hostile worlds written byte by byte from `docs/formats/uo.md` ("Map", "Statics",
//! "Tiledata", "Hues", "Art", "Texture maps"): every file a field of [`Files`], so that a
//! test can replace any one of them with bytes no writer would make.

use gamedata_render::PngCompression;
use gamedata_render::uo::world::{WorldCounts, WorldSource, WorldView};
use mul_core::{Art, Facet, FacetBytes, Hues, MapSize, Texmaps, TileData};

/// Land id drawn everywhere by default: art land 3, tiledata TexID 1 (a 64 x 64 map).
pub(crate) const GRASS: u16 = 3;
/// The item every default static is: a 2 x 2 opaque picture.
pub(crate) const DOT: u16 = 0x0100;
/// The colour every picture is drawn in (white, opaque).
pub(crate) const WHITE: u16 = 0x7FFF;

/// A static as written: tile (x, y) of the facet, z, id, hue.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placed {
    pub(crate) x: u32,
    pub(crate) y: u32,
    pub(crate) z: i8,
    pub(crate) id: u16,
    pub(crate) hue: u16,
}

/// A world's files.
pub(crate) struct Files {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) map: Vec<u8>,
    pub(crate) staidx: Vec<u8>,
    pub(crate) statics: Vec<u8>,
    pub(crate) tiledata: Vec<u8>,
    pub(crate) hues: Vec<u8>,
    pub(crate) artidx: Vec<u8>,
    pub(crate) art: Vec<u8>,
    pub(crate) texidx: Vec<u8>,
    pub(crate) texmaps: Vec<u8>,
}

impl Files {
    /// A `width` x `height` facet of GRASS at z 0, no statics, land art 3, item art DOT,
    /// texture map 1.
    pub(crate) fn plain(width: u32, height: u32) -> Self {
        let (artidx, art) = art_files(&[
            (u32::from(GRASS), Pic::Land),
            (0x4000 + u32::from(DOT), Pic::item(2, 2, &[(0, 2)])),
        ]);
        let (texidx, texmaps) = texmap_files(&[None, Some(vec![0x55; 0x2000])]);
        let (staidx, statics) = statics_files(width, height, &[]);
        Files {
            width,
            height,
            map: map_bytes(width, height, |_, _| (GRASS, 0)),
            staidx,
            statics,
            tiledata: tiledata_hs(|id| (0, u16::from(id == GRASS)), |_| (0, 1)),
            hues: hues(),
            artidx,
            art,
            texidx,
            texmaps,
        }
    }

    /// The facet with tiledata and hues.
    pub(crate) fn facet(&self) -> Facet<'_> {
        let size = MapSize::from_tiles(self.width, self.height).expect("a size of whole blocks");
        let bytes = FacetBytes {
            map: &self.map,
            staidx: &self.staidx,
            statics: &self.statics,
        };
        let mut facet = Facet::parse(bytes, size, None).expect("the facet parses");
        facet.tiledata = Some(TileData::parse(&self.tiledata).expect("tiledata of a known size"));
        facet.hues = Some(Hues::parse(&self.hues).expect("whole hue groups"));
        facet
    }

    pub(crate) fn art(&self) -> Art<'_> {
        Art::parse(&self.artidx, &self.art).expect("the art index parses")
    }

    pub(crate) fn texmaps(&self) -> Texmaps<'_> {
        Texmaps::parse(&self.texidx, &self.texmaps).expect("the texture map index parses")
    }
}

/// The map: blocks column by column, each a u32 header and 64 cells {u16 id, i8 z}.
pub(crate) fn map_bytes(width: u32, height: u32, cell: impl Fn(u32, u32) -> (u16, i8)) -> Vec<u8> {
    let mut out = Vec::with_capacity((width as usize / 8) * (height as usize / 8) * 196);
    for bx in 0..width / 8 {
        for by in 0..height / 8 {
            out.extend_from_slice(&0u32.to_le_bytes());
            for cy in 0..8 {
                for cx in 0..8 {
                    let (id, z) = cell(bx * 8 + cx, by * 8 + cy);
                    out.extend_from_slice(&id.to_le_bytes());
                    out.push(z as u8);
                }
            }
        }
    }
    out
}

/// One 7-byte static record at cell (`cx`, `cy`) of its block (any value: 8 and more too).
pub(crate) fn record(id: u16, cx: u8, cy: u8, z: i8, hue: u16) -> [u8; 7] {
    let [i0, i1] = id.to_le_bytes();
    let [h0, h1] = hue.to_le_bytes();
    [i0, i1, cx, cy, z as u8, h0, h1]
}

/// staidx and statics for `placed`, block by block in file order; empty blocks 0xFFFFFFFF.
pub(crate) fn statics_files(width: u32, height: u32, placed: &[Placed]) -> (Vec<u8>, Vec<u8>) {
    let mut per_block: Vec<Vec<u8>> =
        vec![Vec::new(); (width as usize / 8) * (height as usize / 8)];
    let hb = height / 8;
    for s in placed {
        let block = (s.x / 8 * hb + s.y / 8) as usize;
        per_block[block].extend_from_slice(&record(
            s.id,
            (s.x % 8) as u8,
            (s.y % 8) as u8,
            s.z,
            s.hue,
        ));
    }
    let mut index = Vec::with_capacity(per_block.len() * 12);
    let mut data = Vec::new();
    for bytes in per_block {
        let (offset, length) = if bytes.is_empty() {
            (u32::MAX, u32::MAX)
        } else {
            (data.len() as u32, bytes.len() as u32)
        };
        data.extend_from_slice(&bytes);
        for v in [offset, length, 0] {
            index.extend_from_slice(&v.to_le_bytes());
        }
    }
    (index, data)
}

/// 12-byte index records (offset, length, extra).
pub(crate) fn index(entries: &[(u32, u32)]) -> Vec<u8> {
    entries
        .iter()
        .flat_map(|&(o, l)| [o, l, 0])
        .flat_map(u32::to_le_bytes)
        .collect()
}

fn name20() -> [u8; 20] {
    let mut out = [0u8; 20];
    out[..5].copy_from_slice(b"thing");
    out
}

/// tiledata.mul, High Seas layout: `land(id)` gives (flags, TexID), `item(id)` (flags,
/// height).
pub(crate) fn tiledata_hs(
    land: impl Fn(u16) -> (u64, u16),
    item: impl Fn(u16) -> (u64, u8),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(3_188_736);
    for id in 0..0x4000u32 {
        if id % 32 == 0 {
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        let (flags, tex) = land(id as u16);
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&tex.to_le_bytes());
        out.extend_from_slice(&name20());
    }
    for id in 0..0x1_0000u32 {
        if id % 32 == 0 {
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        let (flags, height) = item(id as u16);
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.push(height);
        out.extend_from_slice(&name20());
    }
    assert_eq!(out.len(), 3_188_736);
    out
}

/// tiledata.mul, the old layout: 16,384 items only (ids from 0x4000 have no entry).
pub(crate) fn tiledata_old() -> Vec<u8> {
    let mut out = Vec::with_capacity(1_036_288);
    for id in 0..0x4000u32 {
        if id % 32 == 0 {
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&u16::from(id == u32::from(GRASS)).to_le_bytes());
        out.extend_from_slice(&name20());
    }
    for id in 0..0x4000u32 {
        if id % 32 == 0 {
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.push(1);
        out.extend_from_slice(&name20());
    }
    assert_eq!(out.len(), 1_036_288);
    out
}

/// hues.mul: one group of 8 hues.
pub(crate) fn hues() -> Vec<u8> {
    let mut out = 0u32.to_le_bytes().to_vec();
    for _ in 0..8 {
        for r in 0..32u16 {
            out.extend_from_slice(&(r << 10).to_le_bytes());
        }
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&name20());
    }
    out
}

/// An art entry.
pub(crate) enum Pic {
    /// A land tile of 1,012 white pixels (2,048 bytes, as real files have them).
    Land,
    /// Bytes as they are.
    Raw(Vec<u8>),
}

impl Pic {
    /// An item `width` x `height` whose rows all point at one row of `runs` (skip, count)
    /// of white pixels: a tall or wide picture in a few bytes.
    pub(crate) fn item(width: u16, height: u16, runs: &[(u16, u16)]) -> Pic {
        Pic::Raw(item_bytes(width, height, runs))
    }
}

/// An item entry: header, a row table of `height` zeros (every row at the body's start),
/// then one row of `runs` of white pixels and its end.
pub(crate) fn item_bytes(width: u16, height: u16, runs: &[(u16, u16)]) -> Vec<u8> {
    let mut out = 0u32.to_le_bytes().to_vec();
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.resize(out.len() + 2 * usize::from(height), 0);
    for &(skip, count) in runs {
        out.extend_from_slice(&skip.to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
        for _ in 0..count {
            out.extend_from_slice(&WHITE.to_le_bytes());
        }
    }
    out.extend_from_slice(&[0; 4]);
    out
}

/// artidx.mul and art.mul with `pictures` under their art numbers (items from 0x4000), the
/// other numbers empty up to the last.
pub(crate) fn art_files(pictures: &[(u32, Pic)]) -> (Vec<u8>, Vec<u8>) {
    let count = pictures.iter().map(|p| p.0 + 1).max().unwrap_or(0) as usize;
    let mut entries = vec![(u32::MAX, u32::MAX); count];
    let mut data = Vec::new();
    for (number, pic) in pictures {
        let bytes = match pic {
            Pic::Land => {
                let mut b: Vec<u8> = (0..1012).flat_map(|_| WHITE.to_le_bytes()).collect();
                b.resize(2048, 0);
                b
            }
            Pic::Raw(b) => b.clone(),
        };
        entries[*number as usize] = (data.len() as u32, bytes.len() as u32);
        data.extend_from_slice(&bytes);
    }
    (index(&entries), data)
}

/// texidx.mul and texmaps.mul: entry i the bytes given (`None` empty).
pub(crate) fn texmap_files(entries: &[Option<Vec<u8>>]) -> (Vec<u8>, Vec<u8>) {
    let mut records = Vec::new();
    let mut data = Vec::new();
    for e in entries {
        match e {
            Some(bytes) => {
                records.push((data.len() as u32, bytes.len() as u32));
                data.extend_from_slice(bytes);
            }
            None => records.push((u32::MAX, u32::MAX)),
        }
    }
    (index(&records), data)
}

/// `view` drawn both ways, [`WorldSource::render`] and [`WorldSource::write_png`]: the
/// picture's pixels and counts, checked to agree (the PNG decoded back).
pub(crate) fn both(source: &WorldSource<'_, '_>, view: WorldView) -> (Vec<u8>, WorldCounts) {
    let (image, counts) = source.render(view).expect("the view renders");
    let mut png = Vec::new();
    let streamed = source
        .write_png(view, PngCompression::Fast, &mut png, &|_| {})
        .expect("the view streams");
    assert_eq!(streamed, counts, "render and write_png count alike");
    let (size, decoded) = decode(&png);
    assert_eq!(size, (view.width, view.height));
    assert!(decoded == image.pixels(), "render and write_png draw alike");
    (image.pixels().to_vec(), counts)
}

/// Opaque pixels of RGBA bytes.
pub(crate) fn opaque(pixels: &[u8]) -> usize {
    pixels.chunks_exact(4).filter(|p| p[3] != 0).count()
}

/// A PNG's size and RGBA pixels.
pub(crate) fn decode(png: &[u8]) -> ((u32, u32), Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("a PNG");
    let mut out = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut out).expect("its pixels");
    out.truncate(info.buffer_size());
    ((info.width, info.height), out)
}
