//! `gamedata wwd objects`: a level's objects, listed.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use serde::Serialize;
use wap_core::{CodePage, decode};

use super::level::{open, view};
use crate::output::{ListArgs, Output, TextListing};

#[derive(Args)]
pub(crate) struct ObjectsArgs {
    /// The level (.wwd).
    file: PathBuf,
    /// Only objects with this logic (case ignored), e.g. Treasure, Officer, TileTrigger.
    #[arg(long)]
    logic: Option<String>,
    #[command(flatten)]
    list: ListArgs,
}

#[derive(Serialize)]
struct ObjectReport {
    plane: usize,
    index: usize,
    id: i32,
    logic: String,
    name: String,
    image_set: String,
    animation: String,
    x: i32,
    y: i32,
    z: i32,
    object_type: u32,
    hit_type_flags: u32,
    add_flags: u32,
    dynamic_flags: u32,
    draw_flags: u32,
    user_flags: u32,
}

pub(super) fn objects(args: &ObjectsArgs, out: &mut Output) -> Result<()> {
    let file = open(&args.file)?;
    let level = view(&file, &args.file)?;
    let reading = || format!("reading {}", args.file.display());
    let text = |b: &[u8]| decode(b, CodePage::Cp1252).into_owned();
    let wanted = |o: &wap_core::Object<'_>| {
        args.logic
            .as_ref()
            .is_none_or(|logic| o.logic().eq_ignore_ascii_case(logic.as_bytes()))
    };
    // Plane by plane, object by object, as they are read: nothing is collected unless one
    // JSON document is asked for.
    let rows = level.planes().flat_map(|plane| {
        let rows: Box<dyn Iterator<Item = Result<ObjectReport>>> = match plane {
            Err(e) => Box::new(std::iter::once(Err(
                anyhow::Error::from(e).context(reading())
            ))),
            Ok(plane) => {
                let number = plane.index();
                Box::new(
                    plane
                        .objects()
                        .enumerate()
                        .filter_map(move |(index, object)| {
                            let o = match object {
                                Ok(o) => o,
                                Err(e) => {
                                    return Some(Err(anyhow::Error::from(e).context(reading())));
                                }
                            };
                            if !wanted(&o) {
                                return None;
                            }
                            let (x, y) = o.position();
                            Some(Ok(ObjectReport {
                                plane: number,
                                index,
                                id: o.id(),
                                logic: text(o.logic()),
                                name: text(o.name()),
                                image_set: text(o.image_set()),
                                animation: text(o.animation()),
                                x,
                                y,
                                z: o.z(),
                                object_type: o.object_type().0,
                                hit_type_flags: o.hit_type_flags().bits(),
                                add_flags: o.add_flags().bits(),
                                dynamic_flags: o.dynamic_flags().bits(),
                                draw_flags: o.draw_flags().bits(),
                                user_flags: o.user_flags(),
                            }))
                        }),
                )
            }
        };
        rows
    });
    let header = format!(
        "{:<5} {:<6} {:>6} {:>8} {:>8}  {:<24} image set",
        "plane", "index", "id", "x", "y", "logic"
    );
    let listing = TextListing {
        header: &header,
        row: &|w, o: &ObjectReport| {
            writeln!(
                w,
                "{:<5} {:<6} {:>6} {:>8} {:>8}  {:<24} {}",
                o.plane,
                o.index,
                o.id,
                o.x,
                o.y,
                gamedata_io::printable(&o.logic),
                gamedata_io::printable(&o.image_set)
            )
        },
        footer: &|n| format!("{n} objects"),
    };
    out.list(&args.list, rows, &listing, "objects")
}
