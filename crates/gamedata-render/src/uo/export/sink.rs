//! What the caller of an export gives it: where the pictures go ([`PngSink`]; a folder on
//! disk is [`FolderWriter`]) and whom to tell the progress ([`ExportProgress`]).

use std::path::{Path, PathBuf};

use crate::files::{WriteError, write_small};

/// Where an export's PNG files go: a folder ([`FolderWriter`]), a zip archive, memory.
///
/// Names are relative, their parts joined by `/`: `land/0x0003.png`,
/// `items/0x0EED.png`, `gumps/0x01F4.png`, `texmaps/0x0012.png`, and for animations a
/// folder an entry (`anims/anim2/0x00C8/03/2`) holding its frames (`000.png`, `001.png`
/// ...). The export calls the sink from rayon's threads, each name once.
pub trait PngSink: Sync {
    /// Makes folder `name` before the export writes into it (the export's top folders:
    /// `land` and `items`, `gumps`, `texmaps`; each animation entry's folder of frames).
    /// A sink without folders returns `Ok(())`.
    ///
    /// Returns `Err` when the folder cannot be made: the export stops for a top folder,
    /// and counts an animation entry's frames as failed.
    fn create_folder(&self, name: &str) -> Result<(), WriteError>;

    /// Writes `png`, one picture's PNG file, under `name`.
    ///
    /// Returns `Err` when it cannot be written: the export counts the entry as failed and
    /// goes on.
    fn write(&self, name: &str, png: &[u8]) -> Result<(), WriteError>;

    /// How the report's messages name `name` (a file or folder of the export): the name
    /// itself unless the sink says otherwise ([`FolderWriter`] gives the path).
    fn locate(&self, name: &str) -> String {
        name.to_owned()
    }
}

/// How an export tells its progress: called from any thread. An export runs one pass for
/// art, gumps and texture maps, and one a file for animations (anim.mul ... anim5.mul,
/// then AnimationFrame*.uop). `()` tells nothing.
pub trait ExportProgress: Sync {
    /// A pass over `entries` used entries begins.
    fn start(&self, entries: u64) {
        let _ = entries;
    }

    /// `entries` more entries of the pass are drawn and written.
    fn advance(&self, entries: u64) {
        let _ = entries;
    }

    /// The pass's entries drawn in parallel are done (those put off, drawn alone after
    /// them, follow without progress).
    fn finish(&self) {}
}

impl ExportProgress for () {}

/// The pictures written into a folder on disk, each file whole or not at all, never over
/// one of the inputs ([`crate::files::write_small`]; a file holding the bytes already is
/// left as it is): the folder writer of `gamedata uo export`.
#[derive(Clone, Debug)]
pub struct FolderWriter {
    root: PathBuf,
    inputs: Vec<PathBuf>,
}

impl FolderWriter {
    /// A writer into folder `root` (made by the caller: the export makes the folders
    /// inside it) that writes over none of `inputs`, the files the pictures are read
    /// from.
    pub fn new(root: impl Into<PathBuf>, inputs: Vec<PathBuf>) -> Self {
        FolderWriter {
            root: root.into(),
            inputs,
        }
    }

    /// The path of `name` (its parts split at `/`) under the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        name.split('/')
            .fold(self.root.clone(), |path, part| path.join(part))
    }
}

impl PngSink for FolderWriter {
    /// Makes the folder and the folders above it that are missing.
    ///
    /// Returns `Err` (`cannot create PATH`, the I/O error its cause) when it cannot.
    fn create_folder(&self, name: &str) -> Result<(), WriteError> {
        let path = self.path(name);
        std::fs::create_dir_all(&path)
            .map_err(|e| WriteError::with_source(format!("cannot create {}", path.display()), e))
    }

    /// Writes the file as [`crate::files::write_small`] does.
    ///
    /// Returns its errors.
    fn write(&self, name: &str, png: &[u8]) -> Result<(), WriteError> {
        let inputs: Vec<&Path> = self.inputs.iter().map(PathBuf::as_path).collect();
        write_small(&self.path(name), &inputs, png)
    }

    /// The path under the folder.
    fn locate(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }
}
