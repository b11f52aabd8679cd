//! Cosmo's Cosmic Adventure: an episode's COSMOn.STN with COSMOn.VOL, its maps drawn as
//! `cosmo tiles` draws them (the whole map, held as one picture, cut into tiles).

use anyhow::{Context, Result, bail};
use gamedata_render::RgbaImage;
use gamedata_render::cosmo::{LayerOptions, draw_level};
use mni_core::{EpisodeFiles, EpisodeOptions, EpisodePaths};

use crate::files::{File, Folder};
use crate::id::MapId;

/// The options of a Cosmo map id: `cosmo tiles`' flags.
pub(crate) const OPTIONS: &[&str] = &["actors", "backdrop", "attributes", "episode=", "max-zoom="];

/// An episode's two group files.
pub(crate) struct Episode {
    /// The episode number (COSMO{n}.STN).
    pub(crate) number: u8,
    stn: File,
    vol: File,
}

impl Episode {
    /// The episodes in `folder`: each n with both COSMO{n}.STN and COSMO{n}.VOL (any letter
    /// case).
    pub(crate) fn find(folder: &Folder) -> Vec<Episode> {
        (0..=9)
            .filter_map(|n| {
                let stn = folder.find(&format!("COSMO{n}.STN"))?;
                let vol = folder.find(&format!("COSMO{n}.VOL"))?;
                Some(Episode {
                    number: n,
                    stn: stn.clone(),
                    vol: vol.clone(),
                })
            })
            .collect()
    }

    /// The files, opened as `cosmo` opens them.
    fn open(&self) -> Result<EpisodeFiles> {
        let paths = EpisodePaths {
            stn: self.stn.path_buf(),
            vol: self.vol.path_buf(),
        };
        EpisodeFiles::from_data(
            paths,
            [self.stn.data()?, self.vol.data()?],
            &EpisodeOptions::default(),
        )
        .with_context(|| self.doing())
    }

    /// What the errors say was being done.
    fn doing(&self) -> String {
        format!(
            "reading episode {} ({} and {})",
            self.number, self.stn.path, self.vol.path
        )
    }

    /// The maps' names without `.MNI` (`A1`), in directory order.
    pub(crate) fn map_names(&self) -> Result<Vec<String>> {
        let files = self.open()?;
        let episode = files.view().with_context(|| self.doing())?;
        Ok(episode
            .level_names()
            .map(|e| {
                let name = e.name_lossy();
                match name.rsplit_once('.') {
                    Some((stem, ext)) if ext.eq_ignore_ascii_case("MNI") => stem.to_owned(),
                    _ => name.into_owned(),
                }
            })
            .collect())
    }

    /// Map `name` (`A1`) drawn with the layers `id` asks for, as `cosmo tiles` draws it.
    pub(crate) fn draw(&self, name: &str, id: &MapId) -> Result<RgbaImage> {
        let files = self.open()?;
        let episode = files.view().with_context(|| self.doing())?;
        let entry = format!("{name}.MNI");
        let doing = || {
            format!(
                "reading map {entry} of episode {} in {}",
                self.number, self.stn.path
            )
        };
        let Some(map) = episode.level(&entry).with_context(doing)? else {
            bail!("episode {} has no map {entry}", self.number);
        };
        let layers = LayerOptions {
            backdrop: id.flag("backdrop"),
            actors: id.flag("actors"),
            attributes: id.flag("attributes"),
        };
        let picture =
            draw_level(&episode, &map, &layers).with_context(|| format!("drawing {entry}"))?;
        Ok(picture.image)
    }
}
