//! The level's header from the map's properties, a tileset as the import reads it, and a
//! tile layer as a plane: its properties, then its cells read one by one straight into the
//! plane's tiles (no list of the layer's cells is made).

use std::collections::HashMap;

use wap_core::raw::{PLANE_HEADER_LEN, PlaneHeader, WwdHeader};
use wap_core::{Limits, PlaneData};
use zerocopy::FromZeros;

use super::element::{Element, Props, TileProps, bad, csv};
use crate::TiledError;

/// A tileset as the import reads it: what its cells and tile objects need of it, its
/// tiles' elements dropped.
pub(super) struct Tiles<'a> {
    pub(super) name: String,
    pub(super) first: u32,
    /// The tile set it holds (`None`: the fill tileset; a name `""`: objects' images).
    pub(super) set: Option<SetName>,
    /// Each local id's raw tile id (`wwd_tile`).
    pub(super) ids: HashMap<u32, u16>,
    pub(super) count: u32,
    /// Tile objects of it are placed by their top-left corner (`objectalignment`).
    pub(super) top_left: bool,
    /// Each tile's image size and properties, by local id: kept only when tile objects of
    /// it are read (`top_left`), the only use of them.
    pub(super) tiles: HashMap<u32, Tile<'a>>,
}

/// The tile set a tileset holds (`wwd_image_set`), as the planes look it up.
pub(super) struct SetName {
    pub(super) name: String,
    /// The name's key among the tilesets' distinct names ([`Tilesets::add`]).
    key: usize,
    /// The index a name `set N` stands for (an image set the export could not name).
    numbered: Option<usize>,
}

/// What a tile object needs of its tile: its image's width and height (`None`: missing or
/// not a count) and its properties.
pub(super) struct Tile<'a> {
    pub(super) size: (Option<u32>, Option<u32>),
    pub(super) props: TileProps<'a>,
}

/// The map's tilesets: in the document's order while they come, then ([`Tilesets::seal`],
/// at the first layer) sorted by first global id, so that a global id's tileset is a
/// binary search; their tile sets' names each given a key once.
#[derive(Default)]
pub(super) struct Tilesets<'a> {
    sets: Vec<Tiles<'a>>,
    /// Each distinct tile set name's key.
    keys: HashMap<String, usize>,
}

impl<'a> Tilesets<'a> {
    /// A tileset read, in the document's order.
    pub(super) fn add(&mut self, mut t: Tiles<'a>) {
        if let Some(set) = &mut t.set {
            let next = self.keys.len();
            set.key = *self.keys.entry(set.name.clone()).or_insert(next);
        }
        self.sets.push(t);
    }

    /// Sorts the tilesets by first global id, those of one first id in the document's
    /// order (a stable sort): done once, when the first layer comes, after which no
    /// tileset is added ([`super::Builder::tileset`]).
    pub(super) fn seal(&mut self) {
        self.sets.sort_by(|a, b| {
            #[cfg(test)]
            super::probes::compared(1);
            a.first.cmp(&b.first)
        });
    }

    /// The tileset of global id `gid` (no flag bits): the one with the greatest first id
    /// not past it, of several the last in the document's order (what the import's scan
    /// of the tilesets found before); `None` before every tileset. A binary search of the
    /// sealed tilesets: at most `log2(tilesets) + 2` comparisons.
    pub(super) fn find(&self, gid: u32) -> Option<&Tiles<'a>> {
        let after = self.sets.partition_point(|t| {
            #[cfg(test)]
            super::probes::compared(1);
            t.first <= gid
        });
        self.sets.get(after.checked_sub(1)?)
    }

    /// For a plane whose image sets are named `names` (in its order): each tile set key
    /// of the tilesets' names, the index of the first image set of that name.
    fn plane_index(&self, names: &[String]) -> HashMap<usize, usize> {
        let mut index = HashMap::new();
        for (at, name) in names.iter().enumerate() {
            if let Some(&key) = self.keys.get(name) {
                index.entry(key).or_insert(at);
            }
        }
        index
    }
}

/// The tileset `<tileset>` element `t` holds: of its tiles, their tile ids, and for a
/// tileset of tile objects their image sizes and properties; the elements are dropped.
pub(super) fn tileset(mut t: Element<'_>) -> Result<Tiles<'_>, TiledError> {
    let name = t.attribute("name").unwrap_or_default().to_owned();
    let what = format!("tileset {name:?}");
    let set = {
        let props = t.properties(what.clone());
        if name == "fill" && !props.map.contains_key("wwd_image_set") {
            None
        } else {
            let name = props
                .map
                .get("wwd_image_set")
                .unwrap_or_default()
                .to_owned();
            Some(SetName {
                numbered: name.strip_prefix("set ").and_then(|n| n.parse().ok()),
                name,
                key: 0,
            })
        }
    };
    let top_left = t.attribute("objectalignment") == Some("topleft");
    let mut ids = HashMap::new();
    let mut tiles = HashMap::new();
    for mut tile in std::mem::take(&mut t.children) {
        if tile.name != "tile" {
            continue;
        }
        let id: u32 = tile
            .attribute("id")
            .unwrap_or_default()
            .parse()
            .map_err(|_| {
                bad(
                    format!("{what}: a tile"),
                    tile.attribute("id").unwrap_or_default(),
                    "an id",
                )
            })?;
        let props = tile.take_properties();
        if let Some(v) = props.get("wwd_tile") {
            let v: u16 = v
                .parse()
                .map_err(|_| bad(format!("{what}, tile {id}: wwd_tile"), v, "0 to 65535"))?;
            ids.insert(id, v);
        }
        if top_left {
            let image = tile.children("image").next();
            let dim = |key: &str| {
                image
                    .and_then(|i| i.attribute(key))
                    .and_then(|v| v.trim().parse::<u32>().ok())
            };
            let size = (dim("width"), dim("height"));
            tiles.insert(id, Tile { size, props });
        }
    }
    let number = |key: &str| -> Result<u32, TiledError> {
        let v = t.attribute(key).unwrap_or_default();
        v.parse()
            .map_err(|_| bad(format!("{what}: {key}"), v, "a count"))
    };
    Ok(Tiles {
        first: number("firstgid")?,
        set,
        ids,
        count: number("tilecount")?,
        top_left,
        tiles,
        name,
    })
}

pub(super) fn read_header(p: &Props<'_>) -> Result<WwdHeader, TiledError> {
    let mut h = WwdHeader::new_zeroed();
    h.size.set(p.word("wwd_size")?);
    h.reserved1.set(p.word("wwd_reserved1")?);
    h.flags.set(p.word("wwd_flags")?);
    h.reserved2.set(p.word("wwd_reserved2")?);
    h.name = p.field("wwd_name")?;
    h.author = p.field("wwd_author")?;
    h.birth = p.field("wwd_birth")?;
    h.rez_file = p.field("wwd_rez_file")?;
    h.image_dir = p.field("wwd_image_dir")?;
    h.pal_rez = p.field("wwd_pal_rez")?;
    h.start_x.set(p.int("wwd_start_x")?);
    h.start_y.set(p.int("wwd_start_y")?);
    h.reserved3.set(p.word("wwd_reserved3")?);
    h.checksum.set(p.word("wwd_checksum")?);
    h.reserved4.set(p.word("wwd_reserved4")?);
    h.launch_app = p.field("wwd_launch_app")?;
    for (n, (set, prefix)) in h
        .image_sets
        .iter_mut()
        .zip(h.prefixes.iter_mut())
        .enumerate()
    {
        let n = n.saturating_add(1);
        *set = p.field(&format!("wwd_image_set{n}"))?;
        *prefix = p.field(&format!("wwd_prefix{n}"))?;
    }
    Ok(h)
}

/// The plane of a TMX `<layer>`: its properties, then the CSV text of its `<data>` read
/// value by value into the plane's tiles.
pub(super) fn read_plane(
    layer: &Element<'_>,
    name: &str,
    sets: &Tilesets<'_>,
    map: (u32, u32),
    limits: &Limits,
) -> Result<PlaneData, TiledError> {
    let mut plane = PlaneCells::start(layer, name, sets, map, limits)?;
    let data = layer
        .children("data")
        .next()
        .ok_or_else(|| bad(plane.what.clone(), "no <data>", "CSV cells"))?;
    if data.attribute("encoding") != Some("csv") {
        return Err(bad(
            format!("{}: <data>", plane.what),
            data.attribute("encoding").unwrap_or("no encoding"),
            "encoding=\"csv\"",
        ));
    }
    for value in csv(&data.text) {
        match value.parse() {
            Ok(gid) => plane.push(gid),
            Err(_) => {
                plane.unreadable();
                break;
            }
        }
    }
    plane.finish()
}

/// A plane being read: its header and tiles from the layer's properties, then the layer's
/// cells one by one (global tile ids, row by row over the map), each of the plane's first
/// period inside the map read through its tileset into the plane's tiles.
pub(super) struct PlaneCells<'s, 'a> {
    /// What to name the layer in errors.
    pub(super) what: String,
    header: PlaneHeader,
    image_sets: Vec<Vec<u8>>,
    /// Each tile set key of the tilesets' names ([`Tilesets`]), the index of the plane's
    /// first image set of that name.
    set_index: HashMap<usize, usize>,
    sets: &'s Tilesets<'a>,
    tiles: Vec<u32>,
    /// The plane's tiles across.
    wide: u32,
    /// The map's tiles across and down.
    map: (u32, u32),
    /// The cells read into tiles: those below both the plane's size and the map's.
    region: (u32, u32),
    /// The map cell the next value is.
    at: (u32, u32),
    /// The index in `tiles` of the start of row `at.1`.
    row: usize,
    /// Cells given.
    count: u64,
    /// A value that is not a cell was given (the count is then wrong).
    unreadable: bool,
    /// The first cell that cannot be a tile of the plane.
    error: Option<TiledError>,
}

impl<'s, 'a> PlaneCells<'s, 'a> {
    /// The plane of tile layer `layer` (named `name`) from its properties; its tiles from
    /// `wwd_tiles`, or none.
    pub(super) fn start(
        layer: &Element<'_>,
        name: &str,
        sets: &'s Tilesets<'a>,
        map: (u32, u32),
        limits: &Limits,
    ) -> Result<Self, TiledError> {
        let what = format!("layer {name:?}");
        let p = layer.properties(what.clone());
        let mut h = PlaneHeader::new_zeroed();
        h.size.set(p.word("wwd_size")?);
        h.reserved1.set(p.word("wwd_reserved1")?);
        h.flags.set(p.word("wwd_flags")?);
        h.reserved2.set(p.word("wwd_reserved2")?);
        h.name = p.field("wwd_name")?;
        h.width_px.set(p.int("wwd_width_px")?);
        h.height_px.set(p.int("wwd_height_px")?);
        h.tile_width.set(p.int("wwd_tile_width")?);
        h.tile_height.set(p.int("wwd_tile_height")?);
        h.tiles_wide.set(p.int("wwd_tiles_wide")?);
        h.tiles_high.set(p.int("wwd_tiles_high")?);
        h.reserved3.set(p.word("wwd_reserved3")?);
        h.reserved4.set(p.word("wwd_reserved4")?);
        h.movement_x_percent.set(p.int("wwd_movement_x_percent")?);
        h.movement_y_percent.set(p.int("wwd_movement_y_percent")?);
        h.fill_color.set(p.int("wwd_fill_color")?);
        h.z.set(p.int("wwd_z")?);
        h.reserved5.set(p.word("wwd_reserved5")?);
        h.reserved6.set(p.word("wwd_reserved6")?);
        h.reserved7.set(p.word("wwd_reserved7")?);
        let set_count = p.word("wwd_image_set_count")?;
        let mut image_sets = Vec::new();
        for n in 1..=set_count {
            image_sets.push(p.text(&format!("wwd_image_set{n}"))?);
        }
        let (w, hh) = (
            u32::try_from(h.tiles_wide.get()).unwrap_or(0),
            u32::try_from(h.tiles_high.get()).unwrap_or(0),
        );
        let cells_n = u64::from(w).saturating_mul(u64::from(hh));
        // The main block's bytes the planes before it left (`Builder::left`), less this
        // plane's header and names, in tiles of 4 bytes: checked before any tile is made.
        let own = names_bytes(&image_sets).saturating_add(PLANE_HEADER_LEN as u64);
        let cap = limits.max_decoded_bytes.saturating_sub(own) / 4;
        if cells_n > cap {
            return Err(TiledError::TooLarge {
                what: "tiles of the planes (this one and those before it)",
                found: cells_n,
                limit: cap,
            });
        }
        let n = usize::try_from(cells_n).unwrap_or(usize::MAX);
        let tiles = match p.map.get("wwd_tiles") {
            Some(text) => wwd_tiles(text, n).ok_or_else(|| {
                bad(
                    format!("{what}: wwd_tiles"),
                    format!("not {n} values"),
                    "the plane's tiles",
                )
            })?,
            None => vec![wap_core::raw::TILE_INVISIBLE; n],
        };
        let set_names: Vec<String> = image_sets
            .iter()
            .map(|s| wap_core::decode(s, wap_core::CodePage::Cp1252).into_owned())
            .collect();
        Ok(PlaneCells {
            what,
            header: h,
            image_sets,
            set_index: sets.plane_index(&set_names),
            sets,
            tiles,
            wide: w,
            map,
            region: (w.min(map.0), hh.min(map.1)),
            at: (0, 0),
            row: 0,
            count: 0,
            unreadable: false,
            error: None,
        })
    }

    /// The next cell: global tile id `gid`.
    pub(super) fn push(&mut self, gid: u32) {
        let (x, y) = self.at;
        self.count = self.count.saturating_add(1);
        if self.error.is_none() && x < self.region.0 && y < self.region.1 {
            match tile_of(gid, self.sets, &self.set_index) {
                Ok(raw) => {
                    let at = usize::try_from(x)
                        .ok()
                        .and_then(|x| self.row.checked_add(x));
                    if let Some(t) = at.and_then(|at| self.tiles.get_mut(at)) {
                        *t = raw;
                    }
                }
                Err(found) => {
                    self.error = Some(bad(
                        format!("{}, cell ({x}, {y})", self.what),
                        found,
                        "a tile of a tile set of the plane, a fill tile or none",
                    ));
                }
            }
        }
        let next = x.saturating_add(1);
        if next < self.map.0 {
            self.at.0 = next;
        } else {
            self.at = (0, y.saturating_add(1));
            let wide = usize::try_from(self.wide).unwrap_or(usize::MAX);
            self.row = self.row.saturating_add(wide);
        }
    }

    /// A value that is not a global tile id was given.
    pub(super) fn unreadable(&mut self) {
        self.unreadable = true;
    }

    /// The plane, once every cell is given: the map's width times its height of them,
    /// each of those read a tile of the plane's tile sets, a fill tile or none.
    pub(super) fn finish(self) -> Result<PlaneData, TiledError> {
        let map_cells = u64::from(self.map.0).saturating_mul(u64::from(self.map.1));
        if self.unreadable || self.count != map_cells {
            return Err(bad(
                format!("{}: <data>", self.what),
                "another count of cells",
                "the map's width times its height",
            ));
        }
        if let Some(e) = self.error {
            return Err(e);
        }
        Ok(PlaneData {
            header: self.header,
            tiles: self.tiles,
            image_sets: self.image_sets,
            objects: Vec::new(),
        })
    }
}

/// The bytes of the main block plane `p` takes: its header, tiles and image-set names (each
/// with its NUL), as wap-core's writer lays them out.
pub(super) fn block_bytes(p: &PlaneData) -> u64 {
    (PLANE_HEADER_LEN as u64)
        .saturating_add((p.tiles.len() as u64).saturating_mul(4))
        .saturating_add(names_bytes(&p.image_sets))
}

/// The bytes of image-set names `names` in the main block, each with its NUL.
fn names_bytes(names: &[Vec<u8>]) -> u64 {
    names
        .iter()
        .map(|n| (n.len() as u64).saturating_add(1))
        .fold(0, u64::saturating_add)
}

/// The `n` tiles of `wwd_tiles` text (comma-separated unsigned 32-bit values): `None` for a
/// value that is not one, or another count. The list is made for `n` at most (and at most
/// one value for each two bytes of text: a value and its comma), and the reading stops at
/// the value past the `n`-th, so that a text of more values costs no more than `n`.
fn wwd_tiles(text: &str, n: usize) -> Option<Vec<u32>> {
    let mut tiles = Vec::with_capacity(n.min((text.len() / 2).saturating_add(1)));
    for value in csv(text) {
        if tiles.len() == n {
            return None;
        }
        tiles.push(value.parse().ok()?);
    }
    (tiles.len() == n).then_some(tiles)
}

/// The raw tile value of global id `gid`, or what is wrong with it: its tileset a binary
/// search, its image set's index one look in the plane's `set_index`.
fn tile_of(
    gid: u32,
    sets: &Tilesets<'_>,
    set_index: &HashMap<usize, usize>,
) -> Result<u32, String> {
    if gid == 0 {
        return Ok(wap_core::raw::TILE_INVISIBLE);
    }
    if gid & 0xE000_0000 != 0 {
        return Err(format!("gid {gid:#x}, flipped"));
    }
    let t = sets
        .find(gid)
        .ok_or_else(|| format!("gid {gid} before every tileset"))?;
    let local = gid.saturating_sub(t.first);
    if local >= t.count {
        return Err(format!("gid {gid} past its tileset"));
    }
    match &t.set {
        None => Ok(wap_core::raw::TILE_FILLED),
        Some(set) => {
            let id = *t
                .ids
                .get(&local)
                .ok_or_else(|| format!("gid {gid}: a tile without wwd_tile"))?;
            let at = set_index
                .get(&set.key)
                .copied()
                .or(set.numbered)
                .ok_or_else(|| format!("gid {gid}: tile set {:?}, not the plane's", set.name))?;
            let at = u16::try_from(at).map_err(|_| format!("tile set index {at}"))?;
            Ok(u32::from(at) << 16 | u32::from(id))
        }
    }
}
