//! Map ids: `uo/0/flat`, `wwd/RETAIL01`, `cosmo/A1`, each with options after `?` as the
//! command line's flags (`cosmo/A1?actors,backdrop`, `wwd/RETAIL01?plane=Front`), comma
//! separated, a flag alone or `name=value`.

use anyhow::{Result, bail};

/// An id cut into its path (`uo/0/flat`) and its options, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MapId {
    /// The parts of the path: `["uo", "0", "flat"]`.
    pub(crate) parts: Vec<String>,
    /// The options: `("actors", None)`, `("plane", Some("Front"))`.
    pub(crate) options: Vec<(String, Option<String>)>,
}

impl MapId {
    /// Cuts `id` into its path and options (never fails: [`MapId::check`] checks them).
    pub(crate) fn parse(id: &str) -> Self {
        let (path, options) = id.split_once('?').unwrap_or((id, ""));
        let parts = path.split('/').map(str::to_owned).collect();
        let options = options
            .split(',')
            .filter(|o| !o.is_empty())
            .map(|o| match o.split_once('=') {
                Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
                None => (o.to_owned(), None),
            })
            .collect();
        MapId { parts, options }
    }

    /// Checks the options against `known` (`"actors"` a flag, `"plane="` one with a value).
    pub(crate) fn check(&self, id: &str, known: &[&str]) -> Result<()> {
        for (name, value) in &self.options {
            let wanted = match value {
                Some(_) => format!("{name}="),
                None => name.clone(),
            };
            if !known.contains(&wanted.as_str()) {
                let list = if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                };
                bail!(
                    "the map id {id:?} has the option {wanted:?}; its options are: {list} \
                     (a name= option takes a value)"
                );
            }
        }
        Ok(())
    }

    /// Whether flag `name` is given.
    pub(crate) fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, v)| n == name && v.is_none())
    }

    /// The value of option `name`, if given (the last one given).
    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, v)| n == name && v.is_some())
            .and_then(|(_, v)| v.as_deref())
    }

    /// The value of option `name` as a number, if given.
    pub(crate) fn number<T: std::str::FromStr>(&self, id: &str, name: &str) -> Result<Option<T>> {
        match self.value(name) {
            None => Ok(None),
            Some(text) => match text.parse() {
                Ok(v) => Ok(Some(v)),
                Err(_) => bail!("the map id {id:?} gives {name}={text}, which is not a number"),
            },
        }
    }

    /// The path: the id before `?`.
    pub(crate) fn path(&self) -> String {
        self.parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_cut_into_path_and_options() {
        let id = MapId::parse("cosmo/A1?actors,backdrop,max-zoom=3");
        assert_eq!(id.parts, ["cosmo", "A1"]);
        assert!(id.flag("actors") && id.flag("backdrop") && !id.flag("attributes"));
        assert_eq!(id.value("max-zoom"), Some("3"));
        assert_eq!(id.number::<u8>("x", "max-zoom").expect("a number"), Some(3));
        assert_eq!(id.path(), "cosmo/A1");
        assert!(id.check("x", &["actors", "backdrop", "max-zoom="]).is_ok());
        let e = id
            .check("cosmo/A1?actors", &["actors"])
            .expect_err("backdrop unknown");
        assert_eq!(
            e.to_string(),
            "the map id \"cosmo/A1?actors\" has the option \"backdrop\"; its options are: \
             actors (a name= option takes a value)"
        );
        let plain = MapId::parse("uo/0/flat");
        assert!(plain.options.is_empty());
        assert!(plain.check("uo/0/flat", &[]).is_ok());
        let bad = MapId::parse("wwd/A?time=soon");
        assert!(bad.number::<u64>("wwd/A?time=soon", "time").is_err());
    }
}
