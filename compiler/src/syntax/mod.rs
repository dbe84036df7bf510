//! Text to syntax trees: lexing, layout (item splitting), parsing with total recovery.

pub mod ast;
pub mod brackets;
pub mod builder;
pub mod chunks;
pub mod collapse;
pub mod expected;
mod item_parser;
pub mod layout;
pub mod lexer;
pub mod parser;
pub mod prelude_syntax;
pub mod print;
pub mod token;

#[allow(clippy::all, unused_parens, unused_imports)]
mod grammar {
    include!(concat!(env!("OUT_DIR"), "/syntax/grammar.rs"));
}
