//! The objects of the object layers: each read from its element as it comes (its
//! properties, its place moved by as much as Tiled moved it), those added in Tiled given
//! their nearest exported neighbour's plane and z at the end of their layer, then all put in
//! their planes.

use std::borrow::Cow;

use wap_core::ObjectData;
use wap_core::raw::ObjectFixed;
use zerocopy::FromZeros;

use super::element::{Element, Props, TileProps, What, bad, cp1252, ints};
use super::plane::Tilesets;
use crate::TiledError;
use crate::map::{FLIP_HORIZONTAL, FLIP_VERTICAL};

/// Tiled's flag on a global tile id: flipped along the diagonal (bit 29), which WWD
/// objects cannot be.
const FLIP_DIAGONAL: u32 = 0x2000_0000;

/// The objects read so far, in the map's order: each object's fields, and beside them
/// where it goes.
#[derive(Default)]
pub(super) struct Objects<'a> {
    pub(super) data: Vec<ObjectData>,
    pub(super) places: Vec<Place<'a>>,
    /// The names of the object layers, by the index a [`Place`] keeps.
    pub(super) layers: Vec<String>,
}

/// Where an object read from an object layer goes, not yet settled.
pub(super) struct Place<'a> {
    /// Its `id` attribute, to name it in errors.
    pub(super) id: Cow<'a, str>,
    /// Its layer, an index in [`Objects::layers`].
    pub(super) layer: usize,
    /// Its plane: `wwd_plane`; for an object added in Tiled the plane of the nearest
    /// exported object of its layer, `None` when there is none (then the main plane).
    pub(super) plane: Option<u32>,
    /// Its place in its plane's list (`wwd_order`); `None` for an object added in Tiled,
    /// which goes after the plane's others.
    pub(super) order: Option<u32>,
    /// Its z was given (`wwd_z`).
    pub(super) z_given: bool,
    /// Its id was given (`wwd_id`).
    pub(super) id_given: bool,
}

impl Objects<'_> {
    /// What to name the object at `index` in errors.
    pub(super) fn what(&self, index: usize) -> String {
        let Some(p) = self.places.get(index) else {
            return "an object".to_owned();
        };
        let layer = self.layers.get(p.layer).map_or("", String::as_str);
        format!("object {} of layer {layer:?}", p.id)
    }
}

/// What a tile object's tile says of where its object is: the image's size, its offset
/// (`None`: a tile without `wwd_offset_x`, `wwd_offset_y`), the flips of the gid, the
/// tile's properties.
struct Anchor<'e> {
    size: (u32, u32),
    offset: Option<(i32, i32)>,
    mirror: bool,
    invert: bool,
    props: &'e TileProps<'e>,
}

/// The tile global id `gid` of object `what` names, which must be an image of a tileset
/// whose tile objects are placed by their top-left corner (the export's `objects`): its
/// tileset a binary search, its tile one look, its offset two looks in its properties.
fn anchor<'e>(gid: u32, sets: &'e Tilesets<'_>, what: &What<'_>) -> Result<Anchor<'e>, TiledError> {
    if gid & FLIP_DIAGONAL != 0 {
        return Err(bad(
            format!("{what}: gid"),
            format!("{gid:#x}, flipped diagonally"),
            "a tile flipped at most left to right and upside down (draw flags 0x2, 0x4)",
        ));
    }
    let bare = gid & !(FLIP_HORIZONTAL | FLIP_VERTICAL | FLIP_DIAGONAL);
    let expected = "an image of the tileset objects (a collection placed by the top-left corner)";
    let t = Some(bare)
        .filter(|&b| b > 0)
        .and_then(|b| sets.find(b))
        .ok_or_else(|| bad(format!("{what}: gid"), format!("{bare}"), expected))?;
    let local = bare.saturating_sub(t.first);
    let tile = t
        .tiles
        .get(&local)
        .filter(|_| t.top_left && local < t.count)
        .ok_or_else(|| {
            bad(
                format!("{what}: gid"),
                format!("{bare}, tile {local} of tileset {:?}", t.name),
                expected,
            )
        })?;
    let dim = |v: Option<u32>, key: &str| {
        v.ok_or_else(|| {
            bad(
                format!("{what}: the image of tile {local} of tileset {:?}", t.name),
                format!("no {key}"),
                "an image with its width and height",
            )
        })
    };
    let size = (dim(tile.size.0, "width")?, dim(tile.size.1, "height")?);
    let props = &tile.props;
    let offset = if props.get("wwd_offset_x").is_some() || props.get("wwd_offset_y").is_some() {
        let int = |key: &str| props.get(key).and_then(|v| v.trim().parse::<i32>().ok());
        match (int("wwd_offset_x"), int("wwd_offset_y")) {
            (Some(x), Some(y)) => Some((x, y)),
            // What is wrong, named as the tile's properties name it (made only then).
            _ => {
                let mut named = Props::new(format!("tile {local} of tileset {:?}", t.name));
                named.inherit(props);
                Some((named.int("wwd_offset_x")?, named.int("wwd_offset_y")?))
            }
        }
    } else {
        None
    };
    Ok(Anchor {
        size,
        offset,
        mirror: gid & FLIP_HORIZONTAL != 0,
        invert: gid & FLIP_VERTICAL != 0,
        props,
    })
}

/// Object attribute `key` (a pixel coordinate, maybe fractional) rounded to a whole pixel.
fn coordinate(o: &Element<'_>, key: &str, what: &What<'_>) -> Result<i64, TiledError> {
    let text = o.attribute(key).unwrap_or("0");
    let v: f64 = text.trim().parse().unwrap_or(f64::NAN);
    // Past 2^31 no position fits a level's 32-bit field; the bound also makes the cast exact.
    if !v.is_finite() || v.abs() > 4_294_967_296.0 {
        return Err(bad(format!("{what}: {key}"), text, "a pixel coordinate"));
    }
    #[allow(clippy::cast_possible_truncation)]
    Ok(v.round() as i64)
}

/// Where the export places the top-left corner of an image `size` wide with offset
/// `offset` (negated when `flip`) along an axis, for an object at `position`.
fn placed(position: i32, size: u32, offset: i32, flip: bool) -> i64 {
    let half = i64::from(size).checked_div(2).unwrap_or(0);
    let offset = if flip {
        i64::from(offset).saturating_neg()
    } else {
        i64::from(offset)
    };
    i64::from(position)
        .saturating_sub(half)
        .saturating_add(offset)
}

impl<'a> Objects<'a> {
    /// Reads object `o` of the object layer at `layer` in [`Objects::layers`]: from its
    /// properties, its position moved by as much as Tiled moved it; an object added in
    /// Tiled (no `wwd_plane`) from its properties where it has them, else from its name,
    /// class and tile, the rest 0.
    pub(super) fn read(
        &mut self,
        o: &Element<'a>,
        layer: usize,
        sets: &Tilesets<'_>,
    ) -> Result<(), TiledError> {
        let id = o
            .attributes
            .iter()
            .find(|(k, _)| k == "id")
            .map_or(Cow::Borrowed(""), |(_, v)| v.clone());
        let name = self.layers.get(layer).map_or("", String::as_str);
        let what = What::Object {
            id: &id,
            layer: name,
        };
        let (place, object) = read_map_object(o, &what, sets)?;
        self.places.push(Place { id, layer, ..place });
        self.data.push(object);
        Ok(())
    }
}

fn read_map_object(
    o: &Element<'_>,
    what: &What<'_>,
    sets: &Tilesets<'_>,
) -> Result<(Place<'static>, ObjectData), TiledError> {
    let mut p = o.properties(what.clone());
    let added = !p.map.contains_key("wwd_plane");
    p.optional = added;
    if let Some(r) = o.attribute("rotation")
        && r.trim().parse::<f64>() != Ok(0.0)
    {
        return Err(bad(
            format!("{what}: rotation"),
            r,
            "none (the engine does not rotate objects)",
        ));
    }
    let at = (coordinate(o, "x", what)?, coordinate(o, "y", what)?);
    let anchor = match o.attribute("gid") {
        Some(g) => {
            let gid = g
                .trim()
                .parse::<u32>()
                .map_err(|_| bad(format!("{what}: gid"), g, "a global tile id"))?;
            Some(anchor(gid, sets, what)?)
        }
        None => None,
    };
    if anchor.is_none() && o.children("point").next().is_none() {
        return Err(bad(
            what.to_string(),
            "a shape",
            "a point or a tile object of the tileset objects",
        ));
    }
    let own_logic = p.has_text("wwd_logic");
    let own_name = p.has_text("wwd_name");
    // As in Tiled, a tile object has its tile's properties unless it has its own (Tiled
    // may leave out of the file what equals the tile's): looked up in the tile's list
    // after its own, the tile's not copied.
    if let Some(a) = &anchor {
        p.inherit(a.props);
    }
    let mut object = read_object(&p)?;
    if added {
        let class = o.attribute("type").or_else(|| o.attribute("class"));
        if !own_logic {
            object.logic = match class.filter(|c| !c.is_empty()) {
                Some(c) => cp1252(format_args!("{what}: class"), c)?,
                None if p.has_text("wwd_logic") => p.text("wwd_logic")?,
                None => {
                    return Err(bad(
                        what.to_string(),
                        "no logic",
                        "a class (type) or a property wwd_logic naming its logic",
                    ));
                }
            };
        }
        if !own_name {
            object.name = cp1252(
                format_args!("{what}: name"),
                o.attribute("name").unwrap_or(""),
            )?;
        }
    }
    let fixed = &mut object.fixed;
    let (x, y) = (fixed.x.get(), fixed.y.get());
    let position = match &anchor {
        None => Some(at),
        Some(a) => {
            let mut flags = fixed.draw_flags.get() & !0x6;
            if a.mirror {
                flags |= 0x2;
            }
            if a.invert {
                flags |= 0x4;
            }
            fixed.draw_flags.set(flags);
            match a.offset {
                Some((dx, dy)) => Some((
                    i64::from(x)
                        .saturating_add(at.0.saturating_sub(placed(x, a.size.0, dx, a.mirror))),
                    i64::from(y)
                        .saturating_add(at.1.saturating_sub(placed(y, a.size.1, dy, a.invert))),
                )),
                None if added => {
                    return Err(bad(
                        format!("{what}: its tile"),
                        "no wwd_offset_x, wwd_offset_y",
                        "a tile of an export that says its image's offset",
                    ));
                }
                None => None,
            }
        }
    };
    if let Some((nx, ny)) = position {
        let fit = |v: i64, key: &str| {
            i32::try_from(v)
                .map_err(|_| bad(format!("{what}: {key}"), v.to_string(), "a 32-bit position"))
        };
        fixed.x.set(fit(nx, "x")?);
        fixed.y.set(fit(ny, "y")?);
    }
    let plane = if added {
        None
    } else {
        Some(
            u32::try_from(p.int("wwd_plane")?)
                .map_err(|_| bad(format!("{what}: wwd_plane"), "a negative", "a plane index"))?,
        )
    };
    let order = if added {
        None
    } else {
        Some(
            u32::try_from(p.int("wwd_order")?)
                .map_err(|_| bad(format!("{what}: wwd_order"), "a negative", "a place"))?,
        )
    };
    let place = Place {
        id: Cow::Borrowed(""),
        layer: 0,
        plane,
        order,
        z_given: p.contains("wwd_z"),
        id_given: p.contains("wwd_id"),
    };
    Ok((place, object))
}

fn read_object(p: &Props<'_>) -> Result<ObjectData, TiledError> {
    let mut o = ObjectFixed::new_zeroed();
    o.id.set(p.int("wwd_id")?);
    o.x.set(p.int("wwd_x")?);
    o.y.set(p.int("wwd_y")?);
    o.z.set(p.int("wwd_z")?);
    o.i.set(p.int("wwd_i")?);
    o.add_flags.set(p.word("wwd_add_flags")?);
    o.dynamic_flags.set(p.word("wwd_dynamic_flags")?);
    o.draw_flags.set(p.word("wwd_draw_flags")?);
    o.user_flags.set(p.word("wwd_user_flags")?);
    o.score.set(p.int("wwd_score")?);
    o.points.set(p.int("wwd_points")?);
    o.powerup.set(p.int("wwd_powerup")?);
    o.damage.set(p.int("wwd_damage")?);
    o.smarts.set(p.int("wwd_smarts")?);
    o.health.set(p.int("wwd_health")?);
    o.move_rect = p.rect("wwd_move_rect")?;
    o.hit_rect = p.rect("wwd_hit_rect")?;
    o.attack_rect = p.rect("wwd_attack_rect")?;
    o.clip_rect = p.rect("wwd_clip_rect")?;
    o.user_rect1 = p.rect("wwd_user_rect1")?;
    o.user_rect2 = p.rect("wwd_user_rect2")?;
    let user = p.get_or("wwd_user", "0,0,0,0,0,0,0,0")?;
    let values = ints::<8>(user)
        .ok_or_else(|| bad(format!("{}: property wwd_user", p.what), user, "eight ints"))?;
    for (u, v) in o.user.iter_mut().zip(values) {
        u.set(v);
    }
    for (field, name) in [
        (&mut o.min_x, "wwd_min_x"),
        (&mut o.min_y, "wwd_min_y"),
        (&mut o.max_x, "wwd_max_x"),
        (&mut o.max_y, "wwd_max_y"),
        (&mut o.speed_x, "wwd_speed_x"),
        (&mut o.speed_y, "wwd_speed_y"),
        (&mut o.tweak_x, "wwd_tweak_x"),
        (&mut o.tweak_y, "wwd_tweak_y"),
        (&mut o.counter, "wwd_counter"),
        (&mut o.speed, "wwd_speed"),
        (&mut o.width, "wwd_width"),
        (&mut o.height, "wwd_height"),
        (&mut o.direction, "wwd_direction"),
        (&mut o.face_dir, "wwd_face_dir"),
        (&mut o.time_delay, "wwd_time_delay"),
        (&mut o.frame_delay, "wwd_frame_delay"),
    ] {
        field.set(p.int(name)?);
    }
    o.object_type.set(p.word("wwd_object_type")?);
    o.hit_type_flags.set(p.word("wwd_hit_type_flags")?);
    o.move_res_x.set(p.word("wwd_move_res_x")?);
    o.move_res_y.set(p.word("wwd_move_res_y")?);
    Ok(ObjectData {
        fixed: o,
        name: p.text("wwd_name")?,
        logic: p.text("wwd_logic")?,
        image_set: p.text("wwd_image_set")?,
        animation: p.text("wwd_animation")?,
    })
}
