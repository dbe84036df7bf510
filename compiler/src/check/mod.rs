//! Name resolution and bidirectional type inference with marks.

pub mod env;
pub mod errors;
pub mod evidence;
pub mod infer;
pub mod item;
pub mod lower;
pub mod solve;

pub use env::{Env, ItemRef};
pub use item::{check_item, HoleInfo, ItemTypes};
