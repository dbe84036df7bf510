//! Name resolution and bidirectional type inference with marks.

mod apply;
mod cascade;
pub mod env;
pub mod errors;
pub mod evidence;
mod exhaustive;
pub mod imports;
pub mod infer;
pub mod item;
pub mod lower;
pub mod solve;

pub use env::{Env, ItemRef};
pub use item::{check_item, HoleInfo, ItemTypes};
