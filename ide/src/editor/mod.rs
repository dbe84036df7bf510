//! Machinery shared by the editor features (hover, completion, signature help, navigation,
//! symbols, inlay hints): finding the item and node at an offset, and what a name there
//! denotes.

pub mod locate;
pub mod symbol;
