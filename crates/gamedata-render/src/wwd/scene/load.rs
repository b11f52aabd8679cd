//! Finding and decoding a scene's images, each once, and the layers they make: a plane's
//! tiles, an object's sprite.

use std::borrow::Cow;
use std::collections::HashMap;

use wap_core::{
    DrawFlags, FolderId, Frames, ImageIndex, ImageNames, Limits, Object, Pid, PlaneFlags, Tile,
};

use super::anim::Animating;
use super::layers::{PlaneLayer, Sprite};
use super::pixels::Image;
use super::report::{MAX_LISTED, MAX_NAME, SceneReport};

/// Side of an object's marker, in game pixels (libwap32's placeholder is 32 x 32).
const MARKER_SIDE: i64 = 32;

/// The images of `folder` by frame number, listed once and kept in `folders` (a folder
/// that cannot be listed has none).
fn listed<'f>(
    folders: &'f mut HashMap<FolderId, Frames>,
    index: &ImageIndex<'_>,
    folder: FolderId,
) -> &'f Frames {
    folders
        .entry(folder)
        .or_insert_with(|| index.frames(folder).unwrap_or_default())
}

/// Finds, reads and decodes images, each once, within a budget of decoded bytes: every
/// name through the source's index, each folder's listing read once, each image decoded
/// once whatever the number of tiles and objects that use it.
pub(super) struct Loader<'a> {
    pub(super) index: ImageIndex<'a>,
    pub(super) palette: Option<[[u8; 3]; 256]>,
    pub(super) limits: Limits,
    decoded: u64,
    pub(super) images: Vec<Image>,
    /// The image each frame asked for draws (or none), by folder and frame number: the
    /// first of the frame's candidates that decodes, found once.
    pub(super) resolved: HashMap<(FolderId, i64), Option<usize>>,
    /// Each image decoded (or not), by folder and position in its folder.
    by_file: HashMap<(FolderId, usize), Option<usize>>,
    /// Each image decoded (or not), by the address and length of its bytes in an archive.
    by_bytes: HashMap<(usize, usize), Option<usize>>,
    /// Each image decoded (or not), by its disk file's device and inode.
    by_disk_file: HashMap<(u64, u64), Option<usize>>,
    pub(super) folders: HashMap<FolderId, Frames>,
    /// Tile set folders by path, image sets by key, each found once.
    paths: HashMap<String, Option<FolderId>>,
    sets: HashMap<String, Option<FolderId>>,
    pub(super) report: SceneReport,
    /// With a time, the animations played.
    pub(super) animating: Option<Animating<'a>>,
}

impl<'a> Loader<'a> {
    pub(super) fn new(
        index: ImageIndex<'a>,
        palette: Option<[[u8; 3]; 256]>,
        limits: &Limits,
    ) -> Self {
        Loader {
            index,
            palette,
            limits: *limits,
            decoded: 0,
            images: Vec::new(),
            resolved: HashMap::new(),
            by_file: HashMap::new(),
            by_bytes: HashMap::new(),
            by_disk_file: HashMap::new(),
            folders: HashMap::new(),
            paths: HashMap::new(),
            sets: HashMap::new(),
            report: SceneReport::default(),
            animating: None,
        }
    }

    /// The image frame `frame` of `folder` draws, found once: the first of the frame's
    /// candidates ([`Frames::candidates`]) that decodes, as the engine keeps the first
    /// image of a number that loads and frame -1 is the lowest number loaded.
    pub(super) fn frame(&mut self, folder: FolderId, frame: i64) -> Option<usize> {
        if let Some(done) = self.resolved.get(&(folder, frame)) {
            return *done;
        }
        let frames = listed(&mut self.folders, &self.index, folder);
        // Each (folder, frame) is resolved once, and a number's candidates are its own
        // images: all resolutions of a folder visit its images at most twice (once for
        // their number, once for -1), each decoded once.
        let candidates: Vec<usize> = frames.candidates(frame).collect();
        let mut image = None;
        for at in candidates {
            image = self.image_at(folder, at);
            if image.is_some() {
                break;
            }
        }
        self.resolved.insert((folder, frame), image);
        image
    }

    /// The frame number an object whose animation string is `animation`, image set
    /// `folder` and level frame `frame` shows at the scene's time
    /// ([`Animating::frame_at`]); `None` without a time, when the string names no
    /// animation, or when its animation cannot be read or played within the budget
    /// (counted unplayed). Counts the animated objects.
    pub(super) fn animated(
        &mut self,
        animation: &[u8],
        names: &ImageNames,
        folder: Option<FolderId>,
        frame: i64,
    ) -> Option<i64> {
        let (index, folders) = (&self.index, &mut self.folders);
        let playing = self.animating.as_mut()?;
        let answer = playing.frame_at(index, names, (animation, folder, frame), |f| {
            listed(folders, index, f)
        })?;
        let report = &mut self.report;
        match answer {
            Some(_) => report.animated = report.animated.saturating_add(1),
            None => report.unplayed = report.unplayed.saturating_add(1),
        }
        answer
    }

    /// Image `at` of `folder`, decoded once.
    fn image_at(&mut self, folder: FolderId, at: usize) -> Option<usize> {
        if let Some(done) = self.by_file.get(&(folder, at)) {
            return *done;
        }
        let image = self.decode(folder, at);
        self.by_file.insert((folder, at), image);
        image
    }

    fn decode(&mut self, folder: FolderId, at: usize) -> Option<usize> {
        let frames = self.folders.get(&folder)?;
        // A disk file reached by several names (links) is one image, read once.
        let file = self.index.image_identity(frames, at);
        if let Some(done) = file.and_then(|k| self.by_disk_file.get(&k)) {
            return *done;
        }
        let bytes = self.index.image(frames, at).ok()??;
        // Entries over the same bytes of an archive are one image, decoded once.
        let same = match &bytes {
            Cow::Borrowed(b) => Some((b.as_ptr() as usize, b.len())),
            Cow::Owned(_) => None,
        };
        if let Some(done) = same.and_then(|k| self.by_bytes.get(&k)) {
            return *done;
        }
        let image = self.decode_bytes(&bytes);
        if let Some(key) = same {
            self.by_bytes.insert(key, image);
        }
        if let Some(key) = file {
            self.by_disk_file.insert(key, image);
        }
        image
    }

    /// Decodes a PID's bytes into an image, charging its pixels to the budget whether the
    /// decode succeeds or not (an image whose data ends early costs its fill all the same).
    fn decode_bytes(&mut self, bytes: &[u8]) -> Option<usize> {
        let pid = Pid::parse(bytes).ok()?;
        // Four bytes a pixel kept, and while decoding one each of indices and mask.
        let kept = pid.pixel_count().saturating_mul(4);
        let peak = self
            .decoded
            .saturating_add(kept)
            .saturating_add(pid.pixel_count().saturating_mul(2));
        self.limits.check_decoded("level images", peak).ok()?;
        self.decoded = self.decoded.saturating_add(kept);
        let pixels = pid.decode(&Limits::unlimited()).ok()?;
        let palette = self.palette.or_else(|| pid.palette().map(|p| *p.colours()));
        let rgba = pixels
            .indices
            .iter()
            .zip(&pixels.opaque)
            .map(|(&i, &o)| {
                let [r, g, b] = palette.map_or([i; 3], |p| {
                    p.get(usize::from(i)).copied().unwrap_or_default()
                });
                [r, g, b, if o { 255 } else { 0 }]
            })
            .collect();
        let (x, y) = pid.offset();
        self.images.push(Image::new(
            i64::from(pixels.width),
            i64::from(pixels.height),
            (i64::from(x), i64::from(y)),
            rgba,
        ));
        Some(self.images.len().saturating_sub(1))
    }

    /// Notes `n` tiles or objects missing image `what`: counted, and listed the first time
    /// up to [`MAX_LISTED`], each name cut at [`MAX_NAME`] bytes.
    fn missing(&mut self, what: String, n: u64) {
        self.report.missing_images = self.report.missing_images.saturating_add(n);
        if self.report.missing.len() >= MAX_LISTED {
            return;
        }
        let what = cut(what);
        if !self.report.missing.contains(&what) {
            self.report.missing.push(what);
        }
    }

    /// Whether `name` may name a folder: no longer than the index's
    /// [`ImageIndex::max_path_bytes`] (a longer one is missing without a lookup, and not
    /// kept).
    fn may_name(&self, name: &str) -> bool {
        u64::try_from(name.len()).is_ok_and(|n| n <= self.index.max_path_bytes())
    }

    /// The folder at `path` (a tile set), found once.
    fn folder(&mut self, path: &str) -> Option<FolderId> {
        if !self.may_name(path) {
            return None;
        }
        once(&mut self.paths, path, |p| self.index.folder(p))
    }

    /// The folder of an object image set's key, found once.
    fn set_folder(&mut self, key: &str) -> Option<FolderId> {
        if !self.may_name(key) {
            return None;
        }
        once(&mut self.sets, key, |k| self.index.find_set(k))
    }

    /// The sprite `object` of a plane `plane_size` pixels large draws, as the engine
    /// creates and places it, its top-left moved by `-origin` (the plane pixel at the
    /// picture's origin); `None` for an object the engine does not create or draw (outside
    /// its plane, without a logic, hidden, without an image set) or whose image is
    /// missing and `markers` is off. Counts it drawn or missing.
    pub(super) fn sprite(
        &mut self,
        object: &Object<'_>,
        names: &ImageNames,
        plane_size: (i64, i64),
        origin: (i64, i64),
        markers: bool,
    ) -> Option<Sprite> {
        let (x, y) = object.position();
        let (x, y) = (i64::from(x), i64::from(y));
        // gruntz-decomp `src/DDrawMgr/LevelPlane.cpp`, `ReadPlaneObjects`: an object outside
        // its plane or with no logic is not created; draw flag 1 hides one
        // (`src/Image/CImage.cpp`, `RenderImage`).
        if x < 0 || y < 0 || x >= plane_size.0 || y >= plane_size.1 {
            return None;
        }
        let flags = object.draw_flags();
        if object.logic().is_empty()
            || object.image_set().is_empty()
            || flags.contains(DrawFlags::NO_DRAW)
        {
            return None;
        }
        let (mirror, invert) = (
            flags.contains(DrawFlags::MIRROR),
            flags.contains(DrawFlags::INVERT),
        );
        let key = names.object_set(object.image_set());
        let mut frame = i64::from(object.raw().i.get());
        let folder = self.set_folder(&key);
        // At a time, the frame its animation shows then; a number below 0 is none.
        let animated = self.animated(object.animation(), names, folder, frame);
        let image = match animated {
            Some(n) => {
                frame = n;
                folder.and_then(|f| (n >= 0).then(|| self.frame(f, n)).flatten())
            }
            None => folder.and_then(|f| self.frame(f, frame)),
        };
        let (x, y) = (x.saturating_sub(origin.0), y.saturating_sub(origin.1));
        match image.and_then(|i| self.images.get(i).map(|im| (i, im))) {
            Some((i, im)) => {
                self.report.objects_drawn = self.report.objects_drawn.saturating_add(1);
                // Centred on its position (half the size, rounded down), moved by the
                // image's offset; mirrored, the x offset is negated, upside down the y
                // offset (`src/Image/CImage.cpp`, the flipped blits).
                let (dx, dy) = im.offset;
                let dx = if mirror { dx.saturating_neg() } else { dx };
                let dy = if invert { dy.saturating_neg() } else { dy };
                Some(Sprite {
                    left: x.saturating_sub(im.width / 2).saturating_add(dx),
                    top: y.saturating_sub(im.height / 2).saturating_add(dy),
                    width: im.width,
                    height: im.height,
                    image: Some(i),
                    mirror,
                    invert,
                })
            }
            None => {
                if self.report.missing.len() < MAX_LISTED {
                    let name = cut(folder.map_or(key, |f| self.index.path(f)));
                    self.missing(format!("{name} frame {frame}"), 1);
                } else {
                    self.report.missing_images = self.report.missing_images.saturating_add(1);
                }
                markers.then_some(Sprite {
                    left: x.saturating_sub(MARKER_SIDE / 2),
                    top: y.saturating_sub(MARKER_SIDE / 2),
                    width: MARKER_SIDE,
                    height: MARKER_SIDE,
                    image: None,
                    mirror: false,
                    invert: false,
                })
            }
        }
    }

    /// A plane's layer: its cells and the image of each tile value it uses, found once;
    /// counts its tiles drawn and missing. `None` for a plane whose tile size is not 1 to
    /// 1,024 or that has no tiles.
    pub(super) fn plane_layer<'l>(
        &mut self,
        plane: &wap_core::Plane<'l>,
        names: &ImageNames,
        origin: (i64, i64),
    ) -> Option<PlaneLayer<'l>> {
        let (tw, th) = plane.tile_size();
        let tile = match (u32::try_from(tw), u32::try_from(th)) {
            (Ok(w @ 1..=1024), Ok(h @ 1..=1024)) => (i64::from(w), i64::from(h)),
            _ => return None,
        };
        // A plane of no tiles draws nothing (and has no size to wrap by).
        if plane.tiles_wide() == 0 || plane.tiles_high() == 0 {
            return None;
        }
        // Each tile set's folder, found once; its name for reports, cut.
        let mut sets = Vec::new();
        let mut set_names = Vec::new();
        for set in plane.image_sets() {
            let path = set.map(|s| names.tile_folder(s)).unwrap_or_default();
            sets.push(self.folder(&path));
            set_names.push(cut(path));
        }
        // Each tile's image found (each image decoded once), counted; the first missing
        // ones listed, each value once.
        let cells = plane.tiles();
        let mut last: Option<(u32, bool)> = None;
        let mut listed: Vec<u32> = Vec::new();
        for value in cells.iter().map(|t| t.get()) {
            let found = match last {
                Some((v, found)) if v == value => found,
                _ => {
                    let found = match Tile::from_raw(value) {
                        Tile::Invisible | Tile::Filled => true,
                        Tile::Image { set, id } => sets
                            .get(usize::from(set))
                            .copied()
                            .flatten()
                            .and_then(|f| self.frame(f, i64::from(id)))
                            .is_some(),
                    };
                    last = Some((value, found));
                    found
                }
            };
            match Tile::from_raw(value) {
                Tile::Invisible => {}
                Tile::Filled => self.report.tiles_drawn = self.report.tiles_drawn.saturating_add(1),
                Tile::Image { .. } if found => {
                    self.report.tiles_drawn = self.report.tiles_drawn.saturating_add(1);
                }
                Tile::Image { set, id } => {
                    if self.report.missing.len() < MAX_LISTED && !listed.contains(&value) {
                        listed.push(value);
                        let name = set_names.get(usize::from(set)).map_or("", String::as_str);
                        self.missing(format!("{name} frame {id}"), 1);
                    } else {
                        self.report.missing_images = self.report.missing_images.saturating_add(1);
                    }
                }
            }
        }
        let fill = u8::try_from(plane.fill_color()).unwrap_or(0);
        let [r, g, b] = self
            .palette
            .and_then(|p| p.get(usize::from(fill)).copied())
            .unwrap_or([fill; 3]);
        let flags = plane.flags();
        Some(PlaneLayer {
            tile,
            tiles: (i64::from(plane.tiles_wide()), i64::from(plane.tiles_high())),
            wrap: (
                flags.contains(PlaneFlags::WRAP_X),
                flags.contains(PlaneFlags::WRAP_Y),
            ),
            origin,
            cells,
            fill: [r, g, b, 255],
            sets,
        })
    }
}

/// What `find` gives for `name`, asked once and kept in `found`.
fn once(
    found: &mut HashMap<String, Option<FolderId>>,
    name: &str,
    find: impl FnOnce(&str) -> Option<FolderId>,
) -> Option<FolderId> {
    if let Some(done) = found.get(name) {
        return *done;
    }
    let folder = find(name);
    found.insert(name.to_owned(), folder);
    folder
}

/// `name` cut at [`MAX_NAME`] bytes (on a character's boundary), ending in `…` when cut.
fn cut(mut name: String) -> String {
    if name.len() > MAX_NAME {
        let mut at = MAX_NAME;
        while !name.is_char_boundary(at) {
            at = at.saturating_sub(1);
        }
        name.truncate(at);
        name.push('…');
    }
    name
}
