//! Machinery shared by the editor features (hover, completion, signature help, navigation,
//! symbols, inlay hints): what a name at an offset denotes (finding the item and node there
//! is `crate::locate`'s).

pub mod symbol;
