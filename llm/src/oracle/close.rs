//! Closing a prefix: the text that turns an unfinished fill into a whole expression by
//! filling what is missing with holes. A small scanner over the project's own tokens keeps
//! a stack of what is open (brackets, `let`, `if`, `match`, lambdas) and whether the text
//! ends where an expression or a pattern must come; the closing then writes `?` for each
//! missing expression, `_` for each missing pattern, and the keywords and brackets that
//! end each open construct, innermost first.
//!
//! Two places are not checked piece by piece, only as a whole: an unfinished record or
//! dictionary literal (its missing fields would be errors) stands as one hole from its
//! `{` on, and an unfinished type annotation (`: T`, `is T`) is left out.

use rex_compiler::syntax::lexer::{lex, Token};
use rex_compiler::syntax::token::Tok;
use rex_compiler::types::ty::is_primitive_scalar;

/// What an unfinished record or dictionary literal (`{ k = ..`, no constructor before it)
/// stands as: a hole of a dictionary's type, so that a literal where no dictionary can go
/// (`{ n = 1` for an `i32`) is refused at its brace.
const UNFINISHED_LITERAL: &str = "(? is Dict a)";

/// What is open at the end of a prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    Paren,
    Bracket,
    Brace,
    /// `let`: in a binding's pattern (`false`) or value (`true`).
    Let {
        in_value: bool,
    },
    If(IfStage),
    Match(MatchStage),
    Lambda {
        in_body: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IfStage {
    Cond,
    Then,
    Else,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchStage {
    Scrutinee,
    Pattern,
    Body,
}

/// What the end of the prefix waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Expr,
    Pattern,
    /// A complete operand: anything may follow (an operator, an argument, a closer).
    Any,
}

/// A prefix made whole: `text` (the prefix, perhaps cut short, with what it ends waiting
/// for) then `closers`, innermost first. A continuation may go before any closer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closing {
    pub text: String,
    pub closers: Vec<&'static str>,
    /// What each closer closes, innermost first.
    pub opens: Vec<Open>,
    /// What the end of the prefix waits for.
    pub next: Next,
    /// Whether `text` is the prefix itself with at most a `?` or `_` added (not an
    /// unfinished record or annotation cut away).
    pub exact: bool,
    /// An unfinished `is` ascription cut away: what it names so far, to be put back after
    /// the annotated expression (`text`) padded to a whole type.
    pub ascription: Option<Ascription>,
    /// Where in `text` a `?` stands for a brace that opens a fill that cannot be a record
    /// literal (`{`, `{ x`): it becomes a dictionary, or a record of the program's types by
    /// an update (`{ x with { .. } }`), so the oracle tries those types in its place.
    pub brace_hole: Option<usize>,
}

/// An `is` ascription being written: `x is Array (List` is `Array (List` with `)` to close.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ascription {
    pub written: String,
    pub closers: String,
}

impl Ascription {
    /// Type variables that may complete the written type: nothing, one or two more
    /// arguments (a variable in an ascription is flexible, so it stands for any type).
    pub const PADS: [&'static str; 3] = ["", " t1", " t1 t2"];

    /// ` is T` with `pad` after what is written and the type's own brackets closed.
    pub fn with(&self, pad: &str) -> String {
        format!(" is {}{pad}{}", self.written, self.closers)
    }
}

impl Closing {
    /// The whole text, with `cont` inserted after the first `level` closers.
    pub fn with(&self, level: usize, cont: &str) -> String {
        self.with_each(&[(level, cont)])
    }

    /// The whole text, with each `(level, cont)` inserted after the first `level` closers
    /// (levels in increasing order).
    pub fn with_each(&self, inserts: &[(usize, &str)]) -> String {
        let mut s = self.text.clone();
        for i in 0..=self.closers.len() {
            for (_, cont) in inserts.iter().filter(|(level, _)| *level == i) {
                s.push_str(cont);
            }
            if let Some(c) = self.closers.get(i) {
                s.push_str(c);
            }
        }
        s
    }
}

/// The closing of `prefix`, or None when the prefix cannot be read as the start of an
/// expression (a closer with nothing open).
pub fn closing(prefix: &str) -> Option<Closing> {
    closing_where(prefix, true)
}

/// `closing`, told whether the fill as a whole may have a record type (its expected type
/// is one, or unknown): a literal that opens the fill may then be that record, not only a
/// dictionary.
pub fn closing_where(prefix: &str, fill_may_be_record: bool) -> Option<Closing> {
    let (tokens, _) = lex(prefix);
    let mut stack: Vec<(Open, usize)> = Vec::new();
    let mut next = Next::Expr;
    // Where an unfinished type annotation starts, and the stack depth there.
    let mut annotation: Option<(usize, usize)> = None;
    for t in &tokens {
        let start = t.span.start as usize;
        match t.tok {
            Tok::Is => annotation = Some((start, stack.len())),
            Tok::Colon if !matches!(stack.last(), Some((Open::Brace, _))) => {
                annotation = Some((start, stack.len()))
            }
            Tok::Eq | Tok::Comma | Tok::In | Tok::Then | Tok::Else | Tok::When => {
                annotation = annotation.filter(|(_, depth)| stack.len() > *depth)
            }
            _ => {}
        }
        next = match t.tok {
            // Inside a bracket a pattern stays a pattern, anything else wants an expression.
            Tok::LParen | Tok::LBracket => {
                let open = if t.tok == Tok::LParen {
                    Open::Paren
                } else {
                    Open::Bracket
                };
                stack.push((open, start));
                if next == Next::Pattern {
                    Next::Pattern
                } else {
                    Next::Expr
                }
            }
            Tok::LBrace => {
                stack.push((Open::Brace, start));
                Next::Expr
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace => {
                let want = match t.tok {
                    Tok::RParen => Open::Paren,
                    Tok::RBracket => Open::Bracket,
                    _ => Open::Brace,
                };
                let at = stack.iter().rposition(|(o, _)| *o == want)?;
                stack.truncate(at);
                annotation = annotation.filter(|(_, depth)| stack.len() >= *depth);
                Next::Any
            }
            Tok::Let => {
                stack.push((Open::Let { in_value: false }, start));
                Next::Pattern
            }
            Tok::Eq => {
                if let Some((Open::Let { in_value }, _)) = stack.last_mut() {
                    *in_value = true;
                }
                Next::Expr
            }
            Tok::Comma => match stack.last_mut() {
                Some((Open::Let { in_value }, _)) => {
                    *in_value = false;
                    Next::Pattern
                }
                _ => Next::Expr,
            },
            Tok::In => {
                let at = stack
                    .iter()
                    .rposition(|(o, _)| matches!(o, Open::Let { .. }))?;
                stack.truncate(at);
                Next::Expr
            }
            Tok::If => {
                stack.push((Open::If(IfStage::Cond), start));
                Next::Expr
            }
            Tok::Then | Tok::Else => {
                let at = stack.iter().rposition(|(o, _)| matches!(o, Open::If(_)))?;
                stack.truncate(at + 1);
                stack[at].0 = Open::If(if t.tok == Tok::Then {
                    IfStage::Then
                } else {
                    IfStage::Else
                });
                Next::Expr
            }
            Tok::Match => {
                stack.push((Open::Match(MatchStage::Scrutinee), start));
                Next::Expr
            }
            Tok::When => {
                let at = stack
                    .iter()
                    .rposition(|(o, _)| matches!(o, Open::Match(_)))?;
                stack.truncate(at + 1);
                stack[at].0 = Open::Match(MatchStage::Pattern);
                Next::Pattern
            }
            Tok::Backslash => {
                stack.push((Open::Lambda { in_body: false }, start));
                Next::Pattern
            }
            // An arrow inside a type annotation is part of the type.
            Tok::Arrow if annotation.is_some() => Next::Pattern,
            Tok::Arrow => {
                let at = stack.iter().rposition(|(o, _)| {
                    matches!(
                        o,
                        Open::Lambda { in_body: false } | Open::Match(MatchStage::Pattern)
                    )
                })?;
                stack.truncate(at + 1);
                stack[at].0 = match stack[at].0 {
                    Open::Lambda { .. } => Open::Lambda { in_body: true },
                    _ => Open::Match(MatchStage::Body),
                };
                Next::Expr
            }
            Tok::Op(_) | Tok::Minus | Tok::Star | Tok::LtEq | Tok::ColonColon => match next {
                // `-` before an operand, or `::` in a pattern.
                Next::Pattern => Next::Pattern,
                _ => Next::Expr,
            },
            Tok::Colon => Next::Pattern,
            Tok::With => Next::Expr,
            Tok::Is => Next::Pattern,
            Tok::Dot => Next::Any,
            _ => match next {
                Next::Pattern => Next::Pattern,
                _ => Next::Any,
            },
        };
        // After a pattern's first word, the pattern may be whole.
        if next == Next::Pattern
            && matches!(
                t.tok,
                Tok::Ident(_) | Tok::Underscore | Tok::Upper(_) | Tok::Int(_) | Tok::Str(_)
            )
        {
            next = Next::Any;
        }
    }
    let mut text = prefix.to_string();
    let mut exact = true;
    let mut brace_hole = None;
    // Where the text stops being the prefix as written (a record cut or rewritten).
    let mut rewritten = usize::MAX;
    // Open braces, innermost first. `{ base` that can only become `{ base with { .. } }`
    // has the type of `base`, so the base is checked as the expression itself, kept in
    // parentheses. The fields of an update, and the update around them, are closed as
    // they stand (an update may set any of the fields); a constructor's record, waiting
    // for a field's value, is closed as an update of a hole (`C { ? with { .. } }`), which
    // checks the fields written so far without asking for the missing ones. Any other
    // unfinished record or dictionary stands as one hole.
    let braces: Vec<usize> = (0..stack.len())
        .filter(|&i| stack[i].0 == Open::Brace)
        .collect();
    // Text changed or cut: the continuation grammars (`grammar::server`) cannot follow it.
    if !braces.is_empty() {
        exact = false;
    }
    for &index in braces.iter().rev() {
        if index >= stack.len() || stack[index].0 != Open::Brace {
            continue;
        }
        let at = stack[index].1;
        let inside = &text[at + 1..];
        if is_update_base(inside) {
            text.replace_range(at..at + 1, "(");
            stack[index].0 = Open::Paren;
            continue;
        }
        // What stands before the brace, read once.
        let (head, _) = lex(&text[..at]);
        let after_with = head.last().is_some_and(|t| t.tok == Tok::With);
        let after_ctor = head.last().is_some_and(|t| matches!(t.tok, Tok::Upper(_)));
        let record_ok = may_be_record(&head, fill_may_be_record);
        // The brace opens the fill itself (a record's type there is the expected one).
        let opens_fill = head.iter().all(|t| t.tok == Tok::LParen);
        // A field being started (`x = 1,` or `x = 1, y`) is left out: the fields before it
        // are checked as they stand.
        if let Some(comma) = (after_with || after_ctor)
            .then(|| started_field(&text[at + 1..]))
            .flatten()
        {
            text.truncate(at + 1 + comma);
            rewritten = rewritten.min(at + 1 + comma);
            next = Next::Any;
        }
        let toks = top_level(&text[at + 1..]);
        let fields_ready = in_field_value(&toks);
        if (fields_ready && after_with) || is_whole_update(&toks) {
            continue;
        }
        if fields_ready && after_ctor {
            text.replace_range(at..at + 1, "{ ? with {");
            rewritten = rewritten.min(at);
            stack.insert(index + 1, (Open::Brace, at));
            continue;
        }
        // A literal's type is a dictionary's (or the record type it is checked against,
        // which a hole stands for anyway): where neither can go, no field helps.
        let literal = matches!(toks.as_slice(), [Tok::Ident(_), Tok::Eq, ..]) && !record_ok;
        // Nothing settled in it yet (a dictionary or an update may follow), or an update
        // waiting for its fields.
        let unsettled = matches!(toks.as_slice(), [] | [Tok::Ident(_)] | [.., Tok::With]);
        let open = !record_ok && opens_fill && unsettled;
        brace_hole = open.then_some(at);
        text.truncate(at);
        rewritten = rewritten.min(at);
        text.push_str(if literal { UNFINISHED_LITERAL } else { "?" });
        stack.truncate(index);
        next = Next::Any;
    }
    // An ascription to a built-in scalar (`x is i32`) is whole: nothing can follow it. A
    // lower-case word after `is` that is not one (`x is i`) is no type yet (a fill's
    // ascription names no type variable); the oracle tries the scalars it may become.
    // An annotation inside a record cut or rewritten above went with it.
    let annotation = annotation.filter(|(at, _)| *at < rewritten);
    let annotation = match annotation.map(|(at, depth)| (at, depth, scalar_ascription(&text[at..])))
    {
        Some((_, _, Some(true))) => None,
        Some((_, _, Some(false))) => return None,
        Some((at, depth, None)) => Some((at, depth)),
        None => None,
    };
    let mut ascription = None;
    if let Some((at, depth)) = annotation {
        // An unfinished annotation is left out, with the brackets opened inside it; what
        // it annotated is whole. An `is` ascription's type so far is kept aside.
        exact = false;
        let own = stack.split_off(depth.min(stack.len()));
        let closers: Option<String> = own
            .iter()
            .rev()
            .map(|(open, _)| match open {
                Open::Paren => Some(")"),
                Open::Bracket => Some("]"),
                _ => None,
            })
            .collect();
        // Kept only as written (a record inside it cut or rewritten leaves nothing to pad).
        let written = (rewritten == usize::MAX)
            .then(|| text[at..].strip_prefix("is"))
            .flatten();
        if let (Some(written), Some(closers)) = (written, closers) {
            ascription = Some(Ascription {
                written: written.trim().to_string(),
                closers,
            });
        }
        // A kept annotation starts before every brace cut above (`rewritten`), so a
        // brace's `?` lies inside it and goes with it.
        brace_hole = None;
        text.truncate(at);
        text.truncate(text.trim_end().len());
        next = Next::Any;
    }
    match next {
        Next::Expr => text.push_str(" ?"),
        Next::Pattern => text.push_str(" _"),
        Next::Any => {}
    }
    let opens: Vec<Open> = stack.iter().rev().map(|(open, _)| *open).collect();
    let closers = stack
        .iter()
        .rev()
        .map(|(open, _)| match open {
            Open::Paren => ")",
            Open::Bracket => "]",
            Open::Brace => "}",
            Open::Let { in_value: false } => " = ? in ?",
            Open::Let { in_value: true } => " in ?",
            Open::If(IfStage::Cond) => " then ? else ?",
            Open::If(IfStage::Then) => " else ?",
            Open::If(IfStage::Else) => "",
            Open::Match(MatchStage::Scrutinee) => " when _ -> ?",
            Open::Match(MatchStage::Pattern) => " -> ?",
            Open::Match(MatchStage::Body) => "",
            Open::Lambda { in_body: false } => " -> ?",
            Open::Lambda { in_body: true } => "",
        })
        .collect();
    Some(Closing {
        text,
        closers,
        opens,
        next,
        exact,
        ascription,
        brace_hole,
    })
}

/// Whether a record literal after `before` may have a record type rather than a
/// dictionary's: as a constructor's argument (`C {`, `C ({`), or opening a fill that may
/// be a record. A function's parameter of a record type is not looked for.
fn may_be_record(before: &[Token<'_>], fill_may_be_record: bool) -> bool {
    match before {
        [] => fill_may_be_record,
        [.., t] if matches!(t.tok, Tok::Upper(_)) => true,
        [.., c, t] if t.tok == Tok::LParen && matches!(c.tok, Tok::Upper(_)) => true,
        [t] if t.tok == Tok::LParen => fill_may_be_record,
        _ => false,
    }
}

/// What an `is` ascription written so far (`annotation`, from `is` on) is: Some(true) when
/// it is whole (`is u8`: one built-in scalar, which nothing can follow), Some(false) when a
/// lower-case word in it is no built-in scalar (a fill's ascription names no type variable,
/// and `i32string` is one word to Rex), None when it may go on (`is Dict`, `is Dict i32`).
/// Other annotations (`: T`) are None.
fn scalar_ascription(annotation: &str) -> Option<bool> {
    let (tokens, _) = lex(annotation);
    let (first, rest) = tokens.split_first()?;
    if first.tok != Tok::Is {
        return None;
    }
    // The words as written: a keyword (`if`, `in`) is a lower-case word too.
    let word = |t: &Token<'_>| &annotation[t.span.start as usize..t.span.end as usize];
    let lower = |w: &str| w.starts_with(|c: char| c.is_ascii_lowercase());
    if rest
        .iter()
        .any(|t| lower(word(t)) && !is_primitive_scalar(word(t)))
    {
        return Some(false);
    }
    match rest {
        [t] if lower(word(t)) => Some(true),
        _ => None,
    }
}

/// The tokens of `inside` outside any bracket it opens.
fn top_level<'a>(inside: &'a str) -> Vec<Tok<'a>> {
    let (tokens, _) = lex(inside);
    let mut depth = 0usize;
    let mut out = Vec::new();
    for t in tokens {
        match t.tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => {
                if depth == 0 {
                    out.push(t.tok);
                }
                depth += 1;
            }
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(t.tok),
            _ => {}
        }
    }
    out
}

/// Whether `toks`, the top-level tokens after an open brace, are record fields (`x = 1, y = ..`)
/// that end in a field's value, so that a `}` after the value closes them.
fn in_field_value(toks: &[Tok<'_>]) -> bool {
    let mut fields = toks.split(|t| *t == Tok::Comma);
    fields.all(|f| matches!(f, [Tok::Ident(_), Tok::Eq, ..]))
}

/// Where the last top-level comma of `inside` (the text after a record's open brace) is,
/// when every field before it is written (`x = ..`) and after it at most a field name is:
/// a field being started.
fn started_field(inside: &str) -> Option<usize> {
    let (tokens, _) = lex(inside);
    let mut depth = 0usize;
    let mut top: Vec<(Tok<'_>, usize)> = Vec::new();
    for t in &tokens {
        match t.tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 || (depth == 1 && matches!(t.tok, Tok::LParen | Tok::LBracket | Tok::LBrace))
        {
            top.push((t.tok, t.span.start as usize));
        }
    }
    let comma = top.iter().rposition(|(t, _)| *t == Tok::Comma)?;
    let toks: Vec<Tok<'_>> = top.iter().map(|(t, _)| *t).collect();
    let started = matches!(toks[comma + 1..], [] | [Tok::Ident(_)]);
    (started && in_field_value(&toks[..comma])).then_some(top[comma].1)
}

/// Whether `toks`, the top-level tokens after an open brace, are an update whose fields' brace has
/// been kept open (`p with {` ..): closing both closes the update.
fn is_whole_update(toks: &[Tok<'_>]) -> bool {
    matches!(toks, [.., Tok::With, Tok::LBrace]) && toks.len() >= 3
}

/// Whether `inside`, the text after an open brace, can only be the base of a record
/// update: something is there, it does not start as a field (`{ x` or `{ x = ..`), and
/// no `=`, `with`, `,` or `:` has settled it as a record or dictionary.
fn is_update_base(inside: &str) -> bool {
    let (tokens, _) = lex(inside);
    let toks: Vec<Tok<'_>> = tokens.iter().map(|t| t.tok).collect();
    let first_is_field = matches!(
        toks.as_slice(),
        [Tok::Ident(_)] | [Tok::Ident(_), Tok::Eq, ..]
    );
    let settled = toks
        .iter()
        .any(|t| matches!(t, Tok::Eq | Tok::With | Tok::Comma | Tok::Colon));
    !toks.is_empty() && !first_is_field && !settled
}

#[cfg(test)]
mod tests {
    use super::closing;

    fn closed(p: &str) -> String {
        closing(p).map_or_else(|| "<none>".into(), |c| c.with(0, ""))
    }

    #[test]
    fn closes_what_is_open() {
        assert_eq!(closed("Ok (classify_ph"), "Ok (classify_ph)");
        assert_eq!(closed("f x +"), "f x + ?");
        assert_eq!(closed("\\x"), "\\x -> ?");
        assert_eq!(closed("\\"), "\\ _ -> ?");
        assert_eq!(closed("let y"), "let y = ? in ?");
        assert_eq!(closed("let y = f"), "let y = f in ?");
        assert_eq!(closed("if a"), "if a then ? else ?");
        assert_eq!(closed("if a then b"), "if a then b else ?");
        assert_eq!(closed("match x"), "match x when _ -> ?");
        assert_eq!(closed("match x when Ok"), "match x when Ok -> ?");
        assert_eq!(
            closed("match x when Ok p -> [p,"),
            "match x when Ok p -> [p, ?]"
        );
        assert_eq!(closed("(a, (b"), "(a, (b))");
        assert_eq!(closed(""), " ?");
        assert_eq!(closing("a)"), None);
        assert_eq!(
            closed("User { name = \"Ada\""),
            "User { ? with { name = \"Ada\"}}"
        );
        assert_eq!(
            closed("User { name = \"Ada\","),
            "User { ? with { name = \"Ada\"}}"
        );
        assert_eq!(closed("User { name = n, ag"), "User { ? with { name = n}}");
        assert_eq!(
            closed("User { name = (f x), ag"),
            "User { ? with { name = (f x)}}"
        );
        assert_eq!(closed("{ p with { x = p.x +"), "{ p with { x = p.x + ?}}");
        assert_eq!(closed("{ p with { x = (f"), "{ p with { x = (f)}}");
        assert_eq!(closed("{ p with { x = 1, y"), "{ p with { x = 1}}");
        assert_eq!(closed("{ p with"), "?");
        assert_eq!(closed("f ({ a = 1"), "f ((? is Dict a))");
        assert_eq!(closed("let x : Res"), "let x = ? in ?");
        assert_eq!(closed("x is Dict"), "x");
        assert_eq!(closed("x is i3"), "<none>");
        assert_eq!(closed("(x is i32"), "(x is i32)");
        assert_eq!(closed("x is Array i32string"), "<none>");
        assert_eq!(closed("x is Array i32"), "x");
        assert_eq!(closed("\\(x : Li"), "\\(x) -> ?");
        assert_eq!(closed("\\{ a: p"), "\\? -> ?");
        assert_eq!(closed("\\("), "\\( _) -> ?");
        assert_eq!(closed("{ p"), "?");
        assert_eq!(closed("{ \\p"), "( \\p -> ?)");
        assert_eq!(closed("{ f p"), "( f p)");
        assert_eq!(closed("g { f 1"), "g ( f 1)");
        assert_eq!(closed("even { n == odd {"), "even ( n == odd ?)");
        assert_eq!(closed("{ a = { p"), "?");
        assert_eq!(closed("f { a = { p"), "f (? is Dict a)");
        assert_eq!(closed("f { a = 1,"), "f (? is Dict a)");
        // An annotation inside a record that is cut away goes with it.
        assert_eq!(closed("f (g { a = x is"), "f (g (? is Dict a))");
        assert_eq!(
            closed("to_list (map (if { a = 1, b = x is Li"),
            "to_list (map (if (? is Dict a) then ? else ?))"
        );
    }
}
