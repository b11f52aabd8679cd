//! REZ archives and what they hold: the archive view ([`Rez`]) and its owner ([`RezFile`],
//! opened within [`RezOptions`]), its depth-first [`Walk`] and the paths a walk's entries
//! may be written to ([`enclosed_name`]); PID images and PAL palettes ([`Pid`],
//! [`Palette`]); ANI animations ([`Ani`], a lone file owned by [`AniFile`]); and behind
//! `write` their writers ([`write_rez()`], [`write_pid`], [`write_ani`]). Format facts and
//! their sources: `docs/formats/wap32.md`.
//!
//! Every item but the constants, [`Entries`], [`Step`], [`Next`] and [`enclosed_name`] is
//! also at the crate's root; this module groups them as the files do.

pub(crate) mod ani;
pub(crate) mod archive;
pub(crate) mod enclosed;
pub(crate) mod entries;
pub(crate) mod pid;
pub(crate) mod ranged;
pub(crate) mod walk;
#[cfg(feature = "write")]
pub(crate) mod write;

pub use ani::{
    Ani, AniContents, AniFile, AniFrame, AniFrameSpec, FRAME_SOUND, FRAME_TICKS, Next, Step,
    TICK_MS, write_ani,
};
pub use archive::{
    MAX_DEPTH, Rez, RezContents, RezDir, RezEntry, RezFile, RezFileEntry, RezOptions,
};
pub use enclosed::enclosed_name;
pub use entries::Entries;
#[cfg(feature = "write")]
pub use pid::write_pid;
pub use pid::{MAX_SIDE, PALETTE_LEN, Palette, Pid, PidFlags, PidPixels};
pub use ranged::{RezFetch, RezTables};
pub use walk::{MIN_ENTRY, Walk, WalkEntry};
#[cfg(feature = "write")]
pub use write::write_rez;
