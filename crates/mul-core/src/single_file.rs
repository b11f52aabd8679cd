//! The owner's contents of a single file whose view checks it all in `parse` (tiledata.mul,
//! radarcol.mul, hues.mul, animdata.mul, verdata.mul): one macro, invoked beside each view,
//! so that each owner sits with its view and the [`Format`](gamedata_io::Format)
//! implementation is written once.

/// A single file's bytes, checked by its view's `parse` when opened and parsed again by
/// each `view`: the struct, its [`Format`](gamedata_io::Format) and its `data()`.
macro_rules! single_file {
    ($(#[$doc:meta])* $name:ident => $view:ident) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name {
            data: ::gamedata_io::FileData,
        }

        impl ::gamedata_io::Format for $name {
            type Options = ::gamedata_io::FileOptions;
            type Kind = $crate::error::ErrorKind;
            type View<'data> = $view<'data>;

            fn from_file(
                data: ::gamedata_io::FileData,
                _options: &::gamedata_io::FileOptions,
            ) -> ::std::result::Result<Self, $crate::error::DataError> {
                $view::parse(&data)?;
                Ok($name { data })
            }

            fn view(&self) -> ::std::result::Result<$view<'_>, $crate::error::DataError> {
                $view::parse(&self.data)
            }
        }

        impl $name {
            /// The bytes.
            pub fn data(&self) -> &::gamedata_io::FileData {
                &self.data
            }
        }
    };
}
