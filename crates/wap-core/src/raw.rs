//! On-disk structures and constants, nothing else. Layouts and sources:
//! `docs/formats/wwd.md`.

use gamedata_io::record;
use zerocopy::little_endian::{I32, U16, U32};

/// Bytes of the header, and the value of its first field in every real level.
pub const HEADER_LEN: usize = 1524;

/// Header flag 0x1: the level uses z coordinates.
pub const FLAG_USE_Z: u32 = 0x1;
/// Header flag 0x2: the main block is a zlib stream.
pub const FLAG_COMPRESS: u32 = 0x2;

record! {
    /// The 1,524-byte header at the start of every WWD level.
    pub struct WwdHeader {
        /// Header size: 1,524 in every real level (0x5F4).
        pub size: U32,
        /// Reserved word at 0x4 (kept raw).
        pub reserved1: U32,
        /// Flags: 0x1 use z coordinates, 0x2 compressed main block; other bits kept raw.
        pub flags: U32,
        /// Reserved word at 0xC (kept raw).
        pub reserved2: U32,
        /// Level name, NUL-terminated inside the field.
        pub name: [u8; 64],
        /// Author, NUL-terminated inside the field.
        pub author: [u8; 64],
        /// Date of creation as text, NUL-terminated inside the field.
        pub birth: [u8; 64],
        /// Path of the REZ archive.
        pub rez_file: [u8; 256],
        /// Image folder.
        pub image_dir: [u8; 128],
        /// Palette in the REZ archive.
        pub pal_rez: [u8; 128],
        /// Start x in pixels.
        pub start_x: I32,
        /// Start y in pixels.
        pub start_y: I32,
        /// Reserved word at 0x2D8: 1 or 2 in some real levels (kept raw).
        pub reserved3: U32,
        /// Number of planes.
        pub plane_count: U32,
        /// Absolute offset of the plane headers (in the header + decompressed main block image).
        pub planes_offset: U32,
        /// Absolute offset of the tile property table.
        pub tile_properties_offset: U32,
        /// Length of the decompressed main block (0, or stale, in uncompressed levels).
        pub main_block_size: U32,
        /// Checksum over the stored main block (see `docs/formats/wwd.md`).
        pub checksum: U32,
        /// Reserved word at 0x2F0 (kept raw).
        pub reserved4: U32,
        /// Application the editor launches.
        pub launch_app: [u8; 128],
        /// Image sets 1 to 4.
        pub image_sets: [[u8; 128]; 4],
        /// Image set prefixes 1 to 4.
        pub prefixes: [[u8; 32]; 4],
    } = HEADER_LEN;
}

/// Bytes of a plane header, and the value of its first field in every real level.
pub const PLANE_HEADER_LEN: usize = 160;
/// Bytes of an object's fixed part; its four strings follow.
pub const OBJECT_FIXED_LEN: usize = 284;
/// Bytes of the tile property table's header.
pub const TILE_PROPERTIES_HEADER_LEN: usize = 32;
/// Bytes of the part every tile property record starts with.
pub const TILE_PROPERTY_BASE_LEN: usize = 16;

/// Tile value: nothing is drawn.
pub const TILE_INVISIBLE: u32 = 0xFFFF_FFFF;
/// Tile value: the cell is filled with the plane's fill colour.
pub const TILE_FILLED: u32 = 0xEEEE_EEEE;

/// Tile property type 1: one attribute for the whole tile.
pub const TILE_SINGLE: u32 = 1;
/// Tile property type 2: an inside attribute in a rectangle, an outside one elsewhere.
pub const TILE_DOUBLE: u32 = 2;
/// Tile property type 3: one attribute byte per pixel.
pub const TILE_MASK: u32 = 3;

record! {
    /// A rectangle in pixels, edges inclusive (a full 64-pixel tile is 0, 0, 63, 63).
    #[derive(Default, Hash)]
    pub struct Rect {
        /// Left edge.
        pub left: I32,
        /// Top edge.
        pub top: I32,
        /// Right edge (inclusive).
        pub right: I32,
        /// Bottom edge (inclusive).
        pub bottom: I32,
    } = 16;
}

impl Rect {
    /// Builds a rectangle from its four edges.
    pub fn new(left: i32, top: i32, right: i32, bottom: i32) -> Self {
        Rect {
            left: left.into(),
            top: top.into(),
            right: right.into(),
            bottom: bottom.into(),
        }
    }

    /// True if the pixel (x, y) lies inside, edges included.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        (self.left.get()..=self.right.get()).contains(&x)
            && (self.top.get()..=self.bottom.get()).contains(&y)
    }
}

record! {
    /// The 160-byte header of a plane; the level's plane headers follow one another from the
    /// header's plane offset.
    pub struct PlaneHeader {
        /// Size of this header: 160 in every real level.
        pub size: U32,
        /// Reserved word at 0x4 (kept raw).
        pub reserved1: U32,
        /// Flags: 0x1 main, 0x2 no draw, 0x4 x wrap, 0x8 y wrap, 0x10 auto tile size; 0x20,
        /// 0x40 and 0x80 occur with unknown meaning.
        pub flags: U32,
        /// Reserved word at 0xC (kept raw).
        pub reserved2: U32,
        /// Plane name, NUL-terminated inside the field.
        pub name: [u8; 64],
        /// Width in pixels (tiles wide times tile width in the editor's files).
        pub width_px: I32,
        /// Height in pixels.
        pub height_px: I32,
        /// Tile width in pixels.
        pub tile_width: I32,
        /// Tile height in pixels.
        pub tile_height: I32,
        /// Width in tiles.
        pub tiles_wide: I32,
        /// Height in tiles.
        pub tiles_high: I32,
        /// Word at 0x68: scroll x in the Gruntz loader (kept raw).
        pub reserved3: U32,
        /// Word at 0x6C: scroll y in the Gruntz loader (kept raw).
        pub reserved4: U32,
        /// Horizontal parallax movement in percent.
        pub movement_x_percent: I32,
        /// Vertical parallax movement in percent.
        pub movement_y_percent: I32,
        /// Fill colour (palette index) of filled tiles.
        pub fill_color: I32,
        /// Number of image-set names.
        pub image_set_count: U32,
        /// Number of objects.
        pub object_count: U32,
        /// Absolute offset of the tiles.
        pub tiles_offset: U32,
        /// Absolute offset of the image-set names.
        pub image_sets_offset: U32,
        /// Absolute offset of the objects (0 when there are none).
        pub objects_offset: U32,
        /// Z coordinate (drawing order).
        pub z: I32,
        /// Reserved word at 0x94 (kept raw).
        pub reserved5: U32,
        /// Reserved word at 0x98 (kept raw).
        pub reserved6: U32,
        /// Reserved word at 0x9C (kept raw).
        pub reserved7: U32,
    } = PLANE_HEADER_LEN;
}

record! {
    /// The 284-byte fixed part of an object; the name, logic, image-set and animation strings
    /// follow it, with the lengths given here and no terminator.
    pub struct ObjectFixed {
        /// Object id (not unique in real levels).
        pub id: I32,
        /// Bytes of the name string.
        pub name_len: U32,
        /// Bytes of the logic string.
        pub logic_len: U32,
        /// Bytes of the image-set string.
        pub image_set_len: U32,
        /// Bytes of the animation string.
        pub animation_len: U32,
        /// Location x in pixels.
        pub x: I32,
        /// Location y in pixels.
        pub y: I32,
        /// Location z.
        pub z: I32,
        /// Location i (image index).
        pub i: I32,
        /// Add flags (difficult, eye candy, high detail, multiplayer, extra memory, fast CPU).
        pub add_flags: U32,
        /// Dynamic flags (no hit, always active, safe, auto hit damage).
        pub dynamic_flags: U32,
        /// Draw flags (no draw, mirror, invert, flash).
        pub draw_flags: U32,
        /// User flags 1 to 12.
        pub user_flags: U32,
        /// Score.
        pub score: I32,
        /// Points.
        pub points: I32,
        /// Power-up.
        pub powerup: I32,
        /// Damage.
        pub damage: I32,
        /// Smarts.
        pub smarts: I32,
        /// Health.
        pub health: I32,
        /// Move rectangle.
        pub move_rect: Rect,
        /// Hit rectangle.
        pub hit_rect: Rect,
        /// Attack rectangle.
        pub attack_rect: Rect,
        /// Clip rectangle.
        pub clip_rect: Rect,
        /// User rectangle 1.
        pub user_rect1: Rect,
        /// User rectangle 2.
        pub user_rect2: Rect,
        /// User values 1 to 8.
        pub user: [I32; 8],
        /// Minimum x.
        pub min_x: I32,
        /// Minimum y.
        pub min_y: I32,
        /// Maximum x.
        pub max_x: I32,
        /// Maximum y.
        pub max_y: I32,
        /// Speed x.
        pub speed_x: I32,
        /// Speed y.
        pub speed_y: I32,
        /// Tweak x.
        pub tweak_x: I32,
        /// Tweak y.
        pub tweak_y: I32,
        /// Counter.
        pub counter: I32,
        /// Speed.
        pub speed: I32,
        /// Width.
        pub width: I32,
        /// Height.
        pub height: I32,
        /// Direction.
        pub direction: I32,
        /// Facing direction.
        pub face_dir: I32,
        /// Time delay.
        pub time_delay: I32,
        /// Frame delay.
        pub frame_delay: I32,
        /// Object type: one value (0x1 generic … 0x400 user 4), not a bit set; 0x2000 occurs.
        pub object_type: U32,
        /// Hit type flags; 0xFFFFFFFF means all.
        pub hit_type_flags: U32,
        /// Move resolution x.
        pub move_res_x: U32,
        /// Move resolution y.
        pub move_res_y: U32,
    } = OBJECT_FIXED_LEN;
}

record! {
    /// The 32-byte header of the tile property table: `[32, 0, count, 0, 0, 0, 0, 0]` in every
    /// real level.
    pub struct TilePropertiesHeader {
        /// Size of this header: 32.
        pub size: U32,
        /// Reserved word at 0x4 (kept raw).
        pub reserved1: U32,
        /// Number of records; record i describes tile id i.
        pub count: U32,
        /// Reserved words at 0xC..0x20 (kept raw).
        pub reserved: [U32; 5],
    } = TILE_PROPERTIES_HEADER_LEN;
}

record! {
    /// The 16 bytes every tile property record starts with.
    pub struct TilePropertyBase {
        /// Record type: 1 single, 2 double, 3 mask.
        pub kind: U32,
        /// Reserved word at 0x4 (kept raw).
        pub reserved: U32,
        /// Width in pixels (the mask's width for mask records).
        pub width: U32,
        /// Height in pixels.
        pub height: U32,
    } = TILE_PROPERTY_BASE_LEN;
}

record! {
    /// The payload of a double record after its base: 24 bytes.
    pub struct DoubleAttributes {
        /// Attribute outside the rectangle.
        pub outside: I32,
        /// Attribute inside the rectangle.
        pub inside: I32,
        /// The rectangle, edges inclusive; may exceed the tile.
        pub rect: Rect,
    } = 24;
}

/// Bytes of a REZ archive's header.
pub const REZ_HEADER_LEN: usize = 168;

record! {
    /// The 168-byte header at the start of a REZ archive (`docs/formats/wap32.md`).
    pub struct RezHeader {
        /// Text: CR LF, the file type (60 bytes, "RezMgr Version 1 Copyright (C) 1995
        /// MONOLITH INC."), CR LF, a user title (60 bytes), CR LF, 0x1A.
        pub text: [u8; 127],
        /// Format version: 1.
        pub version: U32,
        /// Absolute offset of the root directory's entries.
        pub root_offset: U32,
        /// Bytes of the root directory's entries.
        pub root_size: U32,
        /// The root directory's time (seconds since 1970).
        pub root_time: U32,
        /// Where the archive's writer would write next.
        pub next_write: U32,
        /// The archive's time (seconds since 1970).
        pub time: U32,
        /// The most keys of a file entry.
        pub largest_keys: U32,
        /// The longest directory name.
        pub largest_dir_name: U32,
        /// The longest file name.
        pub largest_file_name: U32,
        /// The longest comment.
        pub largest_comment: U32,
        /// 1 when directories are sorted.
        pub sorted: u8,
    } = 168;
}

record! {
    /// The 16 bytes every REZ directory entry starts with.
    pub struct RezEntryHead {
        /// 1 for a directory, 0 for a file.
        pub kind: U32,
        /// Absolute offset of the directory's entries or the file's bytes.
        pub offset: U32,
        /// Their length in bytes.
        pub size: U32,
        /// Time (seconds since 1970).
        pub time: U32,
    } = 16;
}

record! {
    /// What follows [`RezEntryHead`] in a file entry, before its name.
    pub struct RezFileHead {
        /// Resource id.
        pub id: U32,
        /// The extension, its letters stored in reverse and NUL-padded (`DIP\0` for PID).
        pub extension: [u8; 4],
        /// 32-bit keys after the name and comment.
        pub keys: U32,
    } = 12;
}

/// Bytes of a PID image's header.
pub const PID_HEADER_LEN: usize = 32;

record! {
    /// The 32-byte header of a PID image (`docs/formats/wap32.md`).
    pub struct PidHeader {
        /// An id (kept raw).
        pub id: I32,
        /// Flags (`wap_core::PidFlags`).
        pub flags: U32,
        /// Width in pixels.
        pub width: I32,
        /// Height in pixels.
        pub height: I32,
        /// Horizontal offset of the image's centre, in pixels.
        pub x: I32,
        /// Vertical offset of the image's centre, in pixels.
        pub y: I32,
        /// User value 1 (with flag 0x100, its low bits name the transparent index).
        pub user1: I32,
        /// User value 2.
        pub user2: I32,
    } = 32;
}

record! {
    /// The 32-byte header of an ANI animation (`docs/formats/wap32.md`, "ANI animations").
    pub struct AniHeader {
        /// A signature word (kept raw).
        pub signature: U32,
        /// A reserved word at 0x4 and, at 0x8, the animation's flags (the engine ORs them
        /// into its own; 0 in the games) (kept raw).
        pub reserved0: [U32; 2],
        /// Number of frames.
        pub frame_count: U32,
        /// Bytes of the image set's path that follows the header (no NUL counted).
        pub image_set_len: U32,
        /// Reserved words at 0x14 to 0x1F (kept raw).
        pub reserved1: [U32; 3],
    } = 32;
}

record! {
    /// One 20-byte frame of an ANI animation; with flag 0x2 a NUL-terminated sound path
    /// follows it (`docs/formats/wap32.md`, "ANI animations").
    pub struct AniFrameRecord {
        /// Flags: 0x1, the duration counts updates; 0x2, a sound path follows the record;
        /// 0x4 and 0x8, how the sound plays.
        pub flags: U16,
        /// How the record moves the object's frame (3: to `image`; 0: not at all; 1: the
        /// next; ... see [`crate::rez::ani::Step`]).
        pub step: U16,
        /// When the next record starts (0: after this one; 9: never; ... see
        /// [`crate::rez::ani::Next`]).
        pub next: U16,
        /// How the record moves the object (kept raw; no game file moves one).
        pub position: U16,
        /// The step's parameter: the frame number of the image shown (step 3), or a
        /// count of frames (steps 6 and 7); a signed 16-bit number.
        pub image: U16,
        /// How long the record lasts: milliseconds, or updates with flag 0x1; a signed
        /// 16-bit number the engine counts unsigned (see `AniFrame::shown_ms`).
        pub duration: U16,
        /// An event code for the object's logic, the position deltas and a reserved word
        /// at 0xC to 0x13 (kept raw).
        pub reserved: [U16; 4],
    } = 20;
}
