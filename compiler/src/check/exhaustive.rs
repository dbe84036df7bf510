//! Match exhaustiveness over whole pattern matrices (nested constructors, tuples, records,
//! lists, booleans, literals), after Maranget's usefulness algorithm: the values no arm
//! covers are found column by column and reported as patterns (`Some (Cons _ _)`), all in
//! one diagnostic on the `match`.
//!
//! Types with infinitely many values (numbers, strings, dicts) are covered only by a
//! wildcard or variable. Broken patterns count as wildcards, so a mistake already reported
//! does not also make the match look incomplete. An arm whose values the earlier arms all
//! match is a warning. The search is bounded by fuel, and gives up silently (reporting
//! nothing) on pathological matrices rather than running long.

use std::sync::Arc;

use super::errors::Diag;
use super::infer::Infer;
use crate::span::Span;
use crate::syntax::ast::{Arm, ExprId, Literal, PatId, PatKind};
use crate::types::Ty;

/// How many missing patterns are named at most.
const MAX_WITNESSES: usize = 8;
/// Steps of the search before it gives up.
const FUEL: usize = 100_000;

/// A constructor of some type's value space.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Key {
    /// A constructor of an ADT (index into `Env::ctors`).
    Adt(usize),
    Tuple(usize),
    /// A record with these fields (sorted), as the payload of a record-carrying constructor.
    Record(Vec<Arc<str>>),
    Bool(bool),
}

/// A pattern, with constructors resolved.
#[derive(Clone, Debug)]
enum Pat {
    /// Covers every value: `_`, a variable, a `{}` dict pattern, or a broken pattern.
    Wild,
    Ctor(Key, Vec<Pat>),
    /// A number or string literal (its text): one value of an infinite type.
    Lit(String),
    /// Covers some values of an infinite type that cannot be compared (dict keys).
    Some,
}

/// A value (pattern) no arm covers.
#[derive(Clone, Debug)]
enum Witness {
    Wild,
    Ctor(Key, Vec<Witness>),
}

/// The constructors of a type and the types of their fields, or `None` for a type whose
/// values cannot be enumerated.
type Space = Option<Vec<(Key, Vec<Ty>)>>;

struct Search {
    fuel: usize,
    exhausted: bool,
}

impl Infer<'_> {
    /// Reports the values of type `st` that no arm of the `match` `e` covers.
    pub(super) fn exhaustiveness(&mut self, e: ExprId, st: &Ty, arms: &[Arm]) {
        let st = self.u.zonk(st);
        if matches!(st, Ty::Unknown) {
            return;
        }
        let rows: Vec<Vec<Pat>> = arms
            .iter()
            .map(|arm| vec![self.lower_pat(arm.pat, &st, 0)])
            .collect();
        let mut search = Search {
            fuel: FUEL,
            exhausted: false,
        };
        // An arm whose pattern has an error (an unknown constructor, a wrong arity) is
        // read as `_` here, so that it adds no missing case; but it says nothing about
        // the arms after it, nor is it itself redundant.
        let broken: Vec<bool> = arms
            .iter()
            .map(|arm| {
                let span = self.arena.pat(arm.pat).span;
                self.diags
                    .iter()
                    .any(|d| d.is_error() && span.start <= d.span.start && d.span.end <= span.end)
            })
            .collect();
        self.redundant_arms(&mut search, arms, &rows, &broken, &st);
        let missing = self.missing(&mut search, rows, vec![st]);
        if search.exhausted || missing.is_empty() {
            return;
        }
        let shown: Vec<String> = missing
            .iter()
            .filter_map(|w| w.first())
            .map(|w| self.show_witness(w, false))
            .collect();
        let span = self.match_keyword_span(e);
        self.diags.push(Diag::non_exhaustive(shown, span));
    }

    /// Warns about each arm whose values the arms before it all match already (arms with a
    /// `broken` pattern neither count nor are warned about).
    fn redundant_arms(
        &mut self,
        search: &mut Search,
        arms: &[Arm],
        rows: &[Vec<Pat>],
        broken: &[bool],
        st: &Ty,
    ) {
        for (i, arm) in arms.iter().enumerate() {
            if broken[i] {
                continue;
            }
            let before: std::borrow::Cow<'_, [Vec<Pat>]> = match broken[..i].contains(&true) {
                false => rows[..i].into(),
                true => rows[..i]
                    .iter()
                    .zip(broken)
                    .filter(|(_, broken)| !**broken)
                    .map(|(row, _)| row.clone())
                    .collect(),
            };
            let useful = self.useful(search, &before, &rows[i], std::slice::from_ref(st));
            if search.exhausted {
                return;
            }
            if !useful {
                let span = self.arena.pat(arm.pat).span;
                self.diags.push(Diag::redundant_arm(span));
            }
        }
    }

    /// Whether some value matched by the pattern vector `q` (of types `tys`) is matched by
    /// no row.
    fn useful(&mut self, search: &mut Search, rows: &[Vec<Pat>], q: &[Pat], tys: &[Ty]) -> bool {
        if search.fuel == 0 {
            search.exhausted = true;
            return true;
        }
        search.fuel -= 1;
        let (Some(first), Some(ty)) = (q.first(), tys.first()) else {
            return rows.is_empty();
        };
        let (q_rest, rest_tys) = (&q[1..], &tys[1..]);
        match first {
            Pat::Ctor(key, args) => {
                let fields = self.fields_of(ty, rows, key, args.len());
                let mut sub_q = args.clone();
                sub_q.extend(q_rest.iter().cloned());
                let mut sub_tys = fields;
                sub_tys.extend(rest_tys.iter().cloned());
                let specialized = specialize(rows, key, args.len());
                self.useful(search, &specialized, &sub_q, &sub_tys)
            }
            Pat::Lit(text) => {
                let covering: Vec<Vec<Pat>> = rows
                    .iter()
                    .filter(|r| match r.first() {
                        Some(Pat::Wild) => true,
                        Some(Pat::Lit(t)) => t == text,
                        _ => false,
                    })
                    .map(|r| r[1..].to_vec())
                    .collect();
                self.useful(search, &covering, q_rest, rest_tys)
            }
            Pat::Some => {
                let default = default_rows(rows);
                self.useful(search, &default, q_rest, rest_tys)
            }
            Pat::Wild => {
                let column: Vec<&Pat> = rows.iter().filter_map(|r| r.first()).collect();
                let heads = heads(&column);
                let space = self.space(ty, &column);
                match space {
                    Some(ctors) if ctors.iter().all(|(k, _)| heads.contains(k)) => {
                        ctors.into_iter().any(|(key, fields)| {
                            let arity = fields.len();
                            let mut sub_q = vec![Pat::Wild; arity];
                            sub_q.extend(q_rest.iter().cloned());
                            let mut sub_tys = fields;
                            sub_tys.extend(rest_tys.iter().cloned());
                            let specialized = specialize(rows, &key, arity);
                            self.useful(search, &specialized, &sub_q, &sub_tys)
                        })
                    }
                    _ => {
                        let default = default_rows(rows);
                        self.useful(search, &default, q_rest, rest_tys)
                    }
                }
            }
        }
    }

    /// The field types of constructor `key` in a column of type `ty`.
    fn fields_of(&mut self, ty: &Ty, rows: &[Vec<Pat>], key: &Key, arity: usize) -> Vec<Ty> {
        let column: Vec<&Pat> = rows.iter().filter_map(|r| r.first()).collect();
        self.space(ty, &column)
            .and_then(|ctors| ctors.into_iter().find(|(k, _)| k == key))
            .map(|(_, fields)| fields)
            .filter(|fields| fields.len() == arity)
            .unwrap_or_else(|| vec![Ty::Unknown; arity])
    }

    /// The `match` keyword, where the diagnostic points.
    fn match_keyword_span(&self, e: ExprId) -> Span {
        let s = self.arena.expr(e).span;
        Span::new(s.start as usize, (s.start + 5).min(s.end) as usize)
    }

    fn lower_pat(&mut self, p: PatId, ty: &Ty, depth: usize) -> Pat {
        // Patterns are as deep as the parser allows; past this, precision is not worth it.
        if depth > 64 {
            return Pat::Wild;
        }
        let ty = self.u.zonk(ty);
        let arena = self.arena;
        match &arena.pat(p).kind {
            PatKind::Error | PatKind::Wildcard | PatKind::Var(_) => Pat::Wild,
            PatKind::Lit(Literal::Bool(b)) => Pat::Ctor(Key::Bool(*b), vec![]),
            PatKind::Lit(Literal::Int(t) | Literal::Float(t)) => Pat::Lit(t.clone()),
            PatKind::Lit(Literal::Str(t)) => Pat::Lit(format!("{t:?}")),
            PatKind::Tuple(ps) => {
                let tys = match &ty {
                    Ty::Tuple(ts) if ts.len() == ps.len() => ts.clone(),
                    _ => vec![Ty::Unknown; ps.len()],
                };
                let args = ps
                    .iter()
                    .zip(&tys)
                    .map(|(p, t)| self.lower_pat(*p, t, depth + 1))
                    .collect();
                Pat::Ctor(Key::Tuple(ps.len()), args)
            }
            PatKind::List(ps) => {
                let elem = list_elem(&ty);
                let (Some(cons), Some(empty)) = (self.list_ctor("Cons"), self.list_ctor("Empty"))
                else {
                    return Pat::Wild;
                };
                let mut out = Pat::Ctor(Key::Adt(empty), vec![]);
                for p in ps.iter().rev() {
                    let head = self.lower_pat(*p, &elem, depth + 1);
                    out = Pat::Ctor(Key::Adt(cons), vec![head, out]);
                }
                out
            }
            // `h :: t` is the `Cons` checking chose (the prelude's list unless the
            // scrutinee's type has its own).
            PatKind::Cons(h, t) => {
                let Some(cons) = self.ctors.pat(p).or_else(|| self.list_ctor("Cons")) else {
                    return Pat::Wild;
                };
                let [elem, tail] = &self.ctor_fields(cons, &ty)[..] else {
                    return Pat::Wild; // an arity error, reported already
                };
                let (elem, tail) = (elem.clone(), tail.clone());
                let head = self.lower_pat(*h, &elem, depth + 1);
                let tail = self.lower_pat(*t, &tail, depth + 1);
                Pat::Ctor(Key::Adt(cons), vec![head, tail])
            }
            PatKind::Ctor { args, .. } => {
                // The constructor checking chose for this pattern (the evaluator reads the
                // same choice); none where the name is unknown.
                let Some(id) = self.ctors.pat(p) else {
                    return Pat::Wild;
                };
                let fields = self.ctor_fields(id, &ty);
                if fields.len() != args.len() {
                    return Pat::Wild; // an arity error, reported already
                }
                let args = args
                    .iter()
                    .zip(&fields)
                    .map(|(p, t)| self.lower_pat(*p, t, depth + 1))
                    .collect();
                Pat::Ctor(Key::Adt(id), args)
            }
            PatKind::Dict(fields) => match &ty {
                Ty::Record(fs) => {
                    let names: Vec<Arc<str>> = fs.iter().map(|(n, _)| n.clone()).collect();
                    let args = fs
                        .iter()
                        .map(
                            |(name, t)| match fields.iter().find(|f| *f.name.text == **name) {
                                Some(f) => match f.pat {
                                    Some(sub) => self.lower_pat(sub, t, depth + 1),
                                    None => Pat::Wild,
                                },
                                None => Pat::Wild,
                            },
                        )
                        .collect();
                    Pat::Ctor(Key::Record(names), args)
                }
                // `{}` matches every dict; key patterns only the dicts that have the keys.
                _ if fields.is_empty() => Pat::Wild,
                _ => Pat::Some,
            },
        }
    }

    /// The field types of constructor `id` at type `ty` (unknown where `ty` says nothing).
    fn ctor_fields(&self, id: usize, ty: &Ty) -> Vec<Ty> {
        let ctor = &self.env.ctors[id];
        let adt = &self.env.adts[ctor.adt];
        let (_, args) = ty.spine();
        let args: Vec<Ty> = if ty.head_name() == Some(&*adt.name) && args.len() == adt.params.len()
        {
            args.into_iter().cloned().collect()
        } else {
            vec![Ty::Unknown; adt.params.len()]
        };
        ctor.fields.iter().map(|f| f.instantiate(&args)).collect()
    }

    /// The constructors of `ty`; when the type says nothing (it is unknown), the first
    /// constructor pattern of the column tells.
    fn space(&mut self, ty: &Ty, column: &[&Pat]) -> Space {
        let ty = self.u.zonk(ty);
        let from_type = match &ty {
            Ty::Tuple(ts) => Some(vec![(Key::Tuple(ts.len()), ts.clone())]),
            Ty::Record(fs) => Some(vec![(
                Key::Record(fs.iter().map(|(n, _)| n.clone()).collect()),
                fs.iter().map(|(_, t)| t.clone()).collect(),
            )]),
            t if *t == Ty::con("bool") => Some(bool_space()),
            t => self
                .env
                .adt_of_type(t)
                .map(|adt| adt.ctors.clone())
                .map(|ids| self.adt_space(&ids, &ty)),
        };
        if from_type.is_some() {
            return from_type;
        }
        let key = column.iter().find_map(|p| match p {
            Pat::Ctor(k, _) => Some(k.clone()),
            _ => None,
        })?;
        Some(match key {
            Key::Adt(id) => {
                let ids = self.env.adts[self.env.ctors[id].adt].ctors.clone();
                self.adt_space(&ids, &Ty::Unknown)
            }
            Key::Tuple(n) => vec![(Key::Tuple(n), vec![Ty::Unknown; n])],
            Key::Record(names) => {
                let n = names.len();
                vec![(Key::Record(names), vec![Ty::Unknown; n])]
            }
            Key::Bool(_) => bool_space(),
        })
    }

    fn adt_space(&self, ids: &[usize], ty: &Ty) -> Vec<(Key, Vec<Ty>)> {
        ids.iter()
            .map(|id| (Key::Adt(*id), self.ctor_fields(*id, ty)))
            .collect()
    }

    /// The value vectors of types `tys` that no row covers (at most `MAX_WITNESSES`).
    fn missing(
        &mut self,
        search: &mut Search,
        rows: Vec<Vec<Pat>>,
        tys: Vec<Ty>,
    ) -> Vec<Vec<Witness>> {
        if search.fuel == 0 {
            search.exhausted = true;
            return vec![];
        }
        search.fuel -= 1;
        let Some(ty) = tys.first().cloned() else {
            return if rows.is_empty() {
                vec![vec![]]
            } else {
                vec![]
            };
        };
        let rest_tys = tys[1..].to_vec();
        let column: Vec<&Pat> = rows.iter().filter_map(|r| r.first()).collect();
        let heads = heads(&column);
        let space = self.space(&ty, &column);
        let complete = space
            .as_ref()
            .is_some_and(|ctors| ctors.iter().all(|(k, _)| heads.contains(k)));
        if let (true, Some(ctors)) = (complete, &space) {
            let mut out = Vec::new();
            for (key, fields) in ctors {
                let arity = fields.len();
                let specialized = specialize(&rows, key, arity);
                let mut sub_tys = fields.clone();
                sub_tys.extend(rest_tys.iter().cloned());
                for w in self.missing(search, specialized, sub_tys) {
                    let mut w = w.into_iter();
                    let args: Vec<Witness> = w.by_ref().take(arity).collect();
                    let mut vector = vec![Witness::Ctor(key.clone(), args)];
                    vector.extend(w);
                    out.push(vector);
                    if out.len() >= MAX_WITNESSES {
                        return out;
                    }
                }
            }
            return out;
        }
        // Some values of this column match no constructor arm: only the rows with a
        // wildcard here can cover them.
        let rest = self.missing(search, default_rows(&rows), rest_tys);
        if rest.is_empty() {
            return vec![];
        }
        let firsts: Vec<Witness> = match &space {
            Some(ctors) if !heads.is_empty() => ctors
                .iter()
                .filter(|(k, _)| !heads.contains(k))
                .map(|(k, fields)| Witness::Ctor(k.clone(), vec![Witness::Wild; fields.len()]))
                .collect(),
            _ => vec![Witness::Wild],
        };
        let mut out = Vec::new();
        for first in &firsts {
            for w in &rest {
                let mut vector = vec![first.clone()];
                vector.extend(w.iter().cloned());
                out.push(vector);
                if out.len() >= MAX_WITNESSES {
                    return out;
                }
            }
        }
        out
    }

    /// A missing value as a pattern in Rex syntax; `nested` parenthesises applications.
    fn show_witness(&self, w: &Witness, nested: bool) -> String {
        match w {
            Witness::Wild => "_".to_string(),
            Witness::Ctor(Key::Bool(b), _) => b.to_string(),
            Witness::Ctor(Key::Tuple(_), args) => {
                let parts: Vec<String> = args.iter().map(|a| self.show_witness(a, false)).collect();
                format!("({})", parts.join(", "))
            }
            Witness::Ctor(Key::Record(names), args) => {
                let parts: Vec<String> = names
                    .iter()
                    .zip(args)
                    .filter(|(_, a)| !matches!(a, Witness::Wild))
                    .map(|(n, a)| format!("{n}: {}", self.show_witness(a, false)))
                    .collect();
                if parts.is_empty() {
                    "_".to_string()
                } else {
                    format!("{{{}}}", parts.join(", "))
                }
            }
            Witness::Ctor(Key::Adt(id), args) => {
                let name = &self.env.ctors[*id].name;
                if args.is_empty() {
                    return name.to_string();
                }
                let parts: Vec<String> = args.iter().map(|a| self.show_witness(a, true)).collect();
                let text = format!("{name} {}", parts.join(" "));
                if nested {
                    format!("({text})")
                } else {
                    text
                }
            }
        }
    }
}

/// The constructors that head patterns of a column.
fn heads(column: &[&Pat]) -> Vec<Key> {
    column
        .iter()
        .filter_map(|p| match p {
            Pat::Ctor(k, _) => Some(k.clone()),
            _ => None,
        })
        .collect()
}

/// The rows whose first pattern matches everything, without it.
fn default_rows(rows: &[Vec<Pat>]) -> Vec<Vec<Pat>> {
    rows.iter()
        .filter(|r| matches!(r.first(), Some(Pat::Wild)))
        .map(|r| r[1..].to_vec())
        .collect()
}

fn bool_space() -> Vec<(Key, Vec<Ty>)> {
    vec![(Key::Bool(false), vec![]), (Key::Bool(true), vec![])]
}

fn list_elem(ty: &Ty) -> Ty {
    match (ty.head_name(), ty.spine().1.first()) {
        (Some("List"), Some(elem)) => (*elem).clone(),
        _ => Ty::Unknown,
    }
}

/// The rows that match constructor `key`, with its `arity` fields in place of the first
/// column.
fn specialize(rows: &[Vec<Pat>], key: &Key, arity: usize) -> Vec<Vec<Pat>> {
    rows.iter()
        .filter_map(|row| {
            let (first, rest) = row.split_first()?;
            let mut out = match first {
                Pat::Wild => vec![Pat::Wild; arity],
                Pat::Ctor(k, args) if k == key && args.len() == arity => args.clone(),
                _ => return None,
            };
            out.extend(rest.iter().cloned());
            Some(out)
        })
        .collect()
}
