//! Name resolution and bidirectional type inference with marks.

pub mod env;
pub mod errors;
pub mod lower;
