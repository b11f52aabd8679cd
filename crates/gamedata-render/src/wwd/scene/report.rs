//! What a scene reports having drawn and missed ([`SceneReport`]), and the caps on the
//! names of missing images it lists.

/// The longest name of a missing image listed in a [`SceneReport`], in bytes (longer ones
/// are cut, ending in `…`).
pub const MAX_NAME: usize = 300;

/// The most missing images listed in a [`SceneReport`].
pub const MAX_LISTED: usize = 100;

/// What a [`Scene`](super::Scene) drew and could not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SceneReport {
    /// Tiles of the drawn planes with an image or the fill colour (each tile of a plane
    /// once, however often a wrapping plane repeats).
    pub tiles_drawn: u64,
    /// Objects drawn with their image (in the picture or not).
    pub objects_drawn: u64,
    /// Tiles and objects whose image could not be found or read (drawn as nothing, or as
    /// markers).
    pub missing_images: u64,
    /// Pixels the planes and objects draw, each clipped to the picture (a pixel drawn by
    /// two layers counts twice); at most [`SceneOptions::max_overdraw`](super::SceneOptions::max_overdraw) times the picture's.
    pub pixels_drawn: u64,
    /// The first [`MAX_LISTED`] images missing, each once: `FOLDER frame N` (the folder as
    /// found, or the image set's key when no folder is), cut at [`MAX_NAME`] bytes.
    pub missing: Vec<String>,
    /// The level's palette as its header names it, when that file is a palette and drew
    /// the picture; `None`: each image's own palette (else grey levels).
    pub palette: Option<String>,
    /// With [`SceneOptions::time`](super::SceneOptions::time), objects drawn (or missing) at the frame their
    /// animation shows then.
    pub animated: u64,
    /// With [`SceneOptions::time`](super::SceneOptions::time), objects whose animation names an ANI file that cannot
    /// be read, or whose play passes the scene's budget of [`ANIMATION_STEPS`](super::ANIMATION_STEPS) records:
    /// drawn at their level frame.
    pub unplayed: u64,
}
