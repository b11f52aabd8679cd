//! How the game shows each actor type of a map at level start: its sprite type, the shift
//! from the map position, and how it is drawn.
//!
//! A map places a normal actor by actor type (the stored type minus 31) and the tile of its
//! sprite's bottom-left corner; the game's `NewActorAtIndex` gives each of its 245 actor
//! types a sprite type (an index into ACTRINFO.MNI, not always the actor type) and shifts
//! some from the map position by a few tiles. Every actor starts at frame 0. The table here is
//! that function's, as Cosmodoc's "Actor Database" lists it; two ceiling actors are drawn
//! flipped top to bottom, and six sprite types are never shown (Cosmore's `sprite.h`).
//! Source: `docs/formats/cosmo.md`, "Actors".

/// How the game draws an actor at level start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActorDraw {
    /// As its frame's tiles are.
    Normal,
    /// Flipped top to bottom (the ceiling clam plant and eye plant, actor types 84 and 96).
    Flipped,
    /// Never drawn: triggers and emitters whose sprite type the game never shows (sprite
    /// types 150, 164, 248, 249, 250 and 265).
    Hidden,
}

/// The sprite of one actor type, and where the game puts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActorSprite {
    /// The actor type (map actor type minus 31).
    pub actor_type: u16,
    /// The sprite type: an index into ACTRINFO.MNI
    /// ([`SpriteTable::frames`](crate::SpriteTable::frames)).
    pub sprite: u16,
    /// Tiles added to the map's x (negative = west).
    pub shift_x: i8,
    /// Tiles added to the map's y (positive = south).
    pub shift_y: i8,
    /// How it is drawn.
    pub draw: ActorDraw,
}

impl ActorSprite {
    /// The sprite of `actor_type`, or `None` for a type the game does not define (it creates
    /// no actor for those).
    pub fn of(actor_type: u16) -> Option<ActorSprite> {
        ACTOR_SPRITES
            .binary_search_by_key(&actor_type, |a| a.actor_type)
            .ok()
            .and_then(|i| ACTOR_SPRITES.get(i))
            .copied()
    }

    /// The top-left tile of a `height`-tile-high frame of this actor placed at map tile
    /// `x`, `y`: the shifted position is the frame's bottom-left tile. In tiles; may be
    /// negative or past the map for an actor at its edge.
    pub fn top_left(&self, x: u16, y: u16, height: u16) -> (i32, i32) {
        // u16 and i8 values in i32: no overflow.
        let left = i32::from(x).saturating_add(i32::from(self.shift_x));
        let bottom = i32::from(y).saturating_add(i32::from(self.shift_y));
        (
            left,
            bottom.saturating_sub(i32::from(height)).saturating_add(1),
        )
    }
}

const fn a(actor_type: u16, sprite: u16, shift_x: i8, shift_y: i8, draw: ActorDraw) -> ActorSprite {
    ActorSprite {
        actor_type,
        sprite,
        shift_x,
        shift_y,
        draw,
    }
}

use ActorDraw::{Flipped, Hidden, Normal};

/// Every actor type the game defines, sorted by actor type (Cosmodoc, "Actor Database").
pub const ACTOR_SPRITES: [ActorSprite; 245] = [
    a(0, 0, 0, 0, Normal),
    a(1, 1, 0, 0, Normal),
    a(2, 2, 0, 0, Normal),
    a(3, 3, 0, 0, Normal),
    a(4, 4, -4, 0, Normal),
    a(5, 5, 0, 0, Normal),
    a(6, 5, -1, 0, Normal),
    a(7, 7, 0, 1, Normal),
    a(8, 8, 0, 1, Normal),
    a(9, 9, 0, 1, Normal),
    a(10, 10, 0, 1, Normal),
    a(11, 11, 0, 0, Normal),
    a(12, 12, 0, 0, Normal),
    a(13, 13, 0, 0, Normal),
    a(14, 14, 0, 0, Normal),
    a(16, 16, 0, 0, Normal),
    a(17, 17, 0, 0, Normal),
    a(18, 18, 0, 0, Normal),
    a(20, 20, 0, 0, Normal),
    a(22, 20, 0, 0, Normal),
    a(24, 24, 0, 0, Normal),
    a(25, 25, 0, 0, Normal),
    a(28, 28, 0, 0, Normal),
    a(29, 29, 0, 0, Normal),
    a(31, 0, 0, 0, Normal),
    a(32, 32, 0, 0, Normal),
    a(33, 0, 0, 0, Normal),
    a(34, 34, 0, 0, Normal),
    a(35, 29, 0, 0, Normal),
    a(36, 36, 0, 0, Normal),
    a(37, 29, 0, 0, Normal),
    a(38, 38, 0, 0, Normal),
    a(39, 39, 0, 0, Normal),
    a(40, 41, 0, 0, Normal),
    a(41, 41, 0, 0, Normal),
    a(42, 43, 0, 1, Normal),
    a(43, 43, 0, 1, Normal),
    a(44, 44, 0, 0, Normal),
    a(45, 45, 0, 0, Normal),
    a(46, 46, 0, 0, Normal),
    a(47, 47, 0, 0, Normal),
    a(48, 49, 0, 1, Normal),
    a(49, 49, 0, 1, Normal),
    a(50, 49, 0, 0, Normal),
    a(51, 51, 0, 0, Normal),
    a(52, 0, 0, 0, Normal),
    a(53, 0, 0, 0, Normal),
    a(54, 54, 0, 0, Normal),
    a(55, 55, 0, 0, Normal),
    a(56, 29, 0, 0, Normal),
    a(57, 57, 0, 0, Normal),
    a(58, 29, 0, 0, Normal),
    a(59, 60, 0, 0, Normal),
    a(61, 60, 0, 0, Normal),
    a(62, 62, 0, 0, Normal),
    a(63, 63, 0, 0, Normal),
    a(64, 64, 0, 0, Normal),
    a(65, 65, 0, 0, Normal),
    a(66, 68, 0, 0, Normal),
    a(67, 68, 0, 0, Normal),
    a(68, 68, 0, 0, Normal),
    a(69, 69, 0, 0, Normal),
    a(70, 70, 0, 0, Normal),
    a(71, 71, 0, 0, Normal),
    a(72, 72, 0, 0, Normal),
    a(73, 73, 0, 0, Normal),
    a(74, 75, 0, 0, Normal),
    a(75, 75, 0, 0, Normal),
    a(78, 78, 0, 0, Normal),
    a(80, 80, 0, 2, Normal),
    a(81, 0, 0, 0, Normal),
    a(82, 82, 0, 0, Normal),
    a(83, 83, 0, 0, Normal),
    a(84, 83, 0, 2, Flipped),
    a(85, 85, 0, 2, Normal),
    a(86, 86, 0, 0, Normal),
    a(87, 87, 0, 0, Normal),
    a(88, 88, 0, 0, Normal),
    a(89, 89, -3, 0, Normal),
    a(90, 90, 0, 0, Normal),
    a(91, 91, 0, 0, Normal),
    a(92, 92, 0, 0, Normal),
    a(93, 0, 0, 0, Normal),
    a(94, 94, 0, 0, Normal),
    a(95, 95, 0, 0, Normal),
    a(96, 95, 0, 1, Flipped),
    a(100, 29, 0, 0, Normal),
    a(101, 101, 0, 0, Normal),
    a(102, 102, 0, 0, Normal),
    a(104, 105, -1, 2, Normal),
    a(105, 105, -1, 2, Normal),
    a(106, 106, 0, 0, Normal),
    a(107, 108, 0, 0, Normal),
    a(108, 108, 0, 0, Normal),
    a(109, 68, 0, 0, Normal),
    a(110, 68, 0, 0, Normal),
    a(111, 111, 0, 0, Normal),
    a(112, 112, -3, 0, Normal),
    a(113, 113, 0, 0, Normal),
    a(114, 114, 0, 0, Normal),
    a(115, 0, 0, 0, Normal),
    a(116, 0, 0, 0, Normal),
    a(117, 29, 0, 0, Normal),
    a(118, 118, 0, 0, Normal),
    a(119, 0, 0, 0, Normal),
    a(120, 60, 0, 0, Normal),
    a(121, 60, 0, 0, Normal),
    a(122, 122, 0, 0, Normal),
    a(123, 123, 0, 0, Normal),
    a(124, 124, 0, 0, Normal),
    a(125, 125, 0, 0, Normal),
    a(126, 126, 0, 0, Normal),
    a(127, 127, 0, 0, Normal),
    a(128, 128, 0, 0, Normal),
    a(129, 129, 0, 0, Normal),
    a(130, 130, 0, 0, Normal),
    a(134, 134, 0, 0, Normal),
    a(135, 135, 0, 0, Normal),
    a(136, 136, 0, 0, Normal),
    a(137, 137, 0, 0, Normal),
    a(138, 138, 0, 0, Normal),
    a(139, 139, 0, 0, Normal),
    a(140, 140, 0, 0, Normal),
    a(141, 141, 0, 2, Normal),
    a(142, 29, 0, 0, Normal),
    a(143, 143, 0, 0, Normal),
    a(145, 145, 0, 7, Normal),
    a(146, 146, 0, 2, Normal),
    a(147, 147, 0, 0, Normal),
    a(148, 0, 0, 0, Normal),
    a(149, 149, -4, 0, Normal),
    a(150, 150, 0, 0, Hidden),
    a(151, 151, 0, 0, Normal),
    a(152, 152, 0, 0, Normal),
    a(153, 153, 0, 0, Normal),
    a(154, 154, 0, 0, Normal),
    a(155, 155, 0, 0, Normal),
    a(156, 29, 0, 0, Normal),
    a(157, 29, 0, 0, Normal),
    a(158, 29, 0, 0, Normal),
    a(159, 32, 0, 0, Normal),
    a(160, 34, 0, 0, Normal),
    a(161, 36, 0, 0, Normal),
    a(162, 162, 0, 0, Normal),
    a(163, 163, 0, 0, Normal),
    a(164, 164, 0, 0, Hidden),
    a(165, 164, 0, 0, Hidden),
    a(166, 164, 0, 0, Hidden),
    a(167, 0, 0, 0, Normal),
    a(168, 168, 0, 0, Normal),
    a(169, 0, 0, 0, Normal),
    a(170, 170, 0, 0, Normal),
    a(171, 0, 0, 0, Normal),
    a(172, 172, 0, 0, Normal),
    a(173, 29, 0, 0, Normal),
    a(174, 174, 0, 0, Normal),
    a(175, 29, 0, 0, Normal),
    a(176, 176, 0, 0, Normal),
    a(177, 177, 0, 0, Normal),
    a(178, 178, 0, 0, Normal),
    a(179, 179, 0, 0, Normal),
    a(180, 180, 0, 0, Normal),
    a(181, 181, 0, 0, Normal),
    a(182, 182, 0, 0, Normal),
    a(183, 183, 0, 0, Normal),
    a(184, 184, 0, 0, Normal),
    a(186, 186, 0, 0, Normal),
    a(187, 187, 0, 0, Normal),
    a(188, 188, 0, 0, Normal),
    a(189, 189, 0, 0, Normal),
    a(190, 192, 0, 0, Normal),
    a(191, 192, 0, 0, Normal),
    a(192, 192, 0, 0, Normal),
    a(193, 29, 0, 0, Normal),
    a(194, 194, 0, 0, Normal),
    a(195, 29, 0, 0, Normal),
    a(196, 196, 0, 0, Normal),
    a(197, 29, 0, 0, Normal),
    a(198, 198, 0, 0, Normal),
    a(199, 29, 0, 0, Normal),
    a(200, 200, 0, 0, Normal),
    a(201, 201, 0, 0, Normal),
    a(202, 202, 0, 2, Normal),
    a(203, 108, 0, 0, Normal),
    a(204, 125, 0, 0, Normal),
    a(205, 125, 0, 0, Normal),
    a(206, 125, 0, 0, Normal),
    a(207, 125, 0, 0, Normal),
    a(208, 125, 0, 0, Normal),
    a(209, 125, 0, 0, Normal),
    a(210, 125, 0, 0, Normal),
    a(211, 125, 0, 0, Normal),
    a(212, 125, 0, 0, Normal),
    a(213, 194, 0, 0, Normal),
    a(214, 196, 0, 0, Normal),
    a(215, 198, 0, 0, Normal),
    a(216, 200, 0, 0, Normal),
    a(217, 2, 0, 0, Normal),
    a(218, 29, 0, 0, Normal),
    a(219, 220, 0, 0, Normal),
    a(220, 220, 0, 0, Normal),
    a(221, 221, 0, 0, Normal),
    a(223, 223, 0, 1, Normal),
    a(224, 0, 0, 0, Normal),
    a(225, 226, 0, 0, Normal),
    a(226, 226, 0, 0, Normal),
    a(227, 0, 0, 0, Normal),
    a(228, 229, 0, 0, Normal),
    a(229, 229, 0, 0, Normal),
    a(230, 0, 0, 0, Normal),
    a(231, 232, 0, 0, Normal),
    a(232, 232, 0, 0, Normal),
    a(233, 233, -1, 0, Normal),
    a(234, 234, 0, 0, Normal),
    a(235, 235, 0, 0, Normal),
    a(236, 237, 0, 1, Normal),
    a(237, 237, 0, 1, Normal),
    a(238, 125, 0, 0, Normal),
    a(239, 125, 0, 0, Normal),
    a(240, 125, 0, 0, Normal),
    a(241, 125, 0, 0, Normal),
    a(242, 125, 0, 0, Normal),
    a(243, 125, 0, 0, Normal),
    a(244, 244, 0, 0, Normal),
    a(245, 245, 0, 0, Normal),
    a(246, 246, 0, 0, Normal),
    a(247, 247, 0, 0, Normal),
    a(248, 248, 0, 0, Hidden),
    a(249, 249, 0, 0, Hidden),
    a(250, 250, 0, 0, Hidden),
    a(251, 25, 0, 0, Normal),
    a(252, 155, 0, 1, Normal),
    a(253, 125, 0, 0, Normal),
    a(254, 125, 0, 0, Normal),
    a(255, 125, 0, 0, Normal),
    a(256, 125, 0, 0, Normal),
    a(257, 125, 0, 0, Normal),
    a(258, 125, 0, 0, Normal),
    a(259, 125, 0, 0, Normal),
    a(260, 125, 0, 0, Normal),
    a(261, 125, 0, 0, Normal),
    a(262, 125, 0, 0, Normal),
    a(263, 28, 0, 0, Normal),
    a(264, 1, 0, 0, Normal),
    a(265, 265, 0, 3, Hidden),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_whole() {
        assert!(
            ACTOR_SPRITES
                .windows(2)
                .all(|w| w[0].actor_type < w[1].actor_type)
        );
        // Cosmodoc: 245 actor types from 0 to 265.
        assert_eq!(ACTOR_SPRITES.first().map(|a| a.actor_type), Some(0));
        assert_eq!(ACTOR_SPRITES.last().map(|a| a.actor_type), Some(265));
    }

    #[test]
    fn lookups() {
        // Map type 256 in A1.MNI: actor type 225, the floating red leafy vegetable, drawn with
        // sprite type 226 (Cosmore's ACT_RED_LEAFY_FLOAT and SPR_RED_LEAFY).
        assert_eq!(ActorSprite::of(225).map(|a| a.sprite), Some(226));
        assert_eq!(ActorSprite::of(15), None, "no actor type 15");
        assert_eq!(ActorSprite::of(266), None);
        let piston = ActorSprite::of(4).unwrap();
        assert_eq!((piston.shift_x, piston.shift_y), (-4, 0));
        // A 2-tile-high frame placed at (10, 5) shifted 4 west covers rows 4 and 5.
        assert_eq!(piston.top_left(10, 5, 2), (6, 4));
        assert_eq!(ActorSprite::of(96).unwrap().draw, ActorDraw::Flipped);
        assert_eq!(ActorSprite::of(165).unwrap().draw, ActorDraw::Hidden);
    }
}
