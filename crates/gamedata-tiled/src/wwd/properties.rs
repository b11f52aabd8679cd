//! The level's fields as Tiled custom properties: the header's on the map, each plane's on
//! its layer, each object's on its object (`docs/formats/tiled.md`, "WWD levels in Tiled").

use std::fmt::Write as _;

use wap_core::{CodePage, Level, Object, Plane};

use crate::TiledError;
use crate::map::Property;

/// Text of a level's field for a property: the code page's characters, or `None` when one
/// of them is a control character, which XML cannot hold or which would not read back
/// (attribute values' line ends and tabs become spaces).
pub(super) fn text(bytes: &[u8]) -> Option<String> {
    let s = wap_core::decode(bytes, CodePage::Cp1252).into_owned();
    (!s.chars().any(char::is_control)).then_some(s)
}

/// Pushes the text field `name` of `bytes`: a string, or its bytes in hex as `name_hex`
/// when [`text`] cannot hold it.
pub(super) fn push_text(props: &mut Vec<Property>, name: &str, bytes: &[u8]) {
    match text(bytes) {
        Some(s) => props.push(Property::string(name, s)),
        None => props.push(Property::string(format!("{name}_hex"), hex(bytes))),
    }
}

/// A 32-bit word of flags as Tiled's (signed 32-bit) int: the same bits.
pub(super) fn word(v: u32) -> i64 {
    i64::from(i32::from_le_bytes(v.to_le_bytes()))
}

/// The header's fields as the map's properties.
pub(super) fn header_properties(level: &Level<'_>) -> Vec<Property> {
    let h = level.header();
    let raw = h.raw();
    let mut p = vec![
        Property::string("wwd_game", level.game().name()),
        Property::int("wwd_size", raw.size.get()),
        Property::int("wwd_reserved1", word(raw.reserved1.get())),
        Property::int("wwd_flags", word(raw.flags.get())),
        Property::int("wwd_reserved2", word(raw.reserved2.get())),
    ];
    push_text(&mut p, "wwd_name", wap_core::field_text(&raw.name));
    push_text(&mut p, "wwd_author", wap_core::field_text(&raw.author));
    push_text(&mut p, "wwd_birth", wap_core::field_text(&raw.birth));
    push_text(&mut p, "wwd_rez_file", wap_core::field_text(&raw.rez_file));
    push_text(
        &mut p,
        "wwd_image_dir",
        wap_core::field_text(&raw.image_dir),
    );
    push_text(&mut p, "wwd_pal_rez", wap_core::field_text(&raw.pal_rez));
    p.push(Property::int("wwd_start_x", raw.start_x.get()));
    p.push(Property::int("wwd_start_y", raw.start_y.get()));
    p.push(Property::int("wwd_reserved3", word(raw.reserved3.get())));
    p.push(Property::int("wwd_plane_count", raw.plane_count.get()));
    p.push(Property::int("wwd_planes_offset", raw.planes_offset.get()));
    p.push(Property::int(
        "wwd_tile_properties_offset",
        raw.tile_properties_offset.get(),
    ));
    p.push(Property::int(
        "wwd_main_block_size",
        raw.main_block_size.get(),
    ));
    p.push(Property::int("wwd_checksum", word(raw.checksum.get())));
    p.push(Property::int("wwd_reserved4", word(raw.reserved4.get())));
    push_text(
        &mut p,
        "wwd_launch_app",
        wap_core::field_text(&raw.launch_app),
    );
    for (n, (set, prefix)) in raw.image_sets.iter().zip(&raw.prefixes).enumerate() {
        let n = n.saturating_add(1);
        push_text(
            &mut p,
            &format!("wwd_image_set{n}"),
            wap_core::field_text(set),
        );
        push_text(
            &mut p,
            &format!("wwd_prefix{n}"),
            wap_core::field_text(prefix),
        );
    }
    p
}

/// The tile property table's bytes (its header and records, as stored) as hex, for the
/// map's property `wwd_tile_properties`: what a level written back from the map needs.
pub(super) fn tile_properties_hex(level: &Level<'_>) -> Result<String, TiledError> {
    let table = level.tile_properties()?;
    let start = table.offset();
    let mut end = start.saturating_add(32);
    for record in table.iter() {
        let record = record?;
        end = end.max(record.offset().saturating_add(record.stored_len()));
    }
    let bytes = level.image().get(start..end).unwrap_or_default();
    Ok(hex(bytes))
}

/// `bytes` as lower-case hex, two digits a byte.
pub(super) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().saturating_mul(2));
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// A plane's fields as its layer's properties.
pub(super) fn plane_properties(plane: &Plane<'_>) -> Result<Vec<Property>, TiledError> {
    let raw = plane.raw();
    let index = i64::try_from(plane.index()).unwrap_or(i64::MAX);
    let mut p = vec![
        Property::int("wwd_plane", index),
        Property::int("wwd_size", raw.size.get()),
    ];
    p.push(Property::int("wwd_reserved1", word(raw.reserved1.get())));
    p.push(Property::int("wwd_flags", word(raw.flags.get())));
    p.push(Property::int("wwd_reserved2", word(raw.reserved2.get())));
    push_text(&mut p, "wwd_name", wap_core::field_text(&raw.name));
    p.push(Property::int("wwd_width_px", raw.width_px.get()));
    p.push(Property::int("wwd_height_px", raw.height_px.get()));
    p.push(Property::int("wwd_tile_width", raw.tile_width.get()));
    p.push(Property::int("wwd_tile_height", raw.tile_height.get()));
    p.push(Property::int("wwd_tiles_wide", raw.tiles_wide.get()));
    p.push(Property::int("wwd_tiles_high", raw.tiles_high.get()));
    p.push(Property::int("wwd_reserved3", word(raw.reserved3.get())));
    p.push(Property::int("wwd_reserved4", word(raw.reserved4.get())));
    p.push(Property::int(
        "wwd_movement_x_percent",
        raw.movement_x_percent.get(),
    ));
    p.push(Property::int(
        "wwd_movement_y_percent",
        raw.movement_y_percent.get(),
    ));
    p.push(Property::int("wwd_fill_color", raw.fill_color.get()));
    p.push(Property::int(
        "wwd_image_set_count",
        raw.image_set_count.get(),
    ));
    p.push(Property::int("wwd_object_count", raw.object_count.get()));
    p.push(Property::int("wwd_tiles_offset", raw.tiles_offset.get()));
    p.push(Property::int(
        "wwd_image_sets_offset",
        raw.image_sets_offset.get(),
    ));
    p.push(Property::int(
        "wwd_objects_offset",
        raw.objects_offset.get(),
    ));
    p.push(Property::int("wwd_z", raw.z.get()));
    p.push(Property::int("wwd_reserved5", word(raw.reserved5.get())));
    p.push(Property::int("wwd_reserved6", word(raw.reserved6.get())));
    p.push(Property::int("wwd_reserved7", word(raw.reserved7.get())));
    for (n, set) in plane.image_sets().enumerate() {
        push_text(
            &mut p,
            &format!("wwd_image_set{}", n.saturating_add(1)),
            set?,
        );
    }
    Ok(p)
}

/// A rectangle as the text `left,top,right,bottom`.
pub(super) fn rect(r: &wap_core::Rect) -> String {
    format!(
        "{},{},{},{}",
        r.left.get(),
        r.top.get(),
        r.right.get(),
        r.bottom.get()
    )
}

/// An object's fields as its properties, with its plane and place in the plane's list.
pub(super) fn object_properties(object: &Object<'_>, plane: usize, order: usize) -> Vec<Property> {
    let o = object.raw();
    let n = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
    let mut p = vec![
        Property::int("wwd_plane", n(plane)),
        Property::int("wwd_order", n(order)),
        Property::int("wwd_id", o.id.get()),
    ];
    push_text(&mut p, "wwd_name", object.name());
    push_text(&mut p, "wwd_logic", object.logic());
    push_text(&mut p, "wwd_image_set", object.image_set());
    push_text(&mut p, "wwd_animation", object.animation());
    for (name, v) in [
        ("wwd_x", o.x.get()),
        ("wwd_y", o.y.get()),
        ("wwd_z", o.z.get()),
        ("wwd_i", o.i.get()),
    ] {
        p.push(Property::int(name, v));
    }
    for (name, v) in [
        ("wwd_add_flags", o.add_flags.get()),
        ("wwd_dynamic_flags", o.dynamic_flags.get()),
        ("wwd_draw_flags", o.draw_flags.get()),
        ("wwd_user_flags", o.user_flags.get()),
    ] {
        p.push(Property::int(name, word(v)));
    }
    for (name, v) in [
        ("wwd_score", o.score.get()),
        ("wwd_points", o.points.get()),
        ("wwd_powerup", o.powerup.get()),
        ("wwd_damage", o.damage.get()),
        ("wwd_smarts", o.smarts.get()),
        ("wwd_health", o.health.get()),
    ] {
        p.push(Property::int(name, v));
    }
    for (name, r) in [
        ("wwd_move_rect", &o.move_rect),
        ("wwd_hit_rect", &o.hit_rect),
        ("wwd_attack_rect", &o.attack_rect),
        ("wwd_clip_rect", &o.clip_rect),
        ("wwd_user_rect1", &o.user_rect1),
        ("wwd_user_rect2", &o.user_rect2),
    ] {
        p.push(Property::string(name, rect(r)));
    }
    let user: Vec<String> = o.user.iter().map(|v| v.get().to_string()).collect();
    p.push(Property::string("wwd_user", user.join(",")));
    for (name, v) in [
        ("wwd_min_x", o.min_x.get()),
        ("wwd_min_y", o.min_y.get()),
        ("wwd_max_x", o.max_x.get()),
        ("wwd_max_y", o.max_y.get()),
        ("wwd_speed_x", o.speed_x.get()),
        ("wwd_speed_y", o.speed_y.get()),
        ("wwd_tweak_x", o.tweak_x.get()),
        ("wwd_tweak_y", o.tweak_y.get()),
        ("wwd_counter", o.counter.get()),
        ("wwd_speed", o.speed.get()),
        ("wwd_width", o.width.get()),
        ("wwd_height", o.height.get()),
        ("wwd_direction", o.direction.get()),
        ("wwd_face_dir", o.face_dir.get()),
        ("wwd_time_delay", o.time_delay.get()),
        ("wwd_frame_delay", o.frame_delay.get()),
    ] {
        p.push(Property::int(name, v));
    }
    for (name, v) in [
        ("wwd_object_type", o.object_type.get()),
        ("wwd_hit_type_flags", o.hit_type_flags.get()),
        ("wwd_move_res_x", o.move_res_x.get()),
        ("wwd_move_res_y", o.move_res_y.get()),
    ] {
        p.push(Property::int(name, word(v)));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_go_as_hex() {
        let mut p = Vec::new();
        push_text(&mut p, "wwd_name", b"A&B <c>");
        push_text(&mut p, "wwd_logic", b"a\nb\x00");
        assert_eq!(p[0], Property::string("wwd_name", "A&B <c>"));
        assert_eq!(p[1], Property::string("wwd_logic_hex", "610a6200"));
        assert_eq!(word(0xFFFF_FFFF), -1);
    }
}
