//! An independent expectation of a WAP32 level's picture: the engine's rules
//! (`docs/formats/wap32.md`, "Levels", each with its source in the engine's code) applied
//! tile by tile and object by object, painted back to front into a buffer, over an
//! archive whose every image this file made. It shares no code with the renderer: the
//! names, frame numbers, order, placement and the camera are worked out here from the
//! level's fields and the list of images; only the level's bytes are read through
//! wap-core.

use std::collections::{BTreeMap, HashMap};

use gamedata_render::wap_core::synth::palette;
use gamedata_render::wap_core::{ImageSource, Level, Limits, RezFile};
use gamedata_render::wwd::{Scene, SceneOptions, View};
use gamedata_render::{Region, RgbaImage};
use gamedata_testkit::ani::{Record, bytes as ani_bytes, frame_at};
use gamedata_testkit::rez::{Builder, Entry};

/// An image of the test's archive: its path without `.PID` (`LEVEL1/IMAGES/X/FRAME001`),
/// size, offset and pixels (a palette index, or `None` for transparent), row by row.
#[derive(Clone, Debug)]
pub(crate) struct RefImage {
    pub path: String,
    pub width: u32,
    pub height: u32,
    pub offset: (i32, i32),
    pub pixels: Vec<Option<u8>>,
}

/// FNV-1a of `text`: the test's own source of lopsided numbers.
fn hash(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

impl RefImage {
    /// An image at `path` of `width x height` pixels whose offset and pixels tell how it
    /// was placed: the offset lopsided (from the path, -9 to 9 across, -12 to 4 down), the
    /// colours a gradient across and down that no mirror or flip leaves alone, and the
    /// top-left corner (three pixels) and the lower half of the right edge transparent.
    pub(crate) fn lopsided(path: &str, width: u32, height: u32) -> Self {
        let h = hash(path);
        let offset = ((h % 19) as i32 - 9, ((h >> 8) % 17) as i32 - 12);
        let base = h >> 16;
        let mut pixels = Vec::new();
        for y in 0..height {
            for x in 0..width {
                let clear = x + y < 2 || (x + 1 == width && y >= height / 2 && width > 2);
                let index = 16 + (base + 3 * x + 7 * y) % 240;
                pixels.push((!clear).then_some(index as u8));
            }
        }
        RefImage {
            path: path.to_owned(),
            width,
            height,
            offset,
            pixels,
        }
    }
}

/// The test's archive: its images (each folder's in the order given, which is the order
/// stored), the REZ bytes, and the palette stored at each palette path.
pub(crate) struct RefArchive {
    pub images: Vec<RefImage>,
    pub source: ImageSource,
    /// Each folder by its key (`/` as `_`).
    keys: HashMap<String, String>,
    /// The first image stored of each folder and number, and each folder's lowest number.
    numbered: HashMap<(String, i64), usize>,
    lowest: HashMap<String, i64>,
    /// Each folder's frame numbers.
    numbers: HashMap<String, Vec<u32>>,
    /// The animations stored: path (`LEVEL1/ANIS/X/Y.ANI`) and records.
    anis: Vec<(String, Vec<Record>)>,
    colours: [u8; 768],
}

/// A folder of the archive being written: its subfolders and files by name.
#[derive(Default)]
struct Folder {
    folders: BTreeMap<String, Folder>,
    /// (name, extension, bytes) in stored order.
    files: Vec<(String, String, Vec<u8>)>,
}

impl Folder {
    fn at(&mut self, path: &str) -> &mut Folder {
        path.split('/')
            .filter(|p| !p.is_empty())
            .fold(self, |f, part| {
                f.folders.entry(part.to_owned()).or_default()
            })
    }

    /// Writes the folder's table (its subfolders' first, in reverse name order, so that
    /// the stored order is not alphabetical); returns its offset and size.
    fn write(&self, b: &mut Builder) -> (u32, u32) {
        let mut subs = Vec::new();
        for (name, folder) in self.folders.iter().rev() {
            subs.push((name.clone(), folder.write(b)));
        }
        let data: Vec<(u32, u32)> = self.files.iter().map(|(_, _, d)| b.data(d)).collect();
        let mut entries = Vec::new();
        for ((name, ext, _), data) in self.files.iter().zip(&data) {
            entries.push(Entry::File {
                name: name.as_bytes(),
                ext: ext.as_bytes(),
                data: *data,
            });
        }
        for (name, table) in &subs {
            entries.push(Entry::Dir {
                name: name.as_bytes(),
                table: *table,
            });
        }
        b.table(&entries)
    }
}

impl RefArchive {
    /// An archive of `images` (each folder's stored in the order given), the test palette
    /// at each of `palettes`, each image carrying the test palette itself when
    /// `own_palettes` (as Gruntz's images are drawn, its levels naming no palette), and the
    /// animations `anis` (path, records).
    pub(crate) fn build_full(
        images: Vec<RefImage>,
        palettes: &[&str],
        own_palettes: bool,
        anis: Vec<(String, Vec<Record>)>,
    ) -> Self {
        use wap_core::{PidFlags, PidPixels, write_pid};
        let colours = palette();
        let mut root = Folder::default();
        // Each folder (path, `/`-separated, upper case) and its images in stored order.
        let mut folders: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, image) in images.iter().enumerate() {
            let (folder, name) = image.path.rsplit_once('/').unwrap();
            let pixels = PidPixels {
                width: image.width,
                height: image.height,
                indices: image.pixels.iter().map(|p| p.unwrap_or(0)).collect(),
                opaque: image.pixels.iter().map(Option::is_some).collect(),
            };
            let own = own_palettes.then_some(&colours);
            let pid = write_pid(&pixels, image.offset, PidFlags::empty(), own, i % 2 == 0);
            root.at(folder)
                .files
                .push((name.to_owned(), "PID".into(), pid));
            folders
                .entry(folder.to_ascii_uppercase())
                .or_default()
                .push(i);
        }
        for path in palettes {
            let (folder, name) = path.rsplit_once('/').unwrap();
            let (name, ext) = name.rsplit_once('.').unwrap();
            root.at(folder)
                .files
                .push((name.to_owned(), ext.to_owned(), colours.to_vec()));
        }
        for (path, records) in &anis {
            let (folder, name) = path.rsplit_once('/').unwrap();
            let (name, ext) = name.rsplit_once('.').unwrap();
            root.at(folder)
                .files
                .push((name.to_owned(), ext.to_owned(), ani_bytes(b"", records)));
        }
        let mut b = Builder::new();
        let table = root.write(&mut b);
        let rez = b.finish(table);
        let keys = folders
            .keys()
            .map(|f| (f.replace('/', "_"), f.clone()))
            .collect();
        let number = |i: usize| -> i64 {
            let name = images[i].path.rsplit('/').next().unwrap();
            let digits: String = name
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().unwrap_or(0)
        };
        let mut numbered = HashMap::new();
        let mut lowest: HashMap<String, i64> = HashMap::new();
        let mut numbers: HashMap<String, Vec<u32>> = HashMap::new();
        for (folder, list) in &folders {
            for &i in list {
                let n = number(i);
                numbers.entry(folder.clone()).or_default().push(n as u32);
                numbered.entry((folder.clone(), n)).or_insert(i);
                let low = lowest.entry(folder.clone()).or_insert(n);
                *low = (*low).min(n);
            }
        }
        RefArchive {
            images,
            source: ImageSource::Archive(RezFile::from_data(rez, &Default::default()).unwrap()),
            keys,
            numbered,
            lowest,
            numbers,
            anis,
            colours,
        }
    }

    /// The image frame `frame` of folder `path` draws: the images numbered by the first
    /// run of digits of their names (none: 0), the first stored of a number; -1 the
    /// lowest number.
    fn frame(&self, path: &str, frame: i64) -> Option<&RefImage> {
        let folder = path.to_ascii_uppercase();
        let wanted = if frame == -1 {
            *self.lowest.get(&folder)?
        } else {
            frame
        };
        self.numbered
            .get(&(folder, wanted))
            .map(|&i| &self.images[i])
    }

    fn rgba(&self, index: u8) -> [u8; 4] {
        let k = usize::from(index) * 3;
        [
            self.colours[k],
            self.colours[k + 1],
            self.colours[k + 2],
            255,
        ]
    }
}

/// What the picture shows.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Camera {
    /// The whole level at `tile_px` output pixels a tile side of the main plane.
    Whole { tile_px: u32 },
    /// The screen with its top-left at main-plane pixel (x, y).
    View(View),
}

/// A plane as the expectation draws it.
struct RefPlane<'a> {
    tiles: Vec<u32>,
    wide: i64,
    high: i64,
    tile: (i64, i64),
    wrap: (bool, bool),
    fill: u8,
    sets: Vec<Option<String>>,
    /// The plane pixel at the picture's game pixel (0, 0).
    origin: (i64, i64),
    archive: &'a RefArchive,
}

/// An object as the expectation draws it: its image's rectangle in picture game pixels.
struct RefSprite<'a> {
    left: i64,
    top: i64,
    image: &'a RefImage,
    mirror: bool,
    invert: bool,
}

enum RefLayer<'a> {
    Plane(RefPlane<'a>),
    Sprite(RefSprite<'a>),
}

/// A stored path as `/`-separated text without leading or trailing slashes.
fn clean(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .split(['/', '\\'])
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

/// One axis of a plane's window, as `RecomputePlaneCoords` (gruntz-decomp
/// `src/DDrawMgr/LevelPlane.cpp`) works it out, written here step by step with its loops:
/// the centre as truncated, and the plane pixel at the screen's first column (or row).
fn window(scaled: f32, wrap: bool, size: i64, screen: i64) -> (i64, i64) {
    let mut s = scaled;
    if wrap {
        while s < 0.0 {
            s += size as f32;
        }
        while s >= size as f32 {
            s -= size as f32;
        }
    } else if s < 0.0 {
        s = 0.0;
    } else if size as f32 <= s {
        s = (size - 1) as f32;
    }
    let snapped = s as i64;
    let mut left = snapped - screen / 2;
    if left < 0 {
        left = if wrap { size + left } else { 0 };
    }
    let right = left + screen - 1;
    if right >= size && !wrap {
        left -= right - size + 1;
    }
    (snapped, left)
}

/// `level`'s layers in the engine's order as `camera` shows them, and how output pixels
/// map to game pixels (tile width, tile height, output pixels a tile).
pub(crate) struct Expected<'a> {
    /// Tiles of the drawn planes drawn (an image found, or the fill colour), each once,
    /// and objects drawn with their image.
    pub(crate) drawn: (u64, u64),
    order: Vec<RefLayer<'a>>,
    scale: (i64, i64, i64),
    archive: &'a RefArchive,
}

/// The expectation of `level`'s picture as `camera` shows it, drawn from `archive` by the
/// engine's rules (no markers).
pub(crate) fn expected<'a>(
    level: &Level<'_>,
    archive: &'a RefArchive,
    camera: Camera,
    time: Option<u64>,
) -> Expected<'a> {
    let header = level.header();
    let tiles_folder = clean(header.image_dir());
    let prefixes: Vec<(String, String)> = header
        .image_set_prefixes()
        .iter()
        .filter(|(p, s)| !p.is_empty() && !s.is_empty())
        .map(|(p, s)| (String::from_utf8_lossy(p).into_owned(), clean(s)))
        .collect();
    // The folder of an object's image set: the prefix replaced by its folder, `_` for
    // `/`, matched against the archive's folders joined the same way (in the test's
    // archives, as in CLAW.REZ, no two folders join to one key).
    let object_folder = |set: &[u8]| -> String {
        let set = String::from_utf8_lossy(set).into_owned();
        let key = prefixes
            .iter()
            .find_map(|(prefix, folder)| {
                set.strip_prefix(prefix.as_str())
                    .map(|rest| format!("{}{rest}", folder.replace('/', "_")))
            })
            .unwrap_or_else(|| format!("{}_{set}", tiles_folder.replace('/', "_")));
        let key = key.to_ascii_uppercase();
        archive.keys.get(&key).cloned().unwrap_or(key)
    };
    let animations = crate::engine_anim::by_key(&archive.anis, &prefixes);
    let planes: Vec<_> = level.planes().map(Result::unwrap).collect();
    let main = planes
        .iter()
        .position(|p| p.raw().flags.get() & 1 != 0)
        .unwrap();
    let main_plane = &planes[main];
    let size = |p: &gamedata_render::wap_core::Plane<'_>| {
        let (tw, th) = p.tile_size();
        (
            i64::from(tw) * i64::from(p.tiles_wide()),
            i64::from(th) * i64::from(p.tiles_high()),
        )
    };
    // Each plane's origin and how output pixels map to game pixels.
    let (origins, scale): (Vec<(i64, i64)>, (i64, i64, i64)) = match camera {
        Camera::Whole { tile_px } => {
            let (tw, th) = main_plane.tile_size();
            (
                vec![(0, 0); planes.len()],
                (i64::from(tw), i64::from(th), i64::from(tile_px)),
            )
        }
        Camera::View(view) => {
            let (w, h) = (i64::from(view.width), i64::from(view.height));
            let flags = main_plane.raw().flags.get();
            let (mw, mh) = size(main_plane);
            let (centre_x, _) = window((i64::from(view.x) + w / 2) as f32, flags & 4 != 0, mw, w);
            let (centre_y, _) = window((i64::from(view.y) + h / 2) as f32, flags & 8 != 0, mh, h);
            let origins = planes
                .iter()
                .map(|p| {
                    let flags = p.raw().flags.get();
                    let (px, py) = (
                        p.raw().movement_x_percent.get(),
                        p.raw().movement_y_percent.get(),
                    );
                    let (sx, sy) = if flags & 1 != 0 {
                        (centre_x as f32, centre_y as f32)
                    } else {
                        (
                            centre_x as f32 * (px as f32 * 0.01f32),
                            centre_y as f32 * (py as f32 * 0.01f32),
                        )
                    };
                    let (pw, ph) = size(p);
                    (
                        window(sx, flags & 4 != 0, pw, w).1,
                        window(sy, flags & 8 != 0, ph, h).1,
                    )
                })
                .collect();
            (origins, (1, 1, 1))
        }
    };
    // The layers: planes in order with their z, objects with theirs.
    let mut plane_layers = Vec::new();
    let mut objects = Vec::new();
    let mut tiles_drawn = 0u64;
    for (index, plane) in planes.iter().enumerate() {
        let raw = plane.raw();
        let (tw, th) = plane.tile_size();
        let sets = plane
            .image_sets()
            .map(|s| s.ok().map(|s| format!("{tiles_folder}/{}", clean(s))))
            .collect();
        let layer = (raw.flags.get() & 2 == 0).then(|| RefPlane {
            tiles: plane.tiles().iter().map(|t| t.get()).collect(),
            wide: i64::from(plane.tiles_wide()),
            high: i64::from(plane.tiles_high()),
            tile: (i64::from(tw), i64::from(th)),
            wrap: (raw.flags.get() & 4 != 0, raw.flags.get() & 8 != 0),
            fill: plane.fill_color() as u8,
            sets,
            origin: origins[index],
            archive,
        });
        if let Some(layer) = &layer {
            tiles_drawn += layer
                .tiles
                .iter()
                .filter(|&&v| match v {
                    0xFFFF_FFFF => false,
                    0xEEEE_EEEE => true,
                    v => layer
                        .sets
                        .get((v >> 16) as usize)
                        .cloned()
                        .flatten()
                        .is_some_and(|s| archive.frame(&s, i64::from(v & 0xFFFF)).is_some()),
                })
                .count() as u64;
        }
        plane_layers.push((plane.z(), layer));
        let (pw, ph) = size(plane);
        for object in plane.objects() {
            let object = object.unwrap();
            let raw = object.raw();
            let (x, y) = (i64::from(raw.x.get()), i64::from(raw.y.get()));
            let flags = raw.draw_flags.get();
            // Created inside the plane and with a logic; drawn unless hidden.
            if x < 0 || y < 0 || x >= pw || y >= ph || object.logic().is_empty() {
                continue;
            }
            if flags & 1 != 0 || object.image_set().is_empty() {
                continue;
            }
            let folder = object_folder(object.image_set());
            let mut frame = i64::from(raw.i.get());
            // At a time, the frame its animation shows then (none below 0).
            let animation = String::from_utf8_lossy(object.animation()).to_ascii_uppercase();
            if let (Some(ms), Some(records)) = (time, animations.get(&animation)) {
                // The set's numbers; none for a folder the archive lacks.
                let set = archive.numbers.get(&folder.to_ascii_uppercase());
                frame = frame_at(records, set.map(Vec::as_slice), frame, ms, 1 << 24).unwrap();
                if frame < 0 {
                    continue;
                }
            }
            let Some(image) = archive.frame(&folder, frame) else {
                continue;
            };
            let (mirror, invert) = (flags & 2 != 0, flags & 4 != 0);
            let (w, h) = (i64::from(image.width), i64::from(image.height));
            let (ox, oy) = (i64::from(image.offset.0), i64::from(image.offset.1));
            let left = x - w / 2 + if mirror { -ox } else { ox } - origins[index].0;
            let top = y - h / 2 + if invert { -oy } else { oy } - origins[index].1;
            objects.push((
                object.z(),
                RefSprite {
                    left,
                    top,
                    image,
                    mirror,
                    invert,
                },
            ));
        }
    }
    let objects_drawn = objects.len() as u64;
    objects.sort_by_key(|(z, _)| *z);
    let mut objects: std::collections::VecDeque<_> = objects.into();
    let mut order: Vec<RefLayer<'_>> = Vec::new();
    let uses_z = header.flags() & 1 != 0;
    for (index, (z, layer)) in plane_layers.into_iter().enumerate() {
        if uses_z && index > 0 {
            while objects.front().is_some_and(|(oz, _)| *oz < z) {
                order.push(RefLayer::Sprite(objects.pop_front().unwrap().1));
            }
        }
        if !uses_z && index == main + 1 {
            order.extend(objects.drain(..).map(|(_, s)| RefLayer::Sprite(s)));
        }
        if let Some(layer) = layer {
            order.push(RefLayer::Plane(layer));
        }
    }
    order.extend(objects.drain(..).map(|(_, s)| RefLayer::Sprite(s)));
    Expected {
        drawn: (tiles_drawn, objects_drawn),
        order,
        scale,
        archive,
    }
}

impl Expected<'_> {
    /// The expected pixels of `region`, the layers painted back to front.
    pub(crate) fn paint(&self, region: Region) -> RgbaImage {
        let (order, scale, archive) = (&self.order, self.scale, self.archive);
        let (w, h) = (region.width as usize, region.height as usize);
        let mut out = vec![[0u8, 0, 0, 255]; w * h];
        let (tw, th, per) = scale;
        let gxs: Vec<i64> = (0..w as i64)
            .map(|dx| (i64::from(region.x) + dx) * tw / per)
            .collect();
        let gys: Vec<i64> = (0..h as i64)
            .map(|dy| (i64::from(region.y) + dy) * th / per)
            .collect();
        for layer in order {
            match layer {
                RefLayer::Plane(p) => {
                    let (pw, ph) = (p.wide * p.tile.0, p.high * p.tile.1);
                    for (dy, &gy) in gys.iter().enumerate() {
                        let py = gy + p.origin.1;
                        let py = if p.wrap.1 { py.rem_euclid(ph) } else { py };
                        if py < 0 || py >= ph {
                            continue;
                        }
                        for (dx, &gx) in gxs.iter().enumerate() {
                            let px = gx + p.origin.0;
                            let px = if p.wrap.0 { px.rem_euclid(pw) } else { px };
                            if px < 0 || px >= pw {
                                continue;
                            }
                            let value =
                                p.tiles[((py / p.tile.1) * p.wide + px / p.tile.0) as usize];
                            let colour = match value {
                                0xFFFF_FFFF => None,
                                0xEEEE_EEEE => Some(p.fill),
                                v => {
                                    let set = p.sets.get((v >> 16) as usize).cloned().flatten();
                                    set.and_then(|s| p.archive.frame(&s, i64::from(v & 0xFFFF)))
                                        .and_then(|im| {
                                            let (ix, iy) = (px % p.tile.0, py % p.tile.1);
                                            (ix < i64::from(im.width) && iy < i64::from(im.height))
                                                .then(|| {
                                                    im.pixels
                                                        [(iy * i64::from(im.width) + ix) as usize]
                                                })
                                                .flatten()
                                        })
                                }
                            };
                            if let Some(c) = colour {
                                out[dy * w + dx] = p.archive.rgba(c);
                            }
                        }
                    }
                }
                RefLayer::Sprite(s) => {
                    let (iw, ih) = (i64::from(s.image.width), i64::from(s.image.height));
                    // The region's columns and rows whose game pixel is inside the image.
                    let x0 = gxs.partition_point(|&g| g < s.left);
                    let x1 = gxs.partition_point(|&g| g < s.left + iw);
                    let y0 = gys.partition_point(|&g| g < s.top);
                    let y1 = gys.partition_point(|&g| g < s.top + ih);
                    for dy in y0..y1 {
                        let iy = gys[dy] - s.top;
                        let iy = if s.invert { ih - 1 - iy } else { iy };
                        for dx in x0..x1 {
                            let ix = gxs[dx] - s.left;
                            let ix = if s.mirror { iw - 1 - ix } else { ix };
                            if let Some(c) = s.image.pixels[(iy * iw + ix) as usize] {
                                out[dy * w + dx] = archive.rgba(c);
                            }
                        }
                    }
                }
            }
        }
        RgbaImage::from_pixels(region.width, region.height, out.concat()).unwrap()
    }
}

/// The renderer's scene of `level` for `camera` at `time`, markers off.
pub(crate) fn rendered<'l>(
    level: &Level<'l>,
    archive: &RefArchive,
    camera: Camera,
    time: Option<u64>,
) -> Scene<'l> {
    let options = match camera {
        Camera::Whole { tile_px } => SceneOptions {
            tile_px: Some(tile_px),
            time,
            ..SceneOptions::default()
        },
        Camera::View(view) => SceneOptions {
            view: Some(view),
            time,
            ..SceneOptions::default()
        },
    };
    Scene::new(level, &archive.source, &options, &Limits::default()).unwrap()
}

/// Asserts the renderer's and the expectation's pixels of each of `regions` are equal
/// for `camera`, naming the first that differs and how many do.
pub(crate) fn assert_same(
    level: &Level<'_>,
    archive: &RefArchive,
    camera: Camera,
    regions: &[Region],
    what: &str,
) {
    assert_same_at(level, archive, camera, None, regions, what);
}

/// The same at `time` milliseconds of the objects' animations.
pub(crate) fn assert_same_at(
    level: &Level<'_>,
    archive: &RefArchive,
    camera: Camera,
    time: Option<u64>,
    regions: &[Region],
    what: &str,
) {
    let expected = expected(level, archive, camera, time);
    let scene = rendered(level, archive, camera, time);
    let report = scene.report();
    assert_eq!(
        (report.tiles_drawn, report.objects_drawn),
        expected.drawn,
        "{what}, {camera:?}, {time:?} ms: tiles and objects drawn"
    );
    for &region in regions {
        let want = expected.paint(region);
        let got = scene.rect(region).unwrap();
        let (want, got) = (want.pixels(), got.pixels());
        let differ: Vec<usize> = (0..want.len() / 4)
            .filter(|&i| want[i * 4..i * 4 + 4] != got[i * 4..i * 4 + 4])
            .collect();
        if let Some(&first) = differ.first() {
            let (x, y) = (first as u32 % region.width, first as u32 / region.width);
            panic!(
                "{what}, {camera:?}, {time:?} ms, {region}: {} pixels differ; first at ({}, {}): want {:?}, got {:?}",
                differ.len(),
                region.x + x,
                region.y + y,
                &want[first * 4..first * 4 + 4],
                &got[first * 4..first * 4 + 4]
            );
        }
    }
}
