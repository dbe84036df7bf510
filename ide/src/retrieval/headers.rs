//! Relevant headers: values of the file, of the modules it imports and of the prelude (and
//! the prelude's constructors) whose type, after 0 to `MAX_HEADER_ARGS` arguments, fits a
//! target type, scored in the manner of the Hazel paper's `scoreEntry`: a value that *is*
//! a target type beats one that produces it after arguments, which beats one that only
//! mentions a user's target type; the expected type itself beats its parts, fewer
//! arguments beat more, arguments the values in scope can supply beat others, the user's
//! code beats the prelude, and of equal scores the code nearest the hole comes first. A
//! part of the expected type counts only when it names a user's type, and prelude values
//! only when they produce the expected type itself: that `length` gives an `i32` says
//! nothing about a hole of type `Model` whose field is one. A result that is a bare type
//! variable fits everything and says nothing, so it never counts.

use rex_compiler::check::{FileRef, ItemRef};
use rex_compiler::db::program;
use rex_compiler::types::Ty;

use crate::catalog::is_user_visible_spelling;
use crate::context::Context;
use crate::fit::{after_args, arrows, is_bare_variable, is_uninformative, Fit};
use crate::limits::{MAX_DEFINITION_LINES, MAX_HEADERS, MAX_HEADER_ARGS};
use rex_compiler::check::spelling::Spelling;

/// One relevant header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    /// `name : type`, as the hole's site writes it.
    pub signature: String,
    /// The path of the module that declares it; None for the file itself and the prelude.
    pub module: Option<String>,
    /// Higher is more relevant.
    pub score: i32,
    /// The declaration as written, for a short one of the file itself (a model reads a
    /// definition as code, and a body says more than a type).
    pub definition: Option<String>,
}

/// The best headers, best first, capped.
pub fn relevant_headers(ctx: &Context<'_>, targets: &[Ty], spelling: &Spelling) -> Vec<Header> {
    if targets.is_empty() {
        return Vec::new();
    }
    let env = ctx.env;
    let own = ctx.enclosing_fn();
    let mut fit = Fit::new();
    let targets: Vec<Ty> = targets.iter().map(|t| fit.import(t)).collect();
    let user_heads: Vec<&str> = targets
        .iter()
        .filter_map(|t| t.head_name())
        .filter(|h| {
            env.types
                .get(*h)
                .and_then(|c| c.adt)
                .is_some_and(|a| !env.adts[a].origin.is_prelude())
        })
        .collect();
    // Values, then the prelude's constructors (`Ok`, `Some`): the user's constructors are
    // in the type definitions already.
    let values = env
        .values
        .iter()
        .map(|(name, v)| (name, &v.scheme, v.origin));
    let ctors = env.ctor_index.iter().flat_map(|(name, ids)| {
        ids.iter()
            .map(|id| env.ctor(*id))
            .filter(|c| c.origin.is_prelude())
            .map(move |c| (name, &c.scheme, c.origin))
    });
    // Class methods (`show`) count as the prelude's, wherever their class is declared.
    let methods = env
        .methods
        .iter()
        .map(|(name, m)| (name, &m.scheme, ItemRef::prelude(0)));
    // The values in scope, to tell a header the hole can apply now (`mk x` with `x : i32`
    // at hand) from one that needs values the hole does not have.
    let locals: Vec<Ty> = ctx
        .locals
        .iter()
        .map(|l| fit.instantiate(&l.scheme))
        .collect();
    let here = ctx.at.as_ref().map_or(0, |a| a.index as u32);
    let mut scored: Vec<(i32, (bool, u32), Header)> = Vec::new();
    for (name, scheme, origin) in values.chain(ctors).chain(methods) {
        if !is_user_visible_spelling(name) || Some(&**name) == own {
            continue;
        }
        let prelude = origin.is_prelude();
        let t = fit.instantiate(scheme);
        let Some(score) = score(&mut fit, &t, &targets, &locals, &user_heads, prelude) else {
            continue;
        };
        // Of equal scores, the file's own code nearest the hole first, then the modules'.
        let distance = match origin.file {
            FileRef::Root => (false, origin.index.abs_diff(here)),
            _ => (true, origin.index),
        };
        let module = match origin.file {
            FileRef::Module(k) => program(ctx.doc.db, ctx.doc.db.prelude(), ctx.doc.file)
                .modules
                .get(k as usize)
                .map(|(path, _)| path.clone()),
            _ => None,
        };
        let definition = match origin.file {
            FileRef::Root => short_definition(ctx, origin.index),
            _ => None,
        };
        let header = Header {
            name: name.to_string(),
            signature: format!("{name} : {}", spelling.scheme(scheme)),
            module,
            score,
            definition,
        };
        scored.push((score, distance, header));
    }
    scored.sort_by_key(|(score, distance, _)| (-score, *distance));
    scored
        .into_iter()
        .map(|(_, _, h)| h)
        .take(MAX_HEADERS)
        .collect()
}

/// The score of a value of type `t` (None: irrelevant).
fn score(
    fit: &mut Fit,
    t: &Ty,
    targets: &[Ty],
    locals: &[Ty],
    user_heads: &[&str],
    prelude: bool,
) -> Option<i32> {
    let (params, result) = arrows(t);
    if says_nothing(&result) {
        return None;
    }
    let mut best: Option<i32> = None;
    let targets = if prelude { &targets[..1] } else { targets };
    for k in 0..=params.len().min(MAX_HEADER_ARGS) {
        let produced = fit.shallow(&after_args(&params, &result, k));
        if says_nothing(&produced) {
            continue;
        }
        for (i, target) in targets.iter().enumerate() {
            if i > 0 && !mentions_user_type(target, user_heads) {
                continue;
            }
            if !fit.fits(&produced, target) {
                continue;
            }
            let tier = match k {
                0 if fit.same(&produced, target) => 400,
                0 => 300,
                _ => 200,
            };
            // Arguments the values in scope can supply make a call the hole can write now.
            let at_hand = params[..k]
                .iter()
                .all(|p| locals.iter().any(|l| fit.fits(l, p)));
            let s = tier - 10 * i as i32 - 2 * k as i32 + if k > 0 && at_hand { 30 } else { 0 };
            best = best.max(Some(s));
        }
    }
    if best.is_none() && !prelude && mentions_user_type(t, user_heads) {
        best = Some(100);
    }
    best.map(|s| if prelude { s - 50 } else { s })
}

/// Whether `t` names one of the user's types among the target types.
fn mentions_user_type(t: &Ty, user_heads: &[&str]) -> bool {
    let mut mentions = false;
    t.visit(&mut |x| mentions |= x.head_name().is_some_and(|h| user_heads.contains(&h)));
    mentions
}

/// A type nearly every target fits: a bare variable, the unknown type of a marked
/// signature, or a variable applied to arguments (`'f 'a`, which any `Result e a` or
/// `List a` is).
fn says_nothing(t: &Ty) -> bool {
    is_bare_variable(t) || is_uninformative(t) || is_bare_variable(t.spine().0)
}

/// The text of the file's item `index` when it has at most `MAX_DEFINITION_LINES` lines.
fn short_definition(ctx: &Context<'_>, index: u32) -> Option<String> {
    let item = ctx.doc.item(index as usize)?;
    let source = ctx.doc.item_source(item).0;
    let source = source.trim();
    (source.lines().count() <= MAX_DEFINITION_LINES).then(|| source.to_string())
}
