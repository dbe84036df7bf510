//! The hole-filling benchmark: the task set (cut from the conformance programs, MVU apps
//! written for it, the LLMS guide's programs, and those programs after 600 lines of
//! unrelated declarations), the judge that runs filled programs, the
//! configurations of the ablation table and the runner that fills every task with each.

pub mod bench;
pub mod config;
pub mod cut;
pub mod judge;
pub mod large;
pub mod table;
pub mod task;
