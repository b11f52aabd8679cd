//! Objects: the 284-byte fixed part cast in place, its four strings borrowed, and the flag
//! words with named bits that keep the unknown ones. Source: `docs/formats/wwd.md`,
//! "Objects".

use std::fmt;

use gamedata_io::{Bytes, CodePage, decode};

use crate::error::{DataError, ErrorKind, Result};
use crate::raw::{OBJECT_FIXED_LEN, ObjectFixed};
use crate::wwd::section::SectionKind;

bitflags::bitflags! {
    /// Add flags: which game settings the object needs. Unknown bits are kept.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct AddFlags: u32 {
        /// Only on the difficult setting.
        const DIFFICULT = 0x01;
        /// Eye candy.
        const EYE_CANDY = 0x02;
        /// High detail only.
        const HIGH_DETAIL = 0x04;
        /// Multiplayer only.
        const MULTIPLAYER = 0x08;
        /// Needs extra memory.
        const EXTRA_MEMORY = 0x10;
        /// Needs a fast CPU.
        const FAST_CPU = 0x20;
        // Unknown bits are kept as stored.
        const _ = !0;
    }
}

bitflags::bitflags! {
    /// Dynamic flags. Unknown bits are kept.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct DynamicFlags: u32 {
        /// Cannot be hit.
        const NO_HIT = 0x1;
        /// Active even off screen.
        const ALWAYS_ACTIVE = 0x2;
        /// Safe.
        const SAFE = 0x4;
        /// Deals damage on contact.
        const AUTO_HIT_DAMAGE = 0x8;
        // Unknown bits are kept as stored.
        const _ = !0;
    }
}

bitflags::bitflags! {
    /// Draw flags. Unknown bits are kept.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct DrawFlags: u32 {
        /// Not drawn.
        const NO_DRAW = 0x1;
        /// Mirrored horizontally.
        const MIRROR = 0x2;
        /// Flipped vertically.
        const INVERT = 0x4;
        /// Flashing.
        const FLASH = 0x8;
        // Unknown bits are kept as stored.
        const _ = !0;
    }
}

bitflags::bitflags! {
    /// Hit type flags: what the object can hit. The stored value 0xFFFFFFFF means all
    /// (`is_all()` is true for it, every bit being declared); "user 3" is 0x300, the union of user 1 and user 2, an
    /// editor bug the seed describes. Unknown bits are kept.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct HitTypeFlags: u32 {
        /// Generic objects.
        const GENERIC = 0x001;
        /// The player.
        const PLAYER = 0x002;
        /// Enemies.
        const ENEMY = 0x004;
        /// Power-ups.
        const POWERUP = 0x008;
        /// Shots.
        const SHOT = 0x010;
        /// Player shots.
        const PLAYER_SHOT = 0x020;
        /// Enemy shots.
        const ENEMY_SHOT = 0x040;
        /// Special objects.
        const SPECIAL = 0x080;
        /// User type 1.
        const USER1 = 0x100;
        /// User type 2.
        const USER2 = 0x200;
        /// User type 4.
        const USER4 = 0x400;
        // Unknown bits are kept as stored.
        const _ = !0;
    }
}

/// The object type: one value, not a bit set (0x1 generic … 0x400 user 4; 0x2000 occurs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObjectType(pub u32);

impl ObjectType {
    /// The editor's name for the value, `None` for values it does not list.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0x001 => "generic",
            0x002 => "player",
            0x004 => "enemy",
            0x008 => "powerup",
            0x010 => "shot",
            0x020 => "pshot",
            0x040 => "eshot",
            0x080 => "special",
            0x100 => "user1",
            0x200 => "user2",
            0x300 => "user3",
            0x400 => "user4",
            _ => return None,
        })
    }
}

/// One object: the fixed part cast in place and its four strings borrowed (Windows
/// code-page bytes, no terminator).
#[derive(Clone, Copy)]
pub struct Object<'data> {
    raw: &'data ObjectFixed,
    offset: usize,
    name: &'data [u8],
    logic: &'data [u8],
    image_set: &'data [u8],
    animation: &'data [u8],
}

impl fmt::Debug for Object<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Object")
            .field("id", &self.id())
            .field("logic", &decode(self.logic, CodePage::Cp1252))
            .field("position", &self.position())
            .finish_non_exhaustive()
    }
}

impl<'data> Object<'data> {
    /// The fixed part, every field.
    pub fn raw(&self) -> &'data ObjectFixed {
        self.raw
    }

    /// Absolute offset of the object in the level image.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Bytes from the object's start to the end of its last string.
    pub fn stored_len(&self) -> usize {
        // Four slices of the level's image after the fixed part: their sum is within it.
        OBJECT_FIXED_LEN
            .saturating_add(self.name.len())
            .saturating_add(self.logic.len())
            .saturating_add(self.image_set.len())
            .saturating_add(self.animation.len())
    }

    /// The id.
    pub fn id(&self) -> i32 {
        self.raw.id.get()
    }

    /// The name string's bytes.
    pub fn name(&self) -> &'data [u8] {
        self.name
    }

    /// The logic string's bytes (the behaviour: `Treasure`, `Officer`, `TowerCannonLeft`).
    pub fn logic(&self) -> &'data [u8] {
        self.logic
    }

    /// The image-set string's bytes.
    pub fn image_set(&self) -> &'data [u8] {
        self.image_set
    }

    /// The animation string's bytes.
    pub fn animation(&self) -> &'data [u8] {
        self.animation
    }

    /// Location (x, y) in pixels.
    pub fn position(&self) -> (i32, i32) {
        (self.raw.x.get(), self.raw.y.get())
    }

    /// Location z.
    pub fn z(&self) -> i32 {
        self.raw.z.get()
    }

    /// Add flags.
    pub fn add_flags(&self) -> AddFlags {
        AddFlags::from_bits_retain(self.raw.add_flags.get())
    }

    /// Dynamic flags.
    pub fn dynamic_flags(&self) -> DynamicFlags {
        DynamicFlags::from_bits_retain(self.raw.dynamic_flags.get())
    }

    /// Draw flags.
    pub fn draw_flags(&self) -> DrawFlags {
        DrawFlags::from_bits_retain(self.raw.draw_flags.get())
    }

    /// User flags 1 to 12 as bits 0 to 11 (other bits kept).
    pub fn user_flags(&self) -> u32 {
        self.raw.user_flags.get()
    }

    /// True if user flag `n` (1 to 12) is set.
    pub fn user_flag(&self, n: u32) -> bool {
        (1..=12).contains(&n) && self.user_flags() & (1u32 << n.saturating_sub(1)) != 0
    }

    /// The object type value.
    pub fn object_type(&self) -> ObjectType {
        ObjectType(self.raw.object_type.get())
    }

    /// Hit type flags.
    pub fn hit_type_flags(&self) -> HitTypeFlags {
        HitTypeFlags::from_bits_retain(self.raw.hit_type_flags.get())
    }
}

/// Iterator over a plane's objects, in stored order. Yields an error and stops at an
/// object whose fixed part or strings do not fit in the image: the next object's start is
/// unknown past it.
#[derive(Clone, Debug)]
pub struct Objects<'data> {
    plane: usize,
    image: Bytes<'data>,
    /// The earlier section that starts where these objects do (none are read then).
    shared: Option<SectionKind>,
    offset: usize,
    index: usize,
    count: u32,
    failed: bool,
}

impl<'data> Objects<'data> {
    pub(crate) fn new(
        plane: usize,
        room: std::result::Result<&'data [u8], SectionKind>,
        offset: usize,
        count: u32,
    ) -> Self {
        Objects {
            plane,
            image: Bytes::new(room.unwrap_or_default()),
            shared: room.err(),
            offset,
            index: 0,
            count,
            failed: false,
        }
    }

    /// Absolute offset of the next object; after the last one, the end of the objects.
    pub fn offset(&self) -> usize {
        self.offset
    }

    fn read(&self) -> std::result::Result<Object<'data>, gamedata_io::ReadError> {
        let raw = self.image.read_at::<ObjectFixed>(self.offset)?;
        let lens @ [name_len, logic_len, image_set_len, _] = [
            raw.name_len.get() as usize,
            raw.logic_len.get() as usize,
            raw.image_set_len.get() as usize,
            raw.animation_len.get() as usize,
        ];
        // One bounds check for the four strings (a sum that overflows is past any end).
        let total = lens.iter().try_fold(0usize, |sum, &n| sum.checked_add(n));
        let strings = self.image.bytes_at(
            self.offset.saturating_add(OBJECT_FIXED_LEN),
            total.unwrap_or(usize::MAX),
        )?;
        // The strings hold exactly the four lengths, so the splits are in range.
        let empty: &[u8] = &[];
        let (name, rest) = strings.split_at_checked(name_len).unwrap_or((empty, empty));
        let (logic, rest) = rest.split_at_checked(logic_len).unwrap_or((empty, empty));
        let (image_set, animation) = rest
            .split_at_checked(image_set_len)
            .unwrap_or((empty, empty));
        Ok(Object {
            raw,
            offset: self.offset,
            name,
            logic,
            image_set,
            animation,
        })
    }
}

impl<'data> Iterator for Objects<'data> {
    type Item = Result<Object<'data>, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.index >= self.count as usize {
            return None;
        }
        if let Some(other) = self.shared {
            self.failed = true;
            return Some(Err(ErrorKind::SectionShared {
                section: SectionKind::Objects(self.plane),
                other,
                offset: self.offset,
            }
            .into()));
        }
        match self.read() {
            Ok(object) => {
                // Within the image, which fits in memory.
                self.offset = self.offset.saturating_add(object.stored_len());
                self.index = self.index.saturating_add(1);
                Some(Ok(object))
            }
            Err(source) => {
                self.failed = true;
                Some(Err(ErrorKind::Object {
                    plane: self.plane,
                    index: self.index,
                    read: source,
                }
                .into()))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.failed {
            return (0, Some(0));
        }
        (0, Some((self.count as usize).saturating_sub(self.index)))
    }
}
