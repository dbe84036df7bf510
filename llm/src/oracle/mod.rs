//! The type oracle: may a prefix of a fill still become a fill that type-checks? Typed
//! holes make the question cheap. The prefix is closed with holes (`close`), written in
//! place of the hole and the item re-checked through the same path every assist verifies
//! with (`rex_ide::verify`); a prefix is kept when the item has no more errors than it has
//! with the hole (hole reports are information, not errors).
//!
//! Closing with holes tests one completion, but a prefix is completable if some completion
//! is: `parse_ph reading` is wrong for `Result string string` as it stands, yet could go on
//! as an argument list, an operator or a projection that changes its type. So a prefix the
//! closed check refuses is tried once more with those continuations (`reach`) before it is
//! refused. A name cut short (`qc_label_fr`) is tried as each name it could become.
//!
//! Soundness comes first: it is tested on every prefix of every expression of the
//! conformance programs. A prefix no closing makes readable is refused (and counted: on
//! that test no real prefix is).

mod close;
mod reach;

use std::collections::HashMap;

use rex_compiler::db::{Database, SourceFile};
use rex_compiler::diagnostic::Code;
use rex_compiler::syntax::lexer::lex;
use rex_compiler::syntax::token::Tok;
use rex_compiler::types::ty::PRIMITIVE_TYPES;
use rex_compiler::types::Ty;
use rex_compiler::Position;
use rex_ide::context::Context;
use rex_ide::edit::Replace;
use rex_ide::locate::Document;
use rex_ide::verify::{item_errors_where, ItemErrors};

pub use close::{closing, closing_where, Ascription, Closing, IfStage, MatchStage, Next, Open};

use crate::grammar::KEYWORDS;

/// Names tried for a name the prefix ends inside.
const MAX_NAME_COMPLETIONS: usize = 24;

/// Every symbol the language writes; a prefix ending in part of one may become it.
const SYMBOLS: &[&str] = &[
    "||", "&&", "==", "!=", "<=", ">=", "<", ">", "::", "++", "+", "-", "*", "/", "%", "->", "=",
    ":", ".",
];

pub struct Oracle<'db> {
    doc: Document<'db>,
    item: usize,
    /// The hole's absolute byte range.
    hole: (usize, usize),
    baseline: ItemErrors,
    /// The same, counted as prefixes are (`prefix_counts`).
    prefix_baseline: ItemErrors,
    expected: Option<Ty>,
    /// Names a cut-short name may become: values, constructors, types, keywords.
    names: Vec<String>,
    /// Record field names of the program's types, for projections.
    fields: Vec<String>,
    /// One constructor with a record payload per type that has one, for the types a brace
    /// may have.
    records: Vec<String>,
    /// The top-level function the hole is in (`Context::enclosing_fn`).
    own: Option<String>,
    cache: HashMap<String, bool>,
    checks: usize,
    fallbacks: usize,
}

impl<'db> Oracle<'db> {
    /// The oracle of the hole at `pos`; None when `pos` is not on a hole.
    pub fn new(db: &'db Database, file: SourceFile, pos: Position) -> Option<Oracle<'db>> {
        let offset = rex_ide::locate::Document::new(db, file).offset(pos);
        Oracle::for_context(&Context::new(db, file, offset))
    }

    /// The oracle of the hole under `ctx` (the fill loop has the context already).
    pub fn for_context(ctx: &Context<'db>) -> Option<Oracle<'db>> {
        let at = ctx.at.as_ref()?;
        let hole = at.hole()?;
        let span = at.abs(at.item.arena.expr(hole).span);
        let item = at.index;
        let doc = Document::new(ctx.doc.db, ctx.doc.file);
        let baseline = item_errors_where(&doc, item, &[], |_| true)?;
        let prefix_baseline = item_errors_where(&doc, item, &[], prefix_counts)?;
        let fields = reach::field_names(ctx.env);
        let mut names: Vec<String> = ctx.locals.iter().map(|l| l.name.clone()).collect();
        names.extend(ctx.globals.iter().map(|g| g.name.clone()));
        names.extend(ctx.env.types.keys().map(|k| k.to_string()));
        names.extend(ctx.env.type_aliases.keys().map(|k| k.to_string()));
        names.extend(PRIMITIVE_TYPES.iter().map(|(n, _)| n.to_string()));
        names.extend(ctx.env.module_aliases.keys().map(|k| k.to_string()));
        names.extend(KEYWORDS.iter().map(|k| k.to_string()));
        names.extend(fields.iter().cloned());
        names.sort();
        names.dedup();
        let records = reach::record_constructors(ctx.env, &names);
        Some(Oracle {
            doc,
            item,
            hole: (span.start as usize, span.end as usize),
            baseline,
            prefix_baseline,
            expected: ctx.expected.clone(),
            names,
            fields,
            records,
            own: ctx.enclosing_fn().map(str::to_string),
            cache: HashMap::new(),
            checks: 0,
            fallbacks: 0,
        })
    }

    pub fn expected(&self) -> Option<&Ty> {
        self.expected.as_ref()
    }

    /// The names a fill may use (values, constructors, types, fields, keywords).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Item re-checks made so far (the oracle's cost).
    pub fn checks(&self) -> usize {
        self.checks
    }

    /// Whether `prefix` can still be completed to a fill that type-checks.
    pub fn prefix_ok(&mut self, prefix: &str) -> bool {
        if let Some(v) = self.cache.get(prefix) {
            return *v;
        }
        let v = self.decide(prefix);
        self.cache.insert(prefix.to_string(), v);
        v
    }

    /// Whether the whole `fill` type-checks in place of the hole. The function the hole is
    /// in, alone (`fn f : A -> B = (f)`), type-checks but never returns: it is refused too.
    pub fn fill_ok(&mut self, fill: &str) -> bool {
        if fill.trim().is_empty() || self.is_own_name(fill) {
            return false;
        }
        matches!(self.check(fill, true), Verdict::Fits)
    }

    /// Whether `fill` is the enclosing function's name, in brackets or not, perhaps
    /// ascribed (`(f) is (A -> B)` is `f` still).
    fn is_own_name(&self, fill: &str) -> bool {
        let Some(own) = self.own.as_deref() else {
            return false;
        };
        let (tokens, _) = lex(fill);
        let fill = match tokens.iter().find(|t| t.tok == Tok::Is) {
            Some(is) => &fill[..is.span.start as usize],
            None => fill,
        };
        fill.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace()) == own
    }

    fn decide(&mut self, prefix: &str) -> bool {
        // The enclosing function's name ascribed as the whole fill (`(f) is`, outside
        // any bracket) stays that name, which `fill_ok` refuses.
        if self.is_own_name(prefix) && ascribed_whole(prefix) {
            return false;
        }
        let mut unreadable = true;
        let may_be_record = !matches!(
            self.expected,
            Some(Ty::Con(_) | Ty::App(..) | Ty::Fun(..) | Ty::Tuple(_))
        );
        for variant in self.variants(prefix) {
            // A closer or keyword with nothing open to end stays wrong whatever follows.
            let Some(close) = closing_where(&variant, may_be_record) else {
                unreadable = false;
                continue;
            };
            for close in self.brace_types(close) {
                // What goes right after the closed text: an ascription being written,
                // padded to a whole type, or nothing.
                let heads: Vec<String> = match &close.ascription {
                    Some(a) => Ascription::PADS.iter().map(|p| a.with(p)).collect(),
                    None => vec![String::new()],
                };
                let mut readable = Vec::new();
                for head in heads {
                    match self.check(&close.with(0, &head), false) {
                        Verdict::Fits => return true,
                        Verdict::Unreadable => {}
                        Verdict::Mistyped => readable.push(head),
                    }
                }
                if !readable.is_empty() {
                    unreadable = false;
                }
                for head in readable {
                    if self.reachable(&close, &head) {
                        return true;
                    }
                }
            }
        }
        // No variant the parser could read. Over every prefix of every conformance
        // expression this never happens (the oracle test counts it), so such a prefix is
        // text no completion makes an expression; it is refused, and counted.
        if unreadable {
            self.fallbacks += 1;
        }
        false
    }

    /// Prefixes refused because no closing of them could be read; a measure of where the
    /// closing may not know a construct (the oracle test expects none on real code).
    pub fn fallbacks(&self) -> usize {
        self.fallbacks
    }

    /// The texts the prefix may stand for: itself, and when it ends inside a name or a
    /// symbol, each name or symbol that part could grow into.
    fn variants(&self, prefix: &str) -> Vec<String> {
        // A string left open is closed first: its text cannot change its type.
        if let Some(closed) = close_string(prefix) {
            return vec![closed];
        }
        let mut out = vec![prefix.to_string()];
        if prefix.ends_with(char::is_whitespace) {
            return out;
        }
        let (tokens, _) = lex(prefix);
        let Some(last) = tokens.last() else {
            return out;
        };
        if last.span.end as usize != prefix.len() {
            return out;
        }
        let start = last.span.start as usize;
        let stem = &prefix[..start];
        let part = &prefix[start..];
        let word = part.starts_with(|c: char| c.is_alphabetic() || c == '_');
        match last.tok {
            Tok::Underscore => {
                // `_` is a pattern, or the start of a name: as a fresh name it checks
                // only where a binder may stand.
                out.push(format!("{prefix}x"));
                out.extend(self.grown(stem, part, &[]));
            }
            // A name, or a keyword that may be the start of a longer name (`in` of `inc`).
            _ if word => {
                let binders: Vec<String> = tokens
                    .iter()
                    .filter_map(|t| match t.tok {
                        Tok::Ident(s) => Some(s.to_string()),
                        _ => None,
                    })
                    .collect();
                out.extend(self.grown(stem, part, &binders));
            }
            Tok::Int(_) => out.push(format!("{prefix}.0")),
            // A projection or a float cut at its dot.
            Tok::Dot => {
                out.push(format!("{prefix}0"));
                out.extend(self.fields.iter().map(|f| format!("{prefix}{f}")));
            }
            Tok::Op(_)
            | Tok::Minus
            | Tok::Star
            | Tok::LtEq
            | Tok::ColonColon
            | Tok::Colon
            | Tok::Eq
            | Tok::Arrow => {
                // `(+` may be the operator as a value, `(+)`.
                let section = tokens.len() >= 2
                    && tokens[tokens.len() - 2].tok == Tok::LParen
                    && tokens[tokens.len() - 2].span.end == last.span.start;
                if section {
                    out.push(format!("{prefix})"));
                }
                out.extend(
                    SYMBOLS
                        .iter()
                        .filter(|s| s.len() > part.len() && s.starts_with(part))
                        .map(|s| format!("{stem}{s}")),
                );
            }
            _ => {}
        }
        // A comment left open is closed before anything else.
        if let Some(open) = prefix.rfind("{-") {
            if !prefix[open..].contains("-}") {
                out.insert(0, format!("{prefix} -}}"));
            }
        }
        out
    }

    /// `stem` + each name (or binder of the prefix) that `part` is the start of.
    fn grown(&self, stem: &str, part: &str, binders: &[String]) -> Vec<String> {
        let mut names: Vec<&String> = self
            .names
            .iter()
            .chain(binders.iter())
            .filter(|n| n.len() > part.len() && n.starts_with(part))
            .collect();
        names.sort();
        names.dedup();
        names
            .into_iter()
            .take(MAX_NAME_COMPLETIONS)
            .map(|n| format!("{stem}{n}"))
            .collect()
    }

    /// The closing as it is, or when a `?` in it stands for a brace that is neither a
    /// constructor's record nor the fill's own record (`brace_hole`), once for each type
    /// such a brace can have: a dictionary, or a record type of the program (an update).
    fn brace_types(&self, close: Closing) -> Vec<Closing> {
        let Some(at) = close.brace_hole else {
            return vec![close];
        };
        let dict = std::iter::once("(? is Dict a)".to_string());
        let records = self.records.iter().map(|c| format!("({c} ?)"));
        dict.chain(records)
            .map(|typed| {
                let mut c = close.clone();
                c.text.replace_range(at..at + 1, &typed);
                c.brace_hole = None;
                c
            })
            .collect()
    }

    /// Whether some continuation, at the end of the prefix or after any of its closers,
    /// type-checks. `head` goes right after the closed text first (an ascription being
    /// written); continuations then go after a closer, not inside the ascription.
    fn reachable(&mut self, close: &Closing, head: &str) -> bool {
        let conts = reach::continuations(&self.fields);
        let first = usize::from(!head.is_empty());
        for level in first..=close.closers.len() {
            for cont in &conts {
                let text = close.with_each(&[(0, head), (level, cont)]);
                if matches!(self.check(&text, false), Verdict::Fits) {
                    return true;
                }
            }
        }
        // The inner expression goes on and so does an application around it:
        // `filter (\n -> n` + ` == ?` inside, ` ?` outside.
        let inner: Vec<String> = if head.is_empty() {
            conts
        } else {
            vec![head.to_string()]
        };
        for outer in 1..=close.closers.len() {
            for args in reach::ARGUMENT_PADDINGS {
                for cont in &inner {
                    let text = close.with_each(&[(0, cont), (outer, args)]);
                    if matches!(self.check(&text, false), Verdict::Fits) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The item re-checked with `fill` (parenthesised, on one line) in place of the hole;
    /// a `whole` fill is held to every error, a closed prefix not to ambiguity (which the
    /// holes it was closed with may be all that leaves open).
    fn check(&mut self, fill: &str, whole: bool) -> Verdict {
        self.checks += 1;
        let text = format!("({})", fill.replace(['\n', '\r'], " "));
        let edit = Replace::new((self.hole.0..self.hole.1).into(), text);
        let (after, baseline) = if whole {
            (
                item_errors_where(&self.doc, self.item, &[edit], |_| true),
                self.baseline,
            )
        } else {
            (
                item_errors_where(&self.doc, self.item, &[edit], prefix_counts),
                self.prefix_baseline,
            )
        };
        let Some(after) = after else {
            return Verdict::Unreadable;
        };
        if after.syntax > baseline.syntax {
            Verdict::Unreadable
        } else if after.total() <= baseline.total() {
            Verdict::Fits
        } else {
            Verdict::Mistyped
        }
    }
}

/// `prefix` with the string literal it ends inside closed (an escape cut short is
/// finished); None when it does not end inside a string.
fn close_string(prefix: &str) -> Option<String> {
    let (mut inside, mut escaped) = (false, false);
    let mut in_comment = false;
    let mut chars = prefix.chars().peekable();
    while let Some(c) = chars.next() {
        if in_comment {
            if c == '-' && chars.peek() == Some(&'}') {
                chars.next();
                in_comment = false;
            }
        } else if inside {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => inside = false,
                _ => {}
            }
        } else if c == '"' {
            inside = true;
        } else if c == '{' && chars.peek() == Some(&'-') {
            chars.next();
            in_comment = true;
        }
    }
    if !inside {
        return None;
    }
    Some(if escaped {
        format!("{prefix}n\"")
    } else {
        format!("{prefix}\"")
    })
}

/// Whether `prefix` has an `is` outside every bracket: what it ascribes is the whole fill.
fn ascribed_whole(prefix: &str) -> bool {
    let mut depth = 0i32;
    for t in lex(prefix).0 {
        match t.tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth -= 1,
            Tok::Is if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// The errors a closed prefix is held to: all but ambiguity.
fn prefix_counts(d: &rex_compiler::Diagnostic) -> bool {
    d.code != Code::AmbiguousType
}

enum Verdict {
    Fits,
    Mistyped,
    /// The text does not parse (or no longer reads as one item).
    Unreadable,
}
