//! The expectation: ClassicUO's world view drawn by brute force from
//! docs/formats/uo.md, "The client's world view (isometric)", written apart from the
//! library. Every land tile and static becomes an object with its integer depth key
//! 100 (x + y) + priority z, its pass (land, mesh statics, statics drawn the older way)
//! and its place in the client's walk; the objects are painted in that order, sorted by
//! depth, each fragment over the last (translucent ones blended over what lies below).

use mul_core::{Art, Facet, Texmaps};

use super::raster::{c5to8, light, lit, normal, rgb8, triangle};

/// What the topmost fragment of a pixel came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Kind {
    #[default]
    Nothing,
    Flat,
    Stretched,
    Static,
}

/// How closely the library must match a pixel: exactly (flat land, statics, nothing), or
/// within 1 a channel (stretched land: the light's product is rounded at the end).
pub(crate) const EXACT: u8 = 0;
pub(crate) const WITHIN_ONE: u8 = 1;

/// The counts of `WorldCounts`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub(crate) tiles_drawn: u64,
    pub(crate) statics_drawn: u64,
    pub(crate) stretched: u64,
}

/// The expected picture of a view.
pub(crate) struct Expected {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) pixels: Vec<u8>,
    pub(crate) kind: Vec<Kind>,
    pub(crate) tolerance: Vec<u8>,
    pub(crate) counts: Counts,
}

/// A view: pixel (i, j) is world point (x + i, y + j).
#[derive(Clone, Copy, Debug)]
pub(crate) struct View {
    pub(crate) x: i64,
    pub(crate) y: i64,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

/// Deliberate mistakes, to see the comparisons fail.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Faults {
    /// Split stretched quads along the other diagonal (top to bottom).
    pub(crate) other_diagonal: bool,
    /// Break depth ties the other way round (earlier drawn wins).
    pub(crate) earlier_wins: bool,
}

/// Tiledata flags (docs/formats/uo.md, "Tiledata").
const BACKGROUND: u64 = 0x1;
const TRANSLUCENT: u64 = 0x8;
const WET: u64 = 0x80;
const SURFACE: u64 = 0x200;
const BRIDGE: u64 = 0x400;
const INTERNAL: u64 = 0x1_0000;
const FOLIAGE: u64 = 0x2_0000;
const PARTIAL_HUE: u64 = 0x4_0000;
const ANIMATION: u64 = 0x100_0000;
const NO_DIAGONAL: u64 = 0x200_0000;
const MULTI_MOVABLE: u64 = 0x100_0000_0000;

/// ClassicUO's default tree list (`Game/Data/StaticFilters.cs`, `treeTiles`).
const TREES: [u16; 62] = [
    0x0C95, 0x0C96, 0x0C99, 0x0C9B, 0x0C9C, 0x0C9D, 0x0C9E, 0x0CA6, 0x0CA8, 0x0CAA, 0x0CAB, 0x0CC9,
    0x0CCA, 0x0CCB, 0x0CCC, 0x0CCD, 0x0CD0, 0x0CD3, 0x0CD6, 0x0CD8, 0x0CDA, 0x0CDD, 0x0CE0, 0x0CE3,
    0x0CE6, 0x0CF8, 0x0CFB, 0x0CFE, 0x0D01, 0x0D37, 0x0D38, 0x0D41, 0x0D42, 0x0D43, 0x0D44, 0x0D57,
    0x0D58, 0x0D59, 0x0D5A, 0x0D5B, 0x0D6E, 0x0D6F, 0x0D70, 0x0D71, 0x0D72, 0x0D84, 0x0D85, 0x0D86,
    0x0D94, 0x0D98, 0x0D9C, 0x0DA0, 0x0DA4, 0x0DA8, 0x12B6, 0x12B7, 0x12B8, 0x12B9, 0x12BA, 0x12BB,
    0x12BC, 0x12BD,
];

/// A hue as applied to a static's pixels.
#[derive(Clone, Copy, Debug)]
struct Hue {
    index: usize,
    partial: bool,
}

enum Body {
    Flat {
        id: u16,
        left: i64,
        top: i64,
    },
    Stretched {
        corners: [(i64, i64); 4],
        normals: [[f32; 3]; 4],
        tex: u32,
    },
    Static {
        id: u16,
        left: i64,
        top: i64,
        hue: Option<Hue>,
        translucent: bool,
    },
}

struct Object {
    key: i64,
    pass: u8,
    seq: usize,
    body: Body,
}

/// The inputs: the facet (tiledata required, hues optional), the art, the texture maps.
pub(crate) struct Source<'a> {
    pub(crate) facet: &'a Facet<'a>,
    pub(crate) art: &'a Art<'a>,
    pub(crate) texmaps: Option<&'a Texmaps<'a>>,
}

impl Source<'_> {
    fn side(&self) -> (i64, i64) {
        let size = self.facet.size();
        (i64::from(size.width()), i64::from(size.height()))
    }

    /// `Map.GetTileZ`: -125 for negative x or y; else block bx * (height in blocks) + by,
    /// -125 at or past the block count, else its cell (x mod 8, y mod 8).
    pub(crate) fn tile_z(&self, x: i64, y: i64) -> i32 {
        if x < 0 || y < 0 {
            return -125;
        }
        let (_, h) = self.side();
        let block = (x / 8) * (h / 8) + y / 8;
        let Ok(block) = usize::try_from(block) else {
            return -125;
        };
        match self.facet.map.block_at(block) {
            Some(b) => i32::from(b.cells[((y % 8) * 8 + x % 8) as usize].z),
            None => -125,
        }
    }

    fn land_id(&self, x: i64, y: i64) -> u16 {
        let cell = self
            .facet
            .map
            .cell(x as u32, y as u32)
            .expect("a tile inside the map");
        cell.id.get() & 0x3FFF
    }

    fn tiledata(&self) -> &mul_core::TileData<'_> {
        self.facet.tiledata.as_ref().expect("the facet's tiledata")
    }

    fn item_flags(&self, id: u16) -> (u64, u8, Vec<u8>) {
        let item = self.tiledata().item(id).expect("an item inside tiledata");
        (item.flags().bits(), item.height(), item.name().to_vec())
    }

    /// `GameObject.CanBeDrawn`, as "The client's radar map" states it.
    fn can_be_drawn(&self, id: u16) -> bool {
        if matches!(id, 0x0001 | 0x21BC | 0xA1FE..=0xA201 | 0x63D3 | 0x2198..=0x21A4) {
            return false;
        }
        if usize::from(id) >= self.tiledata().item_count() {
            return false;
        }
        let (flags, _, name) = self.item_flags(id);
        if matches!(id, 0x9E4C | 0x9E64 | 0x9E65 | 0x9E7D) {
            // Not in the crafted world: see the report on this rule.
            return flags & (BACKGROUND | SURFACE) != 0;
        }
        let nodraw = name.len() >= 6 && name[..6].eq_ignore_ascii_case(b"nodraw");
        !nodraw && flags & NO_DIAGONAL == 0
    }

    /// The stretch of land tile (x, y): its four corner heights and normals, or `None`
    /// when flat.
    fn stretch(&self, x: i64, y: i64, id: u16) -> Option<([i32; 4], [[f32; 3]; 4], u32)> {
        let land = self
            .tiledata()
            .land(id)
            .expect("a land tile inside tiledata");
        let tex = u32::from(land.texture());
        if land.flags().bits() & WET != 0 && tex == 0 {
            return None;
        }
        let texmap = self.texmaps?.texmap(tex).expect("a readable texture map");
        texmap?;
        let z = |i, j| self.tile_z(i, j);
        let at = |i, j| normal(z(i, j), z(i, j - 1), z(i + 1, j), z(i, j + 1), z(i - 1, j));
        // Corners: top, right, left, bottom.
        let places = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)];
        let found = places.map(|(i, j)| at(i, j));
        if found.iter().all(|n| !n.1) {
            return None;
        }
        Some((places.map(|(i, j)| z(i, j)), found.map(|n| n.0), tex))
    }

    /// The objects of the whole facet in the client's walk.
    fn objects(&self) -> Vec<Object> {
        let (w, h) = self.side();
        let mut out = Vec::new();
        let mut seq = 0usize;
        for bx in 0..w / 8 {
            for by in 0..h / 8 {
                let block = (bx * (h / 8) + by) as usize;
                let records = self.facet.statics.block(block).expect("a readable block");
                let records: Vec<_> = records.iter().collect();
                for cx in 0..8 {
                    for cy in 0..8 {
                        let (x, y) = (bx * 8 + cx, by * 8 + cy);
                        let here = records
                            .iter()
                            .filter(|s| i64::from(s.x) == cx && i64::from(s.y) == cy);
                        self.tile_list(x, y, here.copied(), &mut seq, &mut out);
                    }
                }
            }
        }
        out
    }

    /// Tile (x, y)'s list, sorted by priority z (land first on ties, statics in file
    /// order), walked as `AddTileToRenderList` walks it.
    fn tile_list<'r>(
        &self,
        x: i64,
        y: i64,
        statics: impl Iterator<Item = &'r mul_core::raw::StaticRecord>,
        seq: &mut usize,
        out: &mut Vec<Object>,
    ) {
        // (priority z, pass, cull height or None, body)
        let mut list: Vec<(i64, u8, Option<i64>, Body)> = Vec::new();
        let base = |z: i64| ((x - y) * 22 - 22, (x + y) * 22 - 4 * z - 22);
        let id = self.land_id(x, y);
        if id > 2 {
            let z = i64::from(self.tile_z(x, y));
            match self.stretch(x, y, id) {
                None => {
                    let (left, top) = base(z);
                    list.push((z - 2, 0, None, Body::Flat { id, left, top }));
                }
                Some((c, normals, tex)) => {
                    let [t, r, l, b] = c.map(i64::from);
                    let avg = if (t - b).abs() <= (l - r).abs() {
                        (t + b) >> 1
                    } else {
                        (l + r) >> 1
                    };
                    let (bx, by) = base(0);
                    let corners = [
                        (bx + 22, by - 4 * t),
                        (bx + 44, by + 22 - 4 * r),
                        (bx, by + 22 - 4 * l),
                        (bx + 22, by + 44 - 4 * b),
                    ];
                    let body = Body::Stretched {
                        corners,
                        normals,
                        tex,
                    };
                    list.push((avg - 2, 0, None, body));
                }
            }
        }
        for s in statics {
            let sid = s.id.get();
            if sid == 0 || sid == 0xFFFF || !self.can_be_drawn(sid) {
                continue;
            }
            let (flags, height, _) = self.item_flags(sid);
            if flags & INTERNAL != 0 {
                continue;
            }
            let z = i64::from(s.z);
            let mut pz = z;
            if flags & BACKGROUND != 0 {
                pz -= 1;
            }
            if height != 0 {
                pz += 1;
            }
            if flags & MULTI_MOVABLE != 0 {
                pz += 1;
            }
            // `CalculateObjectHeight`.
            let cull = (height != 255).then(|| {
                let mut h = i64::from(height);
                if h == 0 && flags & (BACKGROUND | SURFACE) == 0 {
                    h = 10;
                }
                if flags & BRIDGE != 0 {
                    h /= 2;
                }
                h
            });
            let older = flags & (ANIMATION | FOLIAGE) != 0 || TREES.contains(&sid);
            let raw = s.hue.get();
            let hue = if older {
                // `ShaderHueTranslator.GetHueVector`.
                let h = raw & 0x7FFF;
                assert!(h & 0x4000 == 0, "no spectral hue in the crafted worlds");
                (h != 0).then(|| Hue {
                    index: usize::from(h - 1),
                    partial: raw & 0x8000 != 0 || flags & PARTIAL_HUE != 0,
                })
            } else {
                // `ApplyMeshHue`.
                (raw != 0).then(|| Hue {
                    index: usize::from(raw - 1) % 16384,
                    partial: flags & PARTIAL_HUE != 0,
                })
            };
            let art = self.item_art(sid);
            let (w, h) = (i64::from(art.0), i64::from(art.1));
            let (bx, by) = base(z);
            let body = Body::Static {
                id: sid,
                left: bx - (w / 2 - 22),
                top: by - (h - 44),
                hue,
                translucent: flags & TRANSLUCENT != 0,
            };
            list.push((pz, if older { 2 } else { 1 }, cull, body));
        }
        list.sort_by_key(|o| o.0);
        for (pz, pass, cull, body) in list {
            if let Some(h) = cull
                && pz + h > 150
            {
                if pass == 2 {
                    // The older way stops walking the tile.
                    break;
                }
                continue;
            }
            out.push(Object {
                key: 100 * (x + y) + pz,
                pass,
                seq: *seq,
                body,
            });
            *seq += 1;
        }
    }

    /// Item `id`'s picture: width, height and its opaque pixels (x, y, raw colour).
    fn item_art(&self, id: u16) -> (u32, u32, Vec<(i64, i64, u16)>) {
        let art = self
            .art
            .item(id)
            .expect("a readable item")
            .expect("every static of the crafted worlds has art");
        let mut px = Vec::new();
        for run in art.runs() {
            let run = run.expect("a readable run");
            for (k, p) in run.pixels.iter().enumerate() {
                if p.get() != 0 {
                    px.push((i64::from(run.x) + k as i64, i64::from(run.y), p.get()));
                }
            }
        }
        (art.width(), art.height(), px)
    }

    /// Land art `id`'s 1,012 pixels placed in the 44 x 44 square.
    fn land_art(&self, id: u16) -> Vec<(i64, i64, u16)> {
        let land = self
            .art
            .land(id)
            .expect("a readable land tile")
            .expect("every land tile of the crafted worlds has art");
        let mut k = 0usize;
        let mut out = Vec::with_capacity(1012);
        for row in 0..44i64 {
            let (start, count) = if row < 22 {
                (21 - row, 2 * (row + 1))
            } else {
                (row - 22, 2 * (44 - row))
            };
            for i in 0..count {
                out.push((start + i, row, land.pixels()[k].get()));
                k += 1;
            }
        }
        out
    }

    fn hued(&self, raw: u16, hue: Option<Hue>) -> [u8; 3] {
        let Some(hue) = hue else {
            return rgb8(raw);
        };
        let (r, g, b) = ((raw >> 10) & 31, (raw >> 5) & 31, raw & 31);
        if hue.partial && !(r == g && g == b) {
            return rgb8(raw);
        }
        match self.facet.hues.as_ref().and_then(|h| h.get(hue.index)) {
            Some(entry) => rgb8(entry.colours[usize::from(r)].get()),
            None => [0, 0, 0],
        }
    }

    /// The expected picture of `view`.
    pub(crate) fn render(&self, view: View, faults: Faults) -> Expected {
        let mut objects = self.objects();
        objects.sort_by_key(|o| (o.key, o.pass, o.seq));
        if faults.earlier_wins {
            objects.sort_by_key(|o| (o.key, std::cmp::Reverse((o.pass, o.seq))));
        }
        let (w, h) = (view.width as usize, view.height as usize);
        let mut e = Expected {
            width: view.width,
            height: view.height,
            pixels: vec![0; w * h * 4],
            kind: vec![Kind::Nothing; w * h],
            tolerance: vec![EXACT; w * h],
            counts: Counts::default(),
        };
        let clip = (view.x, view.y, view.x + w as i64, view.y + h as i64);
        let inside = |px: i64, py: i64| px >= clip.0 && py >= clip.1 && px < clip.2 && py < clip.3;
        let at = |px: i64, py: i64| ((py - view.y) as usize) * w + (px - view.x) as usize;
        for o in &objects {
            match &o.body {
                Body::Flat { id, left, top } => {
                    let mut any = false;
                    for (i, j, c) in self.land_art(*id) {
                        let (px, py) = (left + i, top + j);
                        if inside(px, py) {
                            any = true;
                            put(&mut e, at(px, py), rgb8(c), Kind::Flat, EXACT);
                        }
                    }
                    e.counts.tiles_drawn += u64::from(any);
                }
                Body::Stretched {
                    corners,
                    normals,
                    tex,
                } => {
                    let texmaps = self.texmaps.expect("texture maps");
                    let map = texmaps.texmap(*tex).expect("readable").expect("present");
                    let side = map.side() as usize;
                    let uv = [(0.0f32, 0.0f32), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)];
                    let tris: [[usize; 3]; 2] = if faults.other_diagonal {
                        [[0, 1, 3], [0, 3, 2]]
                    } else {
                        [[0, 1, 2], [1, 3, 2]]
                    };
                    let mut any = false;
                    for tri in tris {
                        triangle(tri.map(|k| corners[k]), clip, |px, py, wt, ew, area| {
                            any = true;
                            let mix = |f: &dyn Fn(usize) -> f32| {
                                wt[0] * f(tri[0]) + wt[1] * f(tri[1]) + wt[2] * f(tri[2])
                            };
                            let s = mix(&|k| uv[k].0);
                            let t = mix(&|k| uv[k].1);
                            let n = [0, 1, 2].map(|c| mix(&|k| normals[k][c]));
                            // The texel exactly (docs: "We compute the texel exactly"):
                            // floor(0.5 + s (side - 1)) with s the sum of the weights of the
                            // corners whose coordinate is 1, each weight an edge value over
                            // the area.
                            let _ = (s, t);
                            let exact = |pick: &dyn Fn(usize) -> f32| {
                                let sum: i64 =
                                    (0..3).filter(|&i| pick(tri[i]) > 0.5).map(|i| ew[i]).sum();
                                let num = area + 2 * (side as i64 - 1) * sum;
                                (num.div_euclid(2 * area).max(0) as usize).min(side - 1)
                            };
                            let col = exact(&|k| uv[k].0);
                            let row = exact(&|k| uv[k].1);
                            let raw = map.pixels()[row * side + col].get();
                            let l = light(n);
                            let c = rgb8(raw).map(|v| lit(v, l));
                            put(&mut e, at(px, py), c, Kind::Stretched, WITHIN_ONE);
                        });
                    }
                    e.counts.tiles_drawn += u64::from(any);
                    e.counts.stretched += u64::from(any);
                }
                Body::Static {
                    id,
                    left,
                    top,
                    hue,
                    translucent,
                } => {
                    let mut any = false;
                    for (i, j, raw) in self.item_art(*id).2 {
                        let (px, py) = (left + i, top + j);
                        if !inside(px, py) {
                            continue;
                        }
                        any = true;
                        let c = self.hued(raw, *hue);
                        let k = at(px, py);
                        if *translucent {
                            blend(&mut e, k, c);
                        } else {
                            put(&mut e, k, c, Kind::Static, EXACT);
                        }
                    }
                    e.counts.statics_drawn += u64::from(any);
                }
            }
        }
        e
    }
}

fn put(e: &mut Expected, k: usize, c: [u8; 3], kind: Kind, tol: u8) {
    e.pixels[k * 4..k * 4 + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
    e.kind[k] = kind;
    e.tolerance[k] = tol;
}

/// out = src x 178/255 + dst x 77/255, rounded to nearest (never a half: 255 is odd).
fn blend(e: &mut Expected, k: usize, c: [u8; 3]) {
    let below = e.kind[k];
    for (ch, &src) in c.iter().enumerate() {
        let d = u32::from(e.pixels[k * 4 + ch]);
        e.pixels[k * 4 + ch] = ((178 * u32::from(src) + 77 * d + 127) / 255) as u8;
    }
    e.pixels[k * 4 + 3] = 255;
    e.kind[k] = Kind::Static;
    // Over nothing the blend is over black (docs: "a translucent static blends over black
    // where nothing lies below it"): d is 0 there, exact as elsewhere.
    let _ = below;
}

/// The 5-to-8-bit table's 32 values, for the hand checks.
pub(crate) fn table() -> [u8; 32] {
    std::array::from_fn(|v| c5to8(v as u16))
}
