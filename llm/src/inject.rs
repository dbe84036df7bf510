//! Signature injection, the interrupt half of the IBMS idea: when the model has written the
//! name of a function and goes on to apply it, the function's signature is put into the
//! model's context at that point as a Rex comment (`{- f : A -> B -}`), so the arguments it
//! writes next are conditioned on their types. The comment is appended to the engine's KV
//! cache only (no re-prefill); it never enters the fill's text or the grammar's state, so
//! the returned fill carries no trace of it.

use std::collections::HashMap;

use rex_compiler::types::Ty;
use rex_ide::context::Context;

#[cfg(feature = "embedded")]
use crate::engine::{Engine, EngineError, Token};

/// The signatures of the functions visible at a hole, by name: the locals and the
/// offerable globals (user functions, prelude functions, class methods) whose type is a
/// function. Locals shadow globals.
#[derive(Clone, Debug, Default)]
pub struct Signatures {
    by_name: HashMap<String, String>,
}

impl Signatures {
    pub fn at(ctx: &Context<'_>) -> Signatures {
        let mut by_name = HashMap::new();
        for g in &ctx.globals {
            if matches!(g.scheme.ty, Ty::Fun(..)) {
                by_name.insert(g.name.clone(), g.scheme.to_string());
            }
        }
        for l in &ctx.locals {
            if matches!(l.scheme.ty, Ty::Fun(..)) {
                by_name.insert(l.name.clone(), l.scheme.to_string());
            } else {
                by_name.remove(&l.name);
            }
        }
        Signatures { by_name }
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The comment to inject after `name`, when it names a function.
    pub fn comment(&self, name: &str) -> Option<String> {
        let ty = self.by_name.get(name)?;
        // `-}` inside a printed type cannot occur, but a comment must never end early.
        (!ty.contains("-}")).then(|| format!(" {{- {name} : {ty} -}}"))
    }
}

/// Where the fill's text stands for injection: the function name it ends with, when the
/// name is whole (preceded by no identifier character) and the model's next token starts
/// an argument (a space or an opening bracket, not more of the name).
pub fn applied_name<'t>(text: &'t [u8], next: &[u8]) -> Option<&'t str> {
    let is_ident = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'\'';
    let n = text.iter().rev().take_while(|c| is_ident(c)).count();
    if n == 0 {
        return None;
    }
    let start = text.len() - n;
    // `M.f` and `r.field` are not names of the scope's functions.
    if start > 0 && text[start - 1] == b'.' {
        return None;
    }
    let name = std::str::from_utf8(&text[start..]).ok()?;
    if !name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
        return None;
    }
    let starts_argument = match next {
        [b'(' | b'[', ..] => true,
        [b' ', rest @ ..] => rest.first().is_none_or(|c| {
            c.is_ascii_alphanumeric() || matches!(c, b'(' | b'[' | b'"' | b'\\' | b'_' | b'?')
        }),
        _ => false,
    };
    starts_argument.then_some(name)
}

#[cfg(feature = "embedded")]
/// Appends the comment to the engine's context; the number of tokens it took, 0 when it
/// did not fit (a fill is never lost to its comment).
pub fn inject(engine: &mut dyn Engine, comment: &str) -> Result<usize, EngineError> {
    let tokens: Vec<Token> = engine.tokenize(comment, false)?;
    match engine.prefill(&tokens) {
        Ok(()) => Ok(tokens.len()),
        Err(EngineError::ContextFull { .. }) => Ok(0),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_name_followed_by_an_argument_is_applied() {
        assert_eq!(applied_name(b"map", b" ("), Some("map"));
        assert_eq!(applied_name(b"(qc_label", b" sensor"), Some("qc_label"));
        assert_eq!(applied_name(b"f x", b"("), Some("x"));
        assert_eq!(applied_name(b"map", b"_f"), None);
        assert_eq!(applied_name(b"map", b" ->"), None);
        assert_eq!(applied_name(b"map", b" =="), None);
        assert_eq!(applied_name(b"M.map", b" "), None);
        assert_eq!(applied_name(b"Some", b" "), None);
        assert_eq!(applied_name(b"map ", b"("), None);
        assert_eq!(applied_name(b"map", b" + 1"), None);
        assert_eq!(applied_name(b"map", b" \\x"), Some("map"));
    }
}
