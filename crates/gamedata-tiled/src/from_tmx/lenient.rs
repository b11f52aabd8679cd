//! The typed parts of a TMJ map, read by serde_json as the import takes them: strings
//! borrowed from the text where they have no escapes; any value of another kind than the
//! one read taken as a missing one (a scalar that is an array or object, a list that is
//! not an array, a JSON object that is something else); of a key given twice, the last;
//! layers, a layer's `data` and its objects kept as their JSON text, read later one at a
//! time. And [`Valid`]: the whole text checked as serde_json checks any JSON.
//!
//! Each part is read through [`Read`] with the import's [`Budget`]: a list's items are
//! charged one by one as they are read (the item and its slot, twice for the room a growing
//! list may keep), an owned string as it is made, so that no list is whole before it is
//! counted.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::value::RawValue;

use super::element::{Budget, owned};
use crate::TiledError;

/// A part of the map read with the import's budget.
pub(super) trait Read<'de>: Sized {
    fn read<D: Deserializer<'de>>(d: D, budget: &Budget) -> Result<Self, D::Error>;
}

/// The seed that reads a `T` with the budget.
pub(super) struct Seed<'b, T>(&'b Budget, PhantomData<T>);

impl<'b, T> Seed<'b, T> {
    pub(super) fn new(budget: &'b Budget) -> Self {
        Seed(budget, PhantomData)
    }
}

impl<'de, T: Read<'de>> DeserializeSeed<'de> for Seed<'_, T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::read(d, self.0)
    }
}

/// `text` (all of it, white space around) read as a `T` with `budget`; the budget's error
/// when it ran out, else serde_json's, as `json_error` makes it.
pub(super) fn read_json<'a, T: Read<'a>>(
    text: &'a str,
    budget: &Budget,
    json_error: fn(serde_json::Error) -> TiledError,
) -> Result<T, TiledError> {
    let mut de = serde_json::Deserializer::from_str(text);
    Seed::<T>::new(budget)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| budget.exceeded().unwrap_or_else(|| json_error(e)))
}

impl<'de> Read<'de> for Scalar<'de> {
    fn read<D: Deserializer<'de>>(d: D, budget: &Budget) -> Result<Self, D::Error> {
        let s = Scalar::deserialize(d)?;
        if let Scalar::Text(t) = &s {
            budget.charge_de(owned(t))?;
        }
        Ok(s)
    }
}

impl<'de> Read<'de> for &'de RawValue {
    fn read<D: Deserializer<'de>>(d: D, _: &Budget) -> Result<Self, D::Error> {
        <&RawValue>::deserialize(d)
    }
}

impl<'de> Read<'de> for Option<&'de RawValue> {
    fn read<D: Deserializer<'de>>(d: D, _: &Budget) -> Result<Self, D::Error> {
        <Option<&RawValue>>::deserialize(d)
    }
}

/// What an item of a list of `T` is charged: its value and its slot, twice.
fn item_cost<T>() -> u64 {
    (std::mem::size_of::<T>() as u64).saturating_mul(2)
}

/// A JSON scalar as the TMX attribute text it stands for; any other value as none.
#[derive(Default)]
pub(super) enum Scalar<'a> {
    #[default]
    None,
    Text(Cow<'a, str>),
    Number(serde_json::Number),
    Bool(bool),
}

impl<'a> Scalar<'a> {
    /// The attribute text: strings as they are, numbers and booleans as JSON writes them.
    pub(super) fn text(&self) -> Option<Cow<'a, str>> {
        match self {
            Scalar::None => None,
            Scalar::Text(s) => Some(s.clone()),
            Scalar::Number(n) => Some(Cow::Owned(n.to_string())),
            Scalar::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        }
    }

    /// The string, for a string.
    pub(super) fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::Text(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Scalar<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Text(Cow::Owned(v.to_owned())))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Number(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Number(v.into()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Scalar<'de>, E> {
                Ok(serde_json::Number::from_f64(v).map_or(Scalar::None, Scalar::Number))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Scalar<'de>, E> {
                Ok(Scalar::Bool(v))
            }
            fn visit_unit<E>(self) -> Result<Scalar<'de>, E> {
                Ok(Scalar::None)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Scalar<'de>, A::Error> {
                drain_seq(seq).map(|()| Scalar::None)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scalar<'de>, A::Error> {
                drain_map(map).map(|()| Scalar::None)
            }
        }
        d.deserialize_any(V)
    }
}

fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// A key of a JSON object, borrowed from the text unless it has escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// An array's values, `None` for any other value.
pub(super) struct List<T>(pub(super) Option<Vec<T>>);

impl<T> Default for List<T> {
    fn default() -> Self {
        List(None)
    }
}

impl<'de, T: Read<'de>> Read<'de> for List<T> {
    fn read<D: Deserializer<'de>>(d: D, budget: &Budget) -> Result<Self, D::Error> {
        struct V<'b, T>(&'b Budget, PhantomData<T>);
        impl<'de, T: Read<'de>> Visitor<'de> for V<'_, T> {
            type Value = List<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<List<T>, A::Error> {
                let mut list = Vec::new();
                // Each item charged as it is read, before it is kept.
                while let Some(v) = seq.next_element_seed(Seed::<T>::new(self.0))? {
                    self.0.charge_de(item_cost::<T>())?;
                    list.push(v);
                }
                Ok(List(Some(list)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<List<T>, A::Error> {
                drain_map(map).map(|()| List(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<List<T>, E> {
                Ok(List(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<List<T>, E> {
                Ok(List(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<List<T>, E> {
                Ok(List(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<List<T>, E> {
                Ok(List(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<List<T>, E> {
                Ok(List(None))
            }
            fn visit_unit<E>(self) -> Result<List<T>, E> {
                Ok(List(None))
            }
        }
        d.deserialize_any(V(budget, PhantomData))
    }
}

/// A JSON object read into `T` key by key ([`Fields`]); any other value as `T`'s default.
pub(super) struct Lenient<T>(pub(super) T);

/// The keys a JSON object of the map has that the import reads.
trait Fields<'de>: Default {
    /// Reads the value of `key` (ignored unless the import reads it) with `budget`.
    fn field<A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
        budget: &Budget,
    ) -> Result<(), A::Error>;
}

impl<'de, T: Fields<'de>> Read<'de> for Lenient<T> {
    fn read<D: Deserializer<'de>>(d: D, budget: &Budget) -> Result<Self, D::Error> {
        struct V<'b, T>(&'b Budget, PhantomData<T>);
        impl<'de, T: Fields<'de>> Visitor<'de> for V<'_, T> {
            type Value = Lenient<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Lenient<T>, A::Error> {
                let mut t = T::default();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    t.field(&key.0, &mut map, self.0)?;
                }
                Ok(Lenient(t))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Lenient<T>, A::Error> {
                drain_seq(seq).map(|()| Lenient(T::default()))
            }
            fn visit_str<E>(self, _: &str) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::default()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::default()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::default()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::default()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::default()))
            }
            fn visit_unit<E>(self) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::default()))
            }
        }
        d.deserialize_any(V(budget, PhantomData))
    }
}

/// Declares a [`Fields`] struct: each field the value of its JSON key.
macro_rules! fields {
    ($(#[$doc:meta])* $name:ident { $($key:literal => $field:ident: $ty:ty,)* }) => {
        $(#[$doc])*
        #[derive(Default)]
        pub(super) struct $name<'a> {
            $(pub(super) $field: $ty,)*
        }

        impl<'a> Fields<'a> for $name<'a> {
            fn field<A: MapAccess<'a>>(
                &mut self,
                key: &str,
                map: &mut A,
                budget: &Budget,
            ) -> Result<(), A::Error> {
                match key {
                    $($key => self.$field = map.next_value_seed(Seed::<$ty>::new(budget))?,)*
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(())
            }
        }
    };
}

fields!(
    /// The map: its size, properties and tilesets; its layers as their JSON text.
    MapJ {
        "type" => kind: Scalar<'a>,
        "width" => width: Scalar<'a>,
        "height" => height: Scalar<'a>,
        "tilewidth" => tilewidth: Scalar<'a>,
        "tileheight" => tileheight: Scalar<'a>,
        "properties" => properties: List<Lenient<PropJ<'a>>>,
        "tilesets" => tilesets: List<Lenient<TilesetJ<'a>>>,
        "layers" => layers: List<&'a RawValue>,
    }
);

fields!(
    /// A custom property.
    PropJ {
        "name" => name: Scalar<'a>,
        "type" => kind: Scalar<'a>,
        "value" => value: Scalar<'a>,
    }
);

fields!(
    /// A tileset.
    TilesetJ {
        "firstgid" => firstgid: Scalar<'a>,
        "name" => name: Scalar<'a>,
        "tilecount" => tilecount: Scalar<'a>,
        "objectalignment" => objectalignment: Scalar<'a>,
        "source" => source: Scalar<'a>,
        "properties" => properties: List<Lenient<PropJ<'a>>>,
        "tiles" => tiles: List<Lenient<TileJ<'a>>>,
    }
);

fields!(
    /// A tile of a tileset.
    TileJ {
        "id" => id: Scalar<'a>,
        "properties" => properties: List<Lenient<PropJ<'a>>>,
        "image" => image: Scalar<'a>,
        "imagewidth" => imagewidth: Scalar<'a>,
        "imageheight" => imageheight: Scalar<'a>,
    }
);

fields!(
    /// A layer: its cells and objects as their JSON text.
    LayerJ {
        "name" => name: Scalar<'a>,
        "type" => kind: Scalar<'a>,
        "properties" => properties: List<Lenient<PropJ<'a>>>,
        "data" => data: Option<&'a RawValue>,
        "objects" => objects: List<&'a RawValue>,
    }
);

fields!(
    /// An object of an object layer.
    ObjectJ {
        "id" => id: Scalar<'a>,
        "name" => name: Scalar<'a>,
        "type" => kind: Scalar<'a>,
        "class" => class: Scalar<'a>,
        "gid" => gid: Scalar<'a>,
        "x" => x: Scalar<'a>,
        "y" => y: Scalar<'a>,
        "width" => width: Scalar<'a>,
        "height" => height: Scalar<'a>,
        "rotation" => rotation: Scalar<'a>,
        "properties" => properties: List<Lenient<PropJ<'a>>>,
        "point" => point: Scalar<'a>,
    }
);

/// Any JSON value, read as serde_json reads it into a value, nothing kept: the checks of
/// the whole text.
pub(super) struct Valid;

impl<'de> Deserialize<'de> for Valid {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Valid;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Valid, E> {
                Ok(Valid)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Valid, E> {
                Ok(Valid)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Valid, E> {
                Ok(Valid)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Valid, E> {
                Ok(Valid)
            }
            fn visit_str<E>(self, _: &str) -> Result<Valid, E> {
                Ok(Valid)
            }
            fn visit_unit<E>(self) -> Result<Valid, E> {
                Ok(Valid)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Valid, A::Error> {
                while seq.next_element::<Valid>()?.is_some() {}
                Ok(Valid)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Valid, A::Error> {
                while map.next_key::<Valid>()?.is_some() {
                    map.next_value::<Valid>()?;
                }
                Ok(Valid)
            }
        }
        d.deserialize_any(V)
    }
}
