//! Writes the renderers' fuzz seeds (synthetic files, this project's own) under a folder:
//! `cargo run -p gamedata-exercise --example write_render_fuzz_seeds -- fuzz/seeds`.

use std::path::PathBuf;

use gamedata_exercise::io::join_parts;
use mni_core::{Actor, ActorKind, Group, MapFlags, synth as cosmo, write_map};
use mul_core::MapSize;
use mul_core::synth::{self as uo, World};
use wap_core::synth as wwd;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds".into()),
    );
    // A 3 x 2-block facet (24 x 16 tiles) with the generator's radar colours; control:
    // blocks wide and high less 1, scale less 1, then the region x, y, width - 1, height - 1,
    // hillshading when odd, the style (0 flat, 1 client, 2 altitude, 3 client without
    // hues) and the item group the tiledata window starts at (2 bytes).
    let world = World::generate(MapSize::from_blocks(3, 2)?, 7);
    let radarcol = uo::radarcol();
    let facet = |control: &[u8]| {
        join_parts::<4>(&[
            control,
            &world.map,
            &world.staidx,
            &world.statics,
            &radarcol,
        ])
    };
    let whole = facet(&[2, 1, 0, 0, 0, 23, 15]);
    let scaled_clipped = facet(&[2, 1, 2, 5, 3, 40, 40]);
    let hillshaded = facet(&[2, 1, 1, 0, 0, 23, 15, 1]);
    // The client styles: the generator's tiledata records of item groups 101 and 102
    // (bushes and trees, 0x0CA0 to 0x0CDF), the first tree flagged NO_DIAGONAL so that the
    // client leaves it out; every third static hued 1 to 70 (the generator has 64 hues,
    // so some are past them).
    let tiledata = uo::tiledata();
    let (items_at, group_len) = (512 * (4 + 32 * 30), 4 + 32 * 41);
    let mut window = tiledata
        .get(items_at + 101 * group_len..items_at + 103 * group_len)
        .unwrap_or_default()
        .to_vec();
    let tree = group_len + 4 + (usize::from(uo::item::TREES[0]) % 32) * 41;
    if let Some(flags) = window.get_mut(tree + 3) {
        *flags |= 0x02; // bit 25 of the flags
    }
    let mut hued = world.statics.clone();
    for (hue, record) in (1..=70u16).cycle().zip(hued.chunks_exact_mut(7).step_by(3)) {
        if let Some(at) = record.get_mut(5..7) {
            at.copy_from_slice(&hue.to_le_bytes());
        }
    }
    let hues = uo::hues();
    let styled = |control: &[u8]| {
        join_parts::<4>(&[
            control,
            &world.map,
            &world.staidx,
            &hued,
            &radarcol,
            &window,
            &hues,
        ])
    };
    let client = styled(&[2, 1, 0, 0, 0, 23, 15, 0, 1, 101, 0]);
    let altitude = styled(&[2, 1, 1, 3, 2, 17, 11, 0, 2, 101, 0]);
    let no_hues = styled(&[2, 1, 0, 0, 0, 23, 15, 0, 3, 101, 0]);

    let level_data = wwd::level(11, 16, 16);
    let level = level_data.to_file(true)?;
    // The level drawn with an archive of its images; control: pixels a tile less 1, one
    // plane alone when odd, which, objects left out when odd (then, see
    // `gamedata_exercise::render::wwd_level_picture`: a view, its camera and size, markers).
    let archive = wwd::level_archive(&level_data)?;
    let picture = |control: &[u8]| join_parts::<4>(&[control, &level, &archive]);
    let picture_all = picture(&[3, 0, 0, 0]);
    let picture_plane = picture(&[0, 1, 2, 1]);
    // A view: control byte 4 is 2 (a view), the camera at ((140 - 128) * 32, (131 - 128) *
    // 32), a 64 x 48 screen ((15 + 1) * 4, (11 + 1) * 4), markers on.
    let picture_view = picture(&[0, 0, 0, 0, 2, 140, 131, 15, 11, 1]);
    // Many objects drawing one image through 20 frame entries over the same bytes (the
    // shapes the resource contract's tests craft: one decode, a bounded draw).
    let mut crowded = wwd::level(13, 16, 16);
    if let Some(main) = crowded.planes.get_mut(1)
        && let Some(template) = main.objects.first().cloned()
    {
        main.objects = (0..200i32)
            .map(|k| {
                let mut o = template.clone();
                o.image_set = b"LEVEL_BIG".to_vec();
                o.fixed.i.set(k % 20 + 1);
                o.fixed.x.set(k * 5);
                o.fixed.y.set(300 + k % 7 * 40);
                o
            })
            .collect();
    }
    let big = {
        use gamedata_testkit::rez::{Builder, pid};
        let mut b = Builder::new();
        let data = b.data(&pid(120, 90, 5));
        let frames = b.files((1..=20).map(|i| format!("FRAME{i:03}")), b"PID", data);
        let set = b.dirs(["BIG".to_owned()], frames);
        let images = b.dirs(["IMAGES".to_owned()], set);
        let level1 = b.dirs(["LEVEL1".to_owned()], images);
        b.finish(level1)
    };
    let picture_crowded = join_parts::<4>(&[&[0, 0, 0, 0], &crowded.to_file(true)?, &big]);
    let wide = wwd::level(12, 48, 8).to_file(false)?;

    let episode = cosmo::episode()?;
    let vol = Group::parse(&episode.vol)?;
    let map = join_parts::<4>(&[
        vol.get("A2.MNI")?.ok_or("no A2.MNI")?,
        &cosmo::solid_tiles(),
        &cosmo::masked_tiles(),
        &cosmo::tile_attributes(),
    ]);

    let (info, actors_bytes) = cosmo::sprites();
    let cosmo_level = join_parts::<4>(&[
        &cosmo::solid_tiles(),
        &cosmo::masked_tiles(),
        &cosmo::tile_attributes(),
        &info,
        &actors_bytes,
        &cosmo::backdrop(),
        vol.get("A2.MNI")?.ok_or("no A2.MNI")?,
    ]);

    // Every actor type from 0 to 269 (the game defines 245 of them: the others are listed
    // as not drawn; some are hidden, two flipped), four special actors, one row of actors
    // every 3 rows of a 32-wide map, each on a girder drawn in front of sprites.
    let mut actors: Vec<Actor> = (0..4)
        .map(|k| Actor {
            kind: ActorKind::Special(k),
            x: k,
            y: 0,
        })
        .collect();
    let mut tiles = vec![0u16; 32_764];
    for t in 0..270u16 {
        let (x, y) = (t % 32, 4 + 3 * (t / 32));
        actors.push(Actor {
            kind: ActorKind::Normal(t),
            x,
            y,
        });
        if let Some(cell) = tiles.get_mut(usize::from(y) * 32 + usize::from(x)) {
            *cell = cosmo::masked_value(cosmo::masked::GIRDER);
        }
    }
    let flags = MapFlags {
        backdrop: 3,
        ..MapFlags::default()
    };
    let all_actors = write_map(flags, 32, &actors, &tiles)?;
    let every_actor = |actor_tiles: &[u8]| {
        join_parts::<4>(&[
            &cosmo::solid_tiles(),
            &cosmo::masked_tiles(),
            &cosmo::tile_attributes(),
            &info,
            actor_tiles,
            &cosmo::backdrop(),
            &all_actors,
        ])
    };
    let every_type = every_actor(&actors_bytes);
    // ACTORS.MNI cut after 300 tiles: the later sprite types' frames are past its end.
    let cut = every_actor(actors_bytes.get(..300 * 40).unwrap_or_default());

    let seeds: [(&str, &str, &[u8]); 16] = [
        ("cosmo_level", "synthetic_a2_level", &cosmo_level),
        ("cosmo_level", "every_actor_type", &every_type),
        ("cosmo_level", "every_actor_type_cut_sprites", &cut),
        ("uo_radar", "synthetic_3x2_blocks", &whole),
        ("uo_radar", "synthetic_scale_3_clipped", &scaled_clipped),
        ("uo_radar", "synthetic_scale_2_hillshaded", &hillshaded),
        ("uo_radar", "synthetic_client_hued", &client),
        ("uo_radar", "synthetic_altitude_scale_2", &altitude),
        ("uo_radar", "synthetic_client_without_hues", &no_hues),
        ("wwd_collision", "synthetic_compressed", &level),
        ("wwd_level_picture", "synthetic_all_planes", &picture_all),
        (
            "wwd_level_picture",
            "synthetic_view_with_markers",
            &picture_view,
        ),
        (
            "wwd_level_picture",
            "many_objects_one_image",
            &picture_crowded,
        ),
        (
            "wwd_level_picture",
            "synthetic_one_plane_no_objects",
            &picture_plane,
        ),
        ("wwd_collision", "synthetic_wide_plain", &wide),
        ("cosmo_draw", "synthetic_a2", &map),
    ];
    for (target, name, bytes) in seeds {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), bytes)?;
        println!("wrote {}/{name} ({} bytes)", dir.display(), bytes.len());
    }
    Ok(())
}
