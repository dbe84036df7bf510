//! Name resolution and bidirectional type inference with marks.

mod apply;
mod binding_ambiguity;
mod cascade;
mod declare;
pub mod env;
pub mod errors;
pub mod evidence;
mod exhaustive;
pub mod imports;
pub mod infer;
pub mod item;
pub mod item_env;
mod literals;
mod locals;
pub mod lower;
mod records;
pub mod solve;
pub mod spelling;

pub use declare::{build_program as declare_program, declare_prelude, PreludeDecls, ProgramEnv};
pub use env::{Env, FileRef, ItemRef};
pub use item::{check_item, check_item_in, check_item_quietly, CtorChoices, HoleInfo, ItemTypes};
