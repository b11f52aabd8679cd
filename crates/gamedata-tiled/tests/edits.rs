//! Maps edited in Tiled read back (`from_tmx::level_from_tmx`): the TMX text of an export
//! changed as Tiled would change it (an object moved, added, deleted, a tile painted, a
//! property changed), the level read back and its fields checked against values worked
//! out here from the synthetic images' sizes and offsets (read from the synthetic archive's
//! PIDs).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use gamedata_tiled::from_tmx::level_from_tmx;
use gamedata_tiled::map::{LayerData, Map, MapObject, Value};
use wap_core::{Level, LevelData, LevelFile, Limits, ObjectData};

/// The synthetic level (one object upside down, one hidden), its export's map and TMX.
fn exported() -> (LevelData, Map, String) {
    let mut data = wap_core::synth::level(9, 40, 24);
    data.planes[1].objects[1].fixed.draw_flags.set(0x4);
    data.planes[1].objects[2].fixed.draw_flags.set(0x1);
    // As read from a file (the text lengths filled in).
    let data = written(&data);
    let map = common::exported_map(&data);
    let mut tmx = Vec::new();
    gamedata_tiled::tmx::write_tmx(&map, &mut tmx).unwrap();
    (data, map, String::from_utf8(tmx).unwrap())
}

fn int(o: &MapObject, name: &str) -> i64 {
    match o
        .properties
        .iter()
        .find(|p| p.name == name)
        .map(|p| &p.value)
    {
        Some(Value::Int(v)) => *v,
        v => panic!("{name}: {v:?}"),
    }
}

/// The map object of the level's object with id `id`.
fn by_id(map: &Map, id: i32) -> MapObject {
    map.objects()
        .find(|o| int(o, "wwd_id") == i64::from(id))
        .unwrap()
        .clone()
}

/// The size and offset of the frame `object` of `data` draws, as the synthetic archive
/// holds it: (width, height, x offset, y offset).
fn frame(data: &LevelData, object: &ObjectData) -> (i64, i64, i64, i64) {
    let rez = wap_core::synth::level_archive(data).unwrap();
    let rez = wap_core::Rez::parse(&rez).unwrap();
    let image = data.image().unwrap();
    let names = wap_core::ImageNames::of(&Level::parse(&image).unwrap().header());
    let folder = names.object_set(&object.image_set).replace('_', "/");
    let path = format!("{folder}/FRAME{:03}.PID", object.fixed.i.get().max(0));
    let Some(wap_core::RezEntry::File(file)) = rez.find(&path).unwrap() else {
        panic!("{path}");
    };
    let pid = wap_core::Pid::parse(file.bytes).unwrap();
    let (ox, oy) = pid.offset();
    (
        i64::from(pid.width()),
        i64::from(pid.height()),
        i64::from(ox),
        i64::from(oy),
    )
}

/// The range of `<object id="ID" ...` to its end in `tmx`.
fn object_span(tmx: &str, id: u32) -> std::ops::Range<usize> {
    let start = tmx.find(&format!("<object id=\"{id}\"")).unwrap();
    let end = start + tmx[start..].find("</object>").unwrap() + "</object>".len();
    start..end
}

/// `tmx` with the attribute `key` of object `id` set to `value`.
fn set_attribute(tmx: &str, id: u32, key: &str, value: &str) -> String {
    let span = object_span(tmx, id);
    let tag_end = span.start + tmx[span.clone()].find('>').unwrap();
    let tag = &tmx[span.start..tag_end];
    let at = tag.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
    let close = at + tag[at..].find('"').unwrap();
    format!(
        "{}{value}{}",
        &tmx[..span.start + at],
        &tmx[span.start + close..]
    )
}

/// The level written and parsed again by wap-core.
fn written(back: &LevelData) -> LevelData {
    let file = LevelFile::from_data(back.to_file(true).unwrap(), &Default::default()).unwrap();
    LevelData::from_level(&file.view().unwrap()).unwrap()
}

#[test]
fn an_object_moved_in_tiled_moves_by_as_much() {
    let (data, map, tmx) = exported();
    let objects = &data.planes[1].objects;
    let (plain, upside_down, hidden) = (&objects[0], &objects[1], &objects[2]);
    let a = by_id(&map, plain.fixed.id.get());
    let b = by_id(&map, upside_down.fixed.id.get());
    let c = by_id(&map, hidden.fixed.id.get());
    assert!(a.gid.is_some() && b.gid.unwrap() & 0x4000_0000 != 0 && c.gid.is_none());
    // The export's places, worked out: the top-left corner is the position less half of
    // the frame's size, moved by its offset (the y offset negated upside down); a hidden
    // object is a point.
    let (ax, ay) = (plain.fixed.x.get(), plain.fixed.y.get());
    let (w, h, ox, oy) = frame(&data, plain);
    assert_eq!(
        (a.x, a.y),
        (i64::from(ax) - w / 2 + ox, i64::from(ay) - h / 2 + oy)
    );
    let (bx, by) = (upside_down.fixed.x.get(), upside_down.fixed.y.get());
    let (w, h, ox, oy) = frame(&data, upside_down);
    assert_eq!(
        (b.x, b.y),
        (i64::from(bx) - w / 2 + ox, i64::from(by) - h / 2 - oy)
    );
    // Dragged: a fraction of a pixel rounds to the nearest.
    let mut edited = set_attribute(&tmx, a.id, "x", &format!("{}.4", a.x + 100));
    edited = set_attribute(&edited, a.id, "y", &format!("{}.6", a.y - 38));
    edited = set_attribute(&edited, b.id, "x", "300");
    edited = set_attribute(&edited, b.id, "y", "200");
    edited = set_attribute(&edited, c.id, "x", "77");
    edited = set_attribute(&edited, c.id, "y", "88");
    let back = written(&level_from_tmx(&edited, &Limits::default()).unwrap());
    let got = &back.planes[1].objects;
    assert_eq!(got.len(), objects.len());
    assert_eq!(
        (got[0].fixed.x.get(), got[0].fixed.y.get()),
        (ax + 100, ay - 37)
    );
    // Placed at (300, 200): the position is that corner plus half the frame, less its
    // offset (the y offset negated upside down).
    assert_eq!(
        (
            i64::from(got[1].fixed.x.get()),
            i64::from(got[1].fixed.y.get())
        ),
        (300 + w / 2 - ox, 200 + h / 2 + oy)
    );
    assert_eq!((got[2].fixed.x.get(), got[2].fixed.y.get()), (77, 88));
    // Nothing else of them changed, and the others are as they were.
    for (k, (g, o)) in got.iter().zip(objects).enumerate() {
        let mut g = g.clone();
        g.fixed.x = o.fixed.x;
        g.fixed.y = o.fixed.y;
        assert!(g == *o, "object {k}");
    }
    // Unchanged, the map comes back byte for byte.
    let back = level_from_tmx(&tmx, &Limits::default()).unwrap();
    assert_eq!(back.main_block().unwrap(), data.main_block().unwrap());
    // Also when an object's properties equal to its tile's are left out (Tiled's
    // inheritance): the tile's are read.
    let span = object_span(&tmx, a.id);
    let mut block = tmx[span.clone()].to_owned();
    for name in ["wwd_logic", "wwd_image_set", "wwd_i", "wwd_animation"] {
        let at = block.find(&format!("<property name=\"{name}\"")).unwrap();
        let end = at + block[at..].find("/>").unwrap() + 2;
        block.replace_range(at..end, "");
    }
    let mut stripped = tmx.clone();
    stripped.replace_range(span, &block);
    assert_ne!(stripped, tmx);
    let back = level_from_tmx(&stripped, &Limits::default()).unwrap();
    assert_eq!(back.main_block().unwrap(), data.main_block().unwrap());
}

#[test]
fn objects_added_deleted_and_changed_in_tiled() {
    let (data, map, tmx) = exported();
    let objects = &data.planes[1].objects;
    let largest = objects.iter().map(|o| o.fixed.id.get()).max().unwrap();
    let first = by_id(&map, objects[0].fixed.id.get());
    let deleted = by_id(&map, objects[3].fixed.id.get());
    let changed = by_id(&map, objects[4].fixed.id.get());
    // Delete one, change another's score.
    let mut edited = tmx.clone();
    edited.replace_range(object_span(&edited, deleted.id), "");
    let span = object_span(&edited, changed.id);
    let block = edited[span.clone()].replace(
        "name=\"wwd_score\" type=\"int\" value=\"0\"",
        "name=\"wwd_score\" type=\"int\" value=\"777\"",
    );
    assert_ne!(block, edited[span.clone()]);
    edited.replace_range(span, &block);
    // Add three after the first: a tile object of the first's image with a class, the same
    // mirrored and named, a point with wwd_logic and a property of its own.
    let gid = first.gid.unwrap();
    let (w, h, ox, oy) = frame(&data, &objects[0]);
    let added = format!(
        "<object id=\"9001\" type=\"Officer\" gid=\"{gid}\" x=\"500\" y=\"300\" width=\"{w}\" height=\"{h}\"/>\n\
         <object id=\"9002\" name=\"twin\" type=\"Soldier\" gid=\"{}\" x=\"600.5\" y=\"320\" width=\"{w}\" height=\"{h}\"/>\n\
         <object id=\"9003\" x=\"70\" y=\"80\"><properties><property name=\"wwd_logic\" value=\"Trigger\"/>\
         <property name=\"wwd_score\" type=\"int\" value=\"5\"/></properties><point/></object>\n",
        gid | 0x8000_0000
    );
    let at = object_span(&edited, first.id).end;
    edited.insert_str(at, &added);
    let back = written(&level_from_tmx(&edited, &Limits::default()).unwrap());
    let got = &back.planes[1].objects;
    assert_eq!(got.len(), objects.len() - 1 + 3);
    // The exported ones in their order, but the deleted one; one score changed.
    let kept: Vec<&ObjectData> = objects
        .iter()
        .filter(|o| o.fixed.id.get() != objects[3].fixed.id.get())
        .collect();
    for (g, o) in got.iter().zip(&kept) {
        let mut o = (*o).clone();
        if o.fixed.id == objects[4].fixed.id {
            o.fixed.score.set(777);
        }
        assert!(*g == o, "object {}", o.fixed.id.get());
    }
    // The added ones after them, in the map's order, with new ids.
    let new = &got[kept.len()..];
    let image_set = objects[0].image_set.clone();
    // The top-left corner plus half the frame, less its offset (x negated mirrored; 600.5
    // rounds up).
    let at = |x: i64, y: i64, ox: i64| {
        let n = |v: i64| i32::try_from(v).unwrap();
        (n(x + w / 2 - ox), n(y + h / 2 - oy))
    };
    let expected = [
        (
            largest + 1,
            "Officer",
            "",
            image_set.clone(),
            0,
            at(500, 300, ox),
        ),
        (
            largest + 2,
            "Soldier",
            "twin",
            image_set,
            0x2,
            at(601, 320, -ox),
        ),
        (largest + 3, "Trigger", "", Vec::new(), 0, (70, 80)),
    ];
    for (o, (id, logic, name, set, flags, (x, y))) in new.iter().zip(expected) {
        assert_eq!(o.fixed.id.get(), id);
        assert_eq!(o.logic, logic.as_bytes());
        assert_eq!(o.name, name.as_bytes());
        assert_eq!(o.image_set, set);
        assert_eq!(o.fixed.draw_flags.get(), flags, "{logic}");
        assert_eq!((o.fixed.x.get(), o.fixed.y.get()), (x, y), "{logic}");
        // Its z is its layer neighbour's, so that it draws in the same layer again.
        assert_eq!(o.fixed.z.get(), objects[0].fixed.z.get());
        assert_eq!(o.fixed.i.get(), objects[0].fixed.i.get());
    }
    assert_eq!(new[2].fixed.score.get(), 5);
    assert_eq!(new[0].fixed.score.get(), 0);
}

#[test]
fn what_a_level_cannot_hold_is_an_error_naming_it() {
    let (_, map, tmx) = exported();
    let first = map.objects().next().unwrap().clone();
    let err = |text: &str| {
        level_from_tmx(text, &Limits::default())
            .unwrap_err()
            .to_string()
    };
    // An added object without a logic.
    let at = object_span(&tmx, first.id).end;
    let mut edited = tmx.clone();
    edited.insert_str(at, "<object id=\"9001\" x=\"1\" y=\"2\"><point/></object>");
    let e = err(&edited);
    assert!(
        e.contains("object 9001 of layer") && e.contains("no logic"),
        "{e}"
    );
    // A rectangle.
    let mut edited = tmx.clone();
    edited.insert_str(
        at,
        "<object id=\"9002\" type=\"A\" x=\"1\" y=\"2\" width=\"3\" height=\"4\"/>",
    );
    let e = err(&edited);
    assert!(
        e.contains("object 9002") && e.contains("a point or a tile"),
        "{e}"
    );
    // Rotated.
    let e = err(&tmx.replacen(
        &format!("<object id=\"{}\"", first.id),
        &format!("<object id=\"{}\" rotation=\"90\"", first.id),
        1,
    ));
    assert!(
        e.contains(&format!("object {} ", first.id)) && e.contains("rotation"),
        "{e}"
    );
    // Flipped diagonally.
    let e = err(&set_attribute(
        &tmx,
        first.id,
        "gid",
        &(first.gid.unwrap() | 0x2000_0000).to_string(),
    ));
    assert!(e.contains("diagonally"), "{e}");
}

#[test]
fn a_tile_painted_in_tiled_reads_through_its_tileset() {
    let (data, map, tmx) = exported();
    let action = &map.layers.iter().find(|l| l.name == "Action").unwrap();
    let LayerData::Tiles(_) = &action.data else {
        panic!("Action is a tile layer");
    };
    // A tile of the action plane's tile set: its gid and raw id.
    let set_name = String::from_utf8(data.planes[1].image_sets[0].clone()).unwrap();
    let tileset = map
        .tilesets
        .iter()
        .find(|t| {
            t.properties
                .iter()
                .any(|p| p.name == "wwd_image_set" && p.value == Value::String(set_name.clone()))
        })
        .unwrap();
    let tile = tileset.tiles.last().unwrap();
    let Value::Int(raw) = tile.properties[0].value else {
        panic!("wwd_tile");
    };
    let gid = tileset.first_gid + tile.id;
    // Cell (0, 0) of the layer: the first value of its CSV.
    let layer_at = tmx.find("name=\"Action\"").unwrap();
    let data_at = layer_at + tmx[layer_at..].find("<data encoding=\"csv\">").unwrap() + 21;
    let first_end = data_at + tmx[data_at..].find(',').unwrap();
    let paint = |value: u32| {
        let mut edited = tmx.clone();
        edited.replace_range(data_at..first_end, &format!("\n{value}"));
        edited
    };
    let back = written(&level_from_tmx(&paint(gid), &Limits::default()).unwrap());
    assert_eq!(back.planes[1].tiles[0], u32::try_from(raw).unwrap());
    let mut rest = back.planes[1].tiles.clone();
    rest[0] = data.planes[1].tiles[0];
    assert_eq!(rest, data.planes[1].tiles);
    // Flipped: WWD tiles cannot be.
    let e = level_from_tmx(&paint(gid | 0x8000_0000), &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("layer \"Action\", cell (0, 0)") && e.contains("flipped"),
        "{e}"
    );
}

/// The same edits made to the map and written as TMX and as TMJ read back alike: an object
/// moved a fraction of a pixel, one deleted, one added by its tile, a tile painted.
#[test]
fn tmx_and_tmj_of_an_edited_map_read_back_alike() {
    let (data, mut map, _) = exported();
    let largest = data.planes[1]
        .objects
        .iter()
        .map(|o| o.fixed.id.get())
        .max()
        .unwrap();
    let layer = map
        .layers
        .iter_mut()
        .find(|l| matches!(l.data, LayerData::Objects(_)))
        .unwrap();
    let LayerData::Objects(objects) = &mut layer.data else {
        unreachable!()
    };
    objects[0].x += 40;
    objects[0].y -= 3;
    let mut added = objects[0].clone();
    added.id = 9999;
    added.class = "Officer".to_owned();
    added.properties.clear();
    added.x = 123;
    objects.remove(3);
    objects.push(added);
    let tiles = map
        .layers
        .iter_mut()
        .find_map(|l| match &mut l.data {
            LayerData::Tiles(t) if l.name == "Action" => Some(t),
            _ => None,
        })
        .unwrap();
    tiles[5] = *tiles.iter().find(|&&g| g != 0).unwrap();
    let mut tmx = Vec::new();
    gamedata_tiled::tmx::write_tmx(&map, &mut tmx).unwrap();
    let mut tmj = Vec::new();
    gamedata_tiled::tmj::write_tmj(&map, &mut tmj).unwrap();
    let limits = Limits::default();
    let a = level_from_tmx(std::str::from_utf8(&tmx).unwrap(), &limits).unwrap();
    let b = gamedata_tiled::from_tmx::level_from_tmj(std::str::from_utf8(&tmj).unwrap(), &limits)
        .unwrap();
    assert_eq!(a.image().unwrap(), b.image().unwrap());
    let objects = &a.planes[1].objects;
    assert_eq!(objects.len(), data.planes[1].objects.len());
    assert_eq!(objects.last().unwrap().fixed.id.get(), largest + 1);
    assert_eq!(objects.last().unwrap().logic, b"Officer");
    assert_eq!(
        objects[0].fixed.x.get(),
        data.planes[1].objects[0].fixed.x.get() + 40
    );
}

/// An object added before a layer's first exported object takes the plane and z of the
/// layer's first exported object; one added after the layer's last, the last one's.
#[test]
fn added_objects_take_their_nearest_exported_neighbours_plane_and_z() {
    let (_, map, tmx) = exported();
    let point = |id: u32| {
        format!(
            "<object id=\"{id}\" x=\"70\" y=\"80\"><properties><property name=\"wwd_logic\" \
             value=\"Trigger\"/></properties><point/></object>\n"
        )
    };
    // The first object layer with objects, its first and last objects (by the map's ids).
    let group = tmx.find("<objectgroup").unwrap();
    let open = group + tmx[group..].find('>').unwrap() + 1;
    let close = group + tmx[group..].find("</objectgroup>").unwrap();
    let ids: Vec<u32> = tmx[open..close]
        .match_indices("<object id=\"")
        .map(|(at, m)| {
            let rest = &tmx[open + at + m.len()..];
            rest[..rest.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert!(ids.len() >= 2, "{ids:?}");
    let of = |id: u32| map.objects().find(|o| o.id == id).unwrap().clone();
    let (mut head, mut tail) = (of(ids[0]), of(*ids.last().unwrap()));
    // The two given z values of their own, so that the neighbour each takes shows.
    let mut edited = tmx.clone();
    for (o, z) in [(&mut tail, 8765), (&mut head, -4321)] {
        let span = object_span(&edited, o.id);
        let was = format!("name=\"wwd_z\" type=\"int\" value=\"{}\"", int(o, "wwd_z"));
        let block = edited[span.clone()]
            .replace(&was, &format!("name=\"wwd_z\" type=\"int\" value=\"{z}\""));
        assert_ne!(block, edited[span.clone()]);
        edited.replace_range(span, &block);
        for p in o.properties.iter_mut().filter(|p| p.name == "wwd_z") {
            p.value = Value::Int(z);
        }
    }
    let close = close + edited.len() - tmx.len();
    edited.insert_str(close, &point(9002));
    edited.insert_str(open, &point(9001));
    let back = written(&level_from_tmx(&edited, &Limits::default()).unwrap());
    let found = |name_z: (i64, i64)| {
        let plane = &back.planes[usize::try_from(name_z.0).unwrap()];
        plane
            .objects
            .iter()
            .filter(|o| o.logic == b"Trigger" && (o.fixed.x.get(), o.fixed.y.get()) == (70, 80))
            .map(|o| i64::from(o.fixed.z.get()))
            .collect::<Vec<_>>()
    };
    let head_at = (int(&head, "wwd_plane"), int(&head, "wwd_z"));
    let tail_at = (int(&tail, "wwd_plane"), int(&tail, "wwd_z"));
    assert!(found(head_at).contains(&head_at.1), "{head_at:?}");
    assert!(found(tail_at).contains(&tail_at.1), "{tail_at:?}");
}
