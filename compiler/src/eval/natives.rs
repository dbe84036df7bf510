//! The prelude's natives (`pub fn prim_* : T = ?`). Arithmetic and comparison dispatch on
//! the runtime value, so one native serves every numeric type. Integer arithmetic is
//! checked: overflow and division by zero stop the program with a runtime error.

use std::cmp::Ordering;
use std::rc::Rc;

use super::print::show_scalar;
use super::value::{Fields, Node, NodeKind, Stuck, Value};
use super::{runtime, Fault};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Neg,
    Eq,
    Ne,
    Cmp,
    Lt,
    Le,
    Gt,
    Ge,
    Show,
    And,
    Or,
    Error,
    ArrayFromList,
    ArrayToList,
    ArrayGet,
    ArrayLen,
    /// `foldl` over a list: the machine runs the loop, calling the function (see
    /// `Machine::fold_step`); it is no pure function of its operands.
    ListFoldl,
    /// The list's elements in reverse order.
    ListReverse,
    /// `map` over a list, run by the machine as a loop (`Machine::map_step`), front to back.
    ListMap,
    /// `filter` over a list, run by the machine as a loop like `ListMap`.
    ListFilter,
}

/// Every native by its prelude name.
pub const NATIVES: &[(&str, Prim)] = &[
    ("prim_add", Prim::Add),
    ("prim_sub", Prim::Sub),
    ("prim_mul", Prim::Mul),
    ("prim_div", Prim::Div),
    ("prim_mod", Prim::Mod),
    ("prim_neg", Prim::Neg),
    ("prim_eq", Prim::Eq),
    ("prim_ne", Prim::Ne),
    ("prim_cmp", Prim::Cmp),
    ("prim_lt", Prim::Lt),
    ("prim_le", Prim::Le),
    ("prim_gt", Prim::Gt),
    ("prim_ge", Prim::Ge),
    ("prim_show", Prim::Show),
    ("prim_and", Prim::And),
    ("prim_or", Prim::Or),
    ("prim_error", Prim::Error),
    ("prim_array_from_list", Prim::ArrayFromList),
    ("prim_array_to_list", Prim::ArrayToList),
    ("prim_array_get", Prim::ArrayGet),
    ("prim_array_len", Prim::ArrayLen),
    ("prim_list_foldl", Prim::ListFoldl),
    ("prim_list_reverse", Prim::ListReverse),
    ("prim_list_map", Prim::ListMap),
    ("prim_list_filter", Prim::ListFilter),
];

impl Prim {
    pub fn by_name(name: &str) -> Option<Prim> {
        NATIVES.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
    }

    pub fn id(self) -> u16 {
        NATIVES.iter().position(|(_, p)| *p == self).unwrap_or(0) as u16
    }

    pub fn from_id(id: u16) -> Prim {
        NATIVES
            .get(id as usize)
            .map(|(_, p)| *p)
            .unwrap_or(Prim::Error)
    }

    pub fn arity(self) -> u32 {
        match self {
            Prim::Neg
            | Prim::Show
            | Prim::Error
            | Prim::ArrayFromList
            | Prim::ArrayToList
            | Prim::ArrayLen
            | Prim::ListReverse => 1,
            Prim::ListFoldl => 3,
            _ => 2,
        }
    }

    /// True for the natives that call a function they are given (the list loops): the
    /// machine runs them, they are no pure function of their operands.
    pub fn calls_back(self) -> bool {
        matches!(self, Prim::ListFoldl | Prim::ListMap | Prim::ListFilter)
    }

    /// How an operation stuck on an indeterminate operand is shown.
    pub fn symbol(self) -> &'static str {
        match self {
            Prim::Add => "+",
            Prim::Sub => "-",
            Prim::Mul => "*",
            Prim::Div => "/",
            Prim::Mod => "%",
            Prim::Neg => "negate",
            Prim::Eq => "==",
            Prim::Ne => "!=",
            Prim::Cmp => "cmp",
            Prim::Lt => "<",
            Prim::Le => "<=",
            Prim::Gt => ">",
            Prim::Ge => ">=",
            Prim::Show => "show",
            Prim::And => "&&",
            Prim::Or => "||",
            Prim::Error => "error",
            Prim::ArrayFromList => "to_array",
            Prim::ArrayToList => "to_list",
            Prim::ArrayGet => "get",
            Prim::ArrayLen => "count",
            Prim::ListFoldl => "foldl",
            Prim::ListReverse => "reverse",
            Prim::ListMap => "map",
            Prim::ListFilter => "filter",
        }
    }

    pub fn is_infix(self) -> bool {
        self.arity() == 2
            && !matches!(
                self,
                Prim::Cmp | Prim::ArrayGet | Prim::Error | Prim::ArrayLen
            )
    }
}

/// The list constructors' ids, which the array natives build and take apart.
#[derive(Clone, Copy, Debug)]
pub struct ListIds {
    pub empty: u32,
    pub cons: u32,
}

macro_rules! int_ops {
    ($a:expr, $b:expr, $op:ident, $sym:literal, $($var:ident),*) => {
        match ($a, $b) {
            $( (Value::$var(x), Value::$var(y)) => x.$op(*y).map(Value::$var).ok_or_else(|| {
                runtime(format!(
                    "integer overflow: {} {} {}",
                    show_scalar($a).unwrap_or_default(),
                    $sym,
                    show_scalar($b).unwrap_or_default()
                ))
            }), )*
            _ => Err(mismatch($sym, $a, $b)),
        }
    };
}

fn mismatch(op: &str, a: &Value, b: &Value) -> Fault {
    runtime(format!(
        "`{op}` cannot combine {} and {}",
        kind_name(a),
        kind_name(b)
    ))
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Unit => "()",
        Value::Bool(_) => "bool",
        Value::I8(_) => "i8",
        Value::I16(_) => "i16",
        Value::I32(_) => "i32",
        Value::I64(_) => "i64",
        Value::U8(_) => "u8",
        Value::U16(_) => "u16",
        Value::U32(_) => "u32",
        Value::U64(_) => "u64",
        Value::F32(_) => "f32",
        Value::F64(_) => "f64",
        Value::Str(_) => "string",
        _ => "a structured value",
    }
}

pub fn add(a: &Value, b: &Value) -> Result<Value, Fault> {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => Ok(Value::F32(x + y)),
        (Value::F64(x), Value::F64(y)) => Ok(Value::F64(x + y)),
        (Value::Str(x), Value::Str(y)) => {
            let mut s = String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Ok(Value::Str(Rc::new(s)))
        }
        _ => int_ops!(a, b, checked_add, "+", I8, I16, I32, I64, U8, U16, U32, U64),
    }
}

pub fn sub(a: &Value, b: &Value) -> Result<Value, Fault> {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => Ok(Value::F32(x - y)),
        (Value::F64(x), Value::F64(y)) => Ok(Value::F64(x - y)),
        _ => int_ops!(a, b, checked_sub, "-", I8, I16, I32, I64, U8, U16, U32, U64),
    }
}

pub fn mul(a: &Value, b: &Value) -> Result<Value, Fault> {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => Ok(Value::F32(x * y)),
        (Value::F64(x), Value::F64(y)) => Ok(Value::F64(x * y)),
        _ => int_ops!(a, b, checked_mul, "*", I8, I16, I32, I64, U8, U16, U32, U64),
    }
}

fn div(a: &Value, b: &Value) -> Result<Value, Fault> {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => Ok(Value::F32(x / y)),
        (Value::F64(x), Value::F64(y)) => Ok(Value::F64(x / y)),
        _ => {
            if is_zero(b) {
                return Err(runtime("division by zero"));
            }
            int_ops!(a, b, checked_div, "/", I8, I16, I32, I64, U8, U16, U32, U64)
        }
    }
}

fn rem(a: &Value, b: &Value) -> Result<Value, Fault> {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => Ok(Value::F32(x % y)),
        (Value::F64(x), Value::F64(y)) => Ok(Value::F64(x % y)),
        _ => {
            if is_zero(b) {
                return Err(runtime("division by zero (in `%`)"));
            }
            // `MIN % -1` is 0; only the quotient overflows.
            int_ops!(
                a,
                b,
                wrapping_rem_checked,
                "%",
                I8,
                I16,
                I32,
                I64,
                U8,
                U16,
                U32,
                U64
            )
        }
    }
}

/// `wrapping_rem` with the `checked_*` shape the macro expects.
trait WrappingRemChecked: Sized {
    fn wrapping_rem_checked(self, rhs: Self) -> Option<Self>;
}

macro_rules! wrapping_rem_checked {
    ($($t:ty),*) => {$(
        impl WrappingRemChecked for $t {
            fn wrapping_rem_checked(self, rhs: $t) -> Option<$t> {
                Some(self.wrapping_rem(rhs))
            }
        }
    )*};
}
wrapping_rem_checked!(i8, i16, i32, i64, u8, u16, u32, u64);

fn is_zero(v: &Value) -> bool {
    matches!(
        v,
        Value::I8(0)
            | Value::I16(0)
            | Value::I32(0)
            | Value::I64(0)
            | Value::U8(0)
            | Value::U16(0)
            | Value::U32(0)
            | Value::U64(0)
    )
}

fn neg(a: &Value) -> Result<Value, Fault> {
    let overflow = || {
        runtime(format!(
            "integer overflow: negate {}",
            show_scalar(a).unwrap_or_default()
        ))
    };
    match a {
        Value::F32(x) => Ok(Value::F32(-x)),
        Value::F64(x) => Ok(Value::F64(-x)),
        Value::I8(x) => x.checked_neg().map(Value::I8).ok_or_else(overflow),
        Value::I16(x) => x.checked_neg().map(Value::I16).ok_or_else(overflow),
        Value::I32(x) => x.checked_neg().map(Value::I32).ok_or_else(overflow),
        Value::I64(x) => x.checked_neg().map(Value::I64).ok_or_else(overflow),
        other => Err(runtime(format!(
            "`negate` cannot take {}",
            kind_name(other)
        ))),
    }
}

/// Ordering of two primitive values of one type (`None` for NaN or mixed kinds).
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::I32(x), Value::I32(y)) => Some(x.cmp(y)),
        (Value::I64(x), Value::I64(y)) => Some(x.cmp(y)),
        (Value::I8(x), Value::I8(y)) => Some(x.cmp(y)),
        (Value::I16(x), Value::I16(y)) => Some(x.cmp(y)),
        (Value::U8(x), Value::U8(y)) => Some(x.cmp(y)),
        (Value::U16(x), Value::U16(y)) => Some(x.cmp(y)),
        (Value::U32(x), Value::U32(y)) => Some(x.cmp(y)),
        (Value::U64(x), Value::U64(y)) => Some(x.cmp(y)),
        (Value::F32(x), Value::F32(y)) => x.partial_cmp(y),
        (Value::F64(x), Value::F64(y)) => x.partial_cmp(y),
        (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Unit, Value::Unit) => Some(Ordering::Equal),
        _ => None,
    }
}

fn equal(a: &Value, b: &Value) -> Result<bool, Fault> {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) => Ok(x == y),
        (Value::F64(x), Value::F64(y)) => Ok(x == y),
        _ => compare(a, b)
            .map(|o| o == Ordering::Equal)
            .ok_or_else(|| mismatch("==", a, b)),
    }
}

fn ordered(op: Prim, a: &Value, b: &Value) -> Result<Value, Fault> {
    let Some(o) = compare(a, b) else {
        if matches!(
            (a, b),
            (Value::F32(_), Value::F32(_)) | (Value::F64(_), Value::F64(_))
        ) {
            // A NaN operand: every ordering question is false, `cmp` says 0.
            return Ok(match op {
                Prim::Cmp => Value::I32(0),
                _ => Value::Bool(false),
            });
        }
        return Err(mismatch(op.symbol(), a, b));
    };
    Ok(match op {
        Prim::Cmp => Value::I32(match o {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }),
        Prim::Lt => Value::Bool(o == Ordering::Less),
        Prim::Le => Value::Bool(o != Ordering::Greater),
        Prim::Gt => Value::Bool(o == Ordering::Greater),
        _ => Value::Bool(o != Ordering::Less),
    })
}

/// `op` on two `i32`s `x` and `y` where the answer is a value (`None` on overflow,
/// division by zero, and for the natives that take no integers), made with `$int` or
/// `$bool`: the one table of `binary`'s common case and of the kernels' arithmetic on
/// unboxed scalars (`Register::binary` for `Scalar`). A macro, so that each place compiles it as its own code (sharing
/// a function changed how the machine's loop compiled, 3% slower on two benchmarks).
macro_rules! i32_binary {
    ($op:expr, $x:ident, $y:ident, $int:path, $bool:path) => {{
        let (x, y): (i32, i32) = ($x, $y);
        match $op {
            Prim::Add => x.checked_add(y).map($int),
            Prim::Sub => x.checked_sub(y).map($int),
            Prim::Mul => x.checked_mul(y).map($int),
            Prim::Div => x.checked_div(y).map($int),
            // `MIN % -1` is 0, as in `rem`.
            Prim::Mod if y != 0 => Some($int(x.wrapping_rem(y))),
            Prim::Lt => Some($bool(x < y)),
            Prim::Le => Some($bool(x <= y)),
            Prim::Gt => Some($bool(x > y)),
            Prim::Ge => Some($bool(x >= y)),
            Prim::Eq => Some($bool(x == y)),
            Prim::Ne => Some($bool(x != y)),
            _ => None,
        }
    }};
}
pub(super) use i32_binary;

/// A binary native on two evaluated operands. The common case, i32 arithmetic and
/// comparison, is inlined where it is used (the result then goes to the value stack
/// straight from registers); the rest is `binary_general`.
#[inline(always)]
pub fn binary(op: Prim, a: &Value, b: &Value) -> Result<Value, Fault> {
    if let (Value::I32(x), Value::I32(y)) = (a, b) {
        let (x, y) = (*x, *y);
        let fast = i32_binary!(op, x, y, Value::I32, Value::Bool);
        if let Some(v) = fast {
            return Ok(v);
        }
    }
    binary_general(op, a, b)
}

/// Whether comparison `op` holds of two values ordered `ord` (`None` where `op` is no
/// comparison).
#[inline(always)]
pub fn holds(op: Prim, ord: Ordering) -> Option<bool> {
    match op {
        Prim::Eq => Some(ord.is_eq()),
        Prim::Ne => Some(ord.is_ne()),
        Prim::Lt => Some(ord.is_lt()),
        Prim::Le => Some(ord.is_le()),
        Prim::Gt => Some(ord.is_gt()),
        Prim::Ge => Some(ord.is_ge()),
        _ => None,
    }
}

/// `binary` beyond its inlined common case.
#[inline(never)]
fn binary_general(op: Prim, a: &Value, b: &Value) -> Result<Value, Fault> {
    // Comparisons of two strings (the keys of search trees), without the general dispatch.
    if let (Value::Str(x), Value::Str(y)) = (a, b) {
        if let Some(b) = holds(op, x.as_str().cmp(y.as_str())) {
            return Ok(Value::Bool(b));
        }
    }
    if a.is_stuck() || b.is_stuck() {
        return Ok(Value::stuck(Stuck::Op {
            op: op.symbol(),
            args: vec![a.clone(), b.clone()],
        }));
    }
    match op {
        Prim::Add => add(a, b),
        Prim::Sub => sub(a, b),
        Prim::Mul => mul(a, b),
        Prim::Div => div(a, b),
        Prim::Mod => rem(a, b),
        Prim::Eq => equal(a, b).map(Value::Bool),
        Prim::Ne => equal(a, b).map(|e| Value::Bool(!e)),
        Prim::Cmp | Prim::Lt | Prim::Le | Prim::Gt | Prim::Ge => ordered(op, a, b),
        Prim::And | Prim::Or => match (a, b) {
            (Value::Bool(x), Value::Bool(y)) => Ok(Value::Bool(if op == Prim::And {
                *x && *y
            } else {
                *x || *y
            })),
            _ => Err(mismatch(op.symbol(), a, b)),
        },
        Prim::ArrayGet => array_get(a, b),
        _ => Err(runtime(format!("`{}` takes one argument", op.symbol()))),
    }
}

/// A unary native on an evaluated operand.
pub fn unary(op: Prim, a: &Value, list: ListIds) -> Result<Value, Fault> {
    if op == Prim::ListReverse {
        return list_reverse(a, list);
    }
    if a.is_stuck() {
        return Ok(Value::stuck(Stuck::Op {
            op: op.symbol(),
            args: vec![a.clone()],
        }));
    }
    match op {
        Prim::Neg => neg(a),
        Prim::Show => Ok(Value::str(
            show_scalar(a).unwrap_or_else(|| "<value>".into()),
        )),
        Prim::Error => match a {
            Value::Str(s) => Err(runtime(s.as_str())),
            _ => Err(runtime("error")),
        },
        Prim::ArrayFromList => array_from_list(a, list),
        Prim::ArrayToList => array_to_list(a, list),
        Prim::ArrayLen => match a {
            Value::Node(n) if matches!(n.kind, NodeKind::Array) => Ok(Value::I32(
                i32::try_from(n.fields.len()).unwrap_or(i32::MAX),
            )),
            _ => Err(runtime("`count` expects an array")),
        },
        _ => Err(runtime(format!("`{}` takes two arguments", op.symbol()))),
    }
}

fn array_get(index: &Value, array: &Value) -> Result<Value, Fault> {
    let (Value::I32(i), Value::Node(n)) = (index, array) else {
        return Err(runtime("`get` expects an i32 index and an array"));
    };
    let len = n.fields.len();
    usize::try_from(*i)
        .ok()
        .and_then(|i| n.fields.get(i))
        .cloned()
        .ok_or_else(|| {
            runtime(format!(
                "get: index {i} is out of range for an array of length {len}"
            ))
        })
}

fn array_from_list(list: &Value, ids: ListIds) -> Result<Value, Fault> {
    let mut out = Vec::new();
    let mut cur = list.clone();
    loop {
        match &cur {
            Value::Tag(t) if *t == ids.empty => break,
            Value::Node(n) if matches!(n.kind, NodeKind::Data(c) if c == ids.cons) => {
                out.push(n.fields[0].clone());
                let next = n.fields[1].clone();
                cur = next;
            }
            Value::Stuck(_) => {
                return Ok(Value::stuck(Stuck::Op {
                    op: Prim::ArrayFromList.symbol(),
                    args: vec![list.clone()],
                }))
            }
            _ => return Err(runtime("`to_array` expects a list")),
        }
    }
    Ok(Node::value(NodeKind::Array, out))
}

/// `unary` on an operand the caller gives up: `reverse` of a list nothing else holds
/// turns its cells around in place (`list_reverse_owned`), the rest as `unary` computes.
pub fn unary_owned(op: Prim, a: Value, list: ListIds) -> Result<Value, Fault> {
    if op == Prim::ListReverse {
        return list_reverse_owned(a, list);
    }
    unary(op, &a, list)
}

/// `list_reverse` of a list given up by its holder: the cells nothing else holds (from
/// the first on, until one that is shared) are turned around in place, each pointed at
/// the cells before it, and the shared rest copied as `list_reverse` does. The same
/// value, without building a new list and freeing the old one (the prelude's `zip`,
/// `take`, `filter_map` and `map`'s fold end with a `reverse` of the list they built).
fn list_reverse_owned(xs: Value, ids: ListIds) -> Result<Value, Fault> {
    let mut out = Value::Tag(ids.empty);
    let mut cur = xs;
    loop {
        let mut rc = match cur {
            Value::Node(rc) if matches!(rc.kind, NodeKind::Data(c) if c == ids.cons) => rc,
            // The end, an indeterminate tail or something else: as `list_reverse`.
            other => return list_reverse_onto(&other, out, ids),
        };
        match Rc::get_mut(&mut rc).map(|n| &mut n.fields[..]) {
            Some([_, rest]) => {
                cur = std::mem::replace(rest, out);
                out = Value::Node(rc);
            }
            _ => return list_reverse_onto(&Value::Node(rc), out, ids),
        }
    }
}

/// As the prelude's `foldl (\out x -> Cons x out) Empty xs` gives it: where the list
/// ends in an indeterminate tail, the result is that fold's stuck `match` on the tail.
fn list_reverse(xs: &Value, ids: ListIds) -> Result<Value, Fault> {
    list_reverse_onto(xs, Value::Tag(ids.empty), ids)
}

/// `list_reverse` of `xs` in front of `out` (the cells before it, reversed already).
fn list_reverse_onto(xs: &Value, mut out: Value, ids: ListIds) -> Result<Value, Fault> {
    let mut cur = xs;
    loop {
        match cur {
            Value::Tag(t) if *t == ids.empty => return Ok(out),
            Value::Node(n) if matches!(n.kind, NodeKind::Data(c) if c == ids.cons) => {
                let [y, rest] = &n.fields[..] else {
                    return Err(runtime("broken list cell"));
                };
                out = Node::value(NodeKind::Data(ids.cons), Fields::pair(y.clone(), out));
                cur = rest;
            }
            Value::Stuck(_) => {
                return Ok(Value::stuck(Stuck::Match {
                    scrutinee: cur.clone(),
                }))
            }
            _ => return Err(runtime("`reverse` expects a list")),
        }
    }
}

fn array_to_list(array: &Value, ids: ListIds) -> Result<Value, Fault> {
    let Value::Node(n) = array else {
        return Err(runtime("`to_list` expects an array"));
    };
    let mut out = Value::Tag(ids.empty);
    for v in n.fields.iter().rev() {
        out = Node::value(NodeKind::Data(ids.cons), Fields::pair(v.clone(), out));
    }
    Ok(out)
}
