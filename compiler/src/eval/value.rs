//! Runtime values. Scalars are stored inline; everything with parts (constructors, tuples,
//! records, arrays, closures, partial applications) is one shared `Node`, dropped
//! iteratively so that a million-element list never overflows the native stack.

use std::cell::OnceCell;
use std::rc::Rc;

use crate::span::Span;

/// `repr(u64)` puts every payload at offset 8, so a value moves as two whole words
/// (the default packed layout made copies partial and stalled store forwarding). The
/// kinds that hold a reference come last, so that whether a value holds one
/// (`holds_reference`, asked at every store into a register) is one comparison of its
/// tag.
#[derive(Clone, Debug, Default)]
#[repr(u64)]
pub enum Value {
    #[default]
    Unit,
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    /// A constructor without fields (`None`, `Empty`, user enums), by constructor id.
    Tag(u32),
    /// A constructor with fields used as a function (`Some` in `map Some xs`).
    CtorFn(u32),
    /// A native function (`prim_*`), unapplied.
    Native(u16),
    // (The kinds holding a reference, from here on.)
    Str(Rc<String>),
    Node(Rc<Node>),
    /// A type-class dictionary (dictionary-passing of constrained functions).
    Dict(DictRef),
    /// An indeterminate value: a hole, or an operation stuck on one.
    Stuck(Rc<Stuck>),
}

#[derive(Debug)]
pub struct Node {
    pub kind: NodeKind,
    pub fields: Fields,
}

/// How many parts a node keeps inside itself: enough for list cells, pairs and closures
/// over one or two values, so that those cost one allocation instead of two. Two and not
/// three: a list cell takes 96 bytes of heap instead of 112 (the map/filter/fold pipeline
/// ran 12% faster), and triples, rarer, pay a second allocation.
const INLINE: usize = 2;

/// A node's parts: up to `INLINE` stored in place (unused slots hold `Unit`), more in a
/// vector. Reads go through the slice it dereferences to.
#[derive(Clone, Debug)]
pub enum Fields {
    Inline {
        len: InlineLen,
        items: [Value; INLINE],
    },
    Heap(Vec<Value>),
}

/// How many of an inline node's slots hold parts: at most `INLINE`. Only this module
/// makes one, so that the slice of the parts is taken without checking it again at each
/// read of a part (a list cell's head or tail, two comparisons a read).
#[derive(Clone, Copy, Debug)]
pub struct InlineLen(u8);

impl InlineLen {
    #[inline(always)]
    fn get(self) -> usize {
        usize::from(self.0)
    }
}

impl Fields {
    pub fn new() -> Fields {
        Fields::Inline {
            len: InlineLen(0),
            items: [Value::Unit, Value::Unit],
        }
    }

    /// Two parts, in place (a list cell, a pair).
    #[inline]
    pub fn pair(a: Value, b: Value) -> Fields {
        Fields::Inline {
            len: InlineLen(2),
            items: [a, b],
        }
    }

    /// Moves the parts out to the end of `out`, leaving this empty.
    fn move_into(&mut self, out: &mut Vec<Value>) {
        match self {
            Fields::Inline { len, items } => {
                out.extend(items[..len.get()].iter_mut().map(std::mem::take));
                *len = InlineLen(0);
            }
            Fields::Heap(v) => out.append(v),
        }
    }
}

impl Default for Fields {
    fn default() -> Fields {
        Fields::new()
    }
}

impl std::ops::Deref for Fields {
    type Target = [Value];
    #[inline]
    fn deref(&self) -> &[Value] {
        match self {
            // SAFETY: `len` is at most `INLINE` (`InlineLen`).
            Fields::Inline { len, items } => unsafe { items.get_unchecked(..len.get()) },
            Fields::Heap(v) => v,
        }
    }
}

impl std::ops::DerefMut for Fields {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Value] {
        match self {
            // SAFETY: `len` is at most `INLINE` (`InlineLen`).
            Fields::Inline { len, items } => unsafe { items.get_unchecked_mut(..len.get()) },
            Fields::Heap(v) => v,
        }
    }
}

impl FromIterator<Value> for Fields {
    #[inline]
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Fields {
        let mut iter = iter.into_iter();
        let mut items = [Value::Unit, Value::Unit];
        let mut len = 0;
        while len < INLINE {
            match iter.next() {
                Some(v) => items[len] = v,
                None => {
                    return Fields::Inline {
                        len: InlineLen(len as u8),
                        items,
                    }
                }
            }
            len += 1;
        }
        match iter.next() {
            None => Fields::Inline {
                len: InlineLen(len as u8),
                items,
            },
            Some(next) => {
                let mut v = Vec::with_capacity(INLINE + 1 + iter.size_hint().0);
                v.extend(items);
                v.push(next);
                v.extend(iter);
                Fields::Heap(v)
            }
        }
    }
}

impl From<Vec<Value>> for Fields {
    fn from(v: Vec<Value>) -> Fields {
        if v.len() <= INLINE {
            v.into_iter().collect()
        } else {
            Fields::Heap(v)
        }
    }
}

impl<const N: usize> From<[Value; N]> for Fields {
    #[inline]
    fn from(v: [Value; N]) -> Fields {
        v.into_iter().collect()
    }
}

#[derive(Clone, Copy, Debug)]
pub enum NodeKind {
    /// A constructor applied to its fields (a record payload is one `Record` field).
    Data(u32),
    Tuple,
    /// Field values in the order of the names (sorted) of the `Code::Record` node that
    /// built the record (`ir::record_names`). An id and not the names themselves: the kind
    /// takes 8 bytes, so that a node takes 48 and a list cell 64 bytes of heap, not 80.
    Record(u32),
    Array,
    /// A closure over lambda `id`; the fields are its captured values.
    Closure(u32),
    /// A function value (field 0) applied to too few arguments (the other fields).
    Partial,
    /// The lambdas of one `let rec` (group id) sharing their captured values (the fields).
    Group(u32),
    /// Member `index` of a rec group, as a function value; field 0 is the group.
    Member(u32),
}

impl Node {
    #[inline]
    pub fn value(kind: NodeKind, fields: impl Into<Fields>) -> Value {
        Value::Node(Rc::new(Node {
            kind,
            fields: fields.into(),
        }))
    }
}

impl Node {
    /// A node nothing else holds (an emptied one kept for re-use), relabelled `kind`:
    /// its parts, to be filled in place. `None` when another holds it.
    #[inline(always)]
    pub fn reuse(rc: &mut Rc<Node>, kind: NodeKind) -> Option<&mut [Value]> {
        let node = Rc::get_mut(rc)?;
        node.kind = kind;
        Some(&mut node.fields)
    }

    /// `reuse` of a node of two parts kept inline (a list cell, a pair): its two slots,
    /// reached without the general look at its parts. `None` for any other node.
    #[inline(always)]
    pub fn reuse_pair(rc: &mut Rc<Node>, kind: NodeKind) -> Option<&mut [Value; 2]> {
        let node = Rc::get_mut(rc)?;
        let Fields::Inline {
            len: InlineLen(2),
            items,
        } = &mut node.fields
        else {
            return None;
        };
        node.kind = kind;
        Some(items)
    }
}

/// What calling a function value runs, where it is a closure or a closure applied to too
/// few arguments: the closure's lambda, the arguments it was applied to already, and its
/// captured values. `None` for any other value.
#[inline(always)]
pub fn lambda_call(f: &Value) -> Option<(u32, &[Value], &[Value])> {
    let Value::Node(node) = f else {
        return None;
    };
    let (closure, saved) = match node.kind {
        NodeKind::Closure(lam) => return Some((lam, &[], &node.fields)),
        NodeKind::Partial => (node.fields.first()?, &node.fields[1..]),
        _ => return None,
    };
    match closure {
        Value::Node(c) => match c.kind {
            NodeKind::Closure(lam) => Some((lam, saved, &c.fields)),
            _ => None,
        },
        _ => None,
    }
}

/// Both parts of a two-part node (a list cell, a pair): moved out when nothing else holds
/// the node, which is then dropped empty, and copied otherwise. `None` for other nodes.
#[inline(always)]
pub fn pair_parts(node: &mut Rc<Node>) -> Option<(Value, Value)> {
    if let Some(n) = Rc::get_mut(node) {
        return match &mut n.fields[..] {
            [a, b] => Some((std::mem::take(a), std::mem::take(b))),
            _ => None,
        };
    }
    copied_pair(node)
}

/// Copies of both parts of a two-part node another also holds.
#[inline(always)]
fn copied_pair(node: &Node) -> Option<(Value, Value)> {
    match &node.fields[..] {
        [a, b] => Some((a.clone(), b.clone())),
        _ => None,
    }
}

/// Frees a node whose parts were all moved out (its slots hold `Unit`) where nothing else
/// holds it, without the general `drop`, which walks its parts for nodes to take apart
/// (about 160 instructions a list cell, five times the freeing itself). A node held
/// elsewhere too is released.
#[inline(always)]
pub fn free_emptied(node: Rc<Node>) {
    match Rc::try_unwrap(node) {
        // Parts in place own nothing once moved out; a vector of them owns its buffer.
        Ok(node) if matches!(node.fields, Fields::Inline { .. }) => std::mem::forget(node),
        other => drop(other),
    }
}

/// `pair_parts` taking the node: one nothing else holds is freed at once, its parts
/// moved out and the emptied node never looked at again (the general `drop` would walk
/// its emptied parts and drop each). `None` for other nodes.
#[inline(always)]
pub fn into_pair_parts(node: Rc<Node>) -> Option<(Value, Value)> {
    match Rc::try_unwrap(node) {
        Ok(node) => match empty(node) {
            Fields::Inline {
                len: InlineLen(2),
                items: [a, b],
            } => Some((a, b)),
            _ => None,
        },
        Err(shared) => copied_pair(&shared),
    }
}

impl Drop for Node {
    /// Takes uniquely owned children apart in a loop instead of recursively.
    fn drop(&mut self) {
        // Most nodes own at most one uniquely held node (a list's tail, a chain of
        // constructors): follow that spine in a loop, and use a work list only for the rest.
        let mut pending = Vec::new();
        let mut spine = take_unique(&mut self.fields, &mut pending);
        loop {
            while let Some(rc) = spine {
                spine = match Rc::try_unwrap(rc) {
                    Ok(node) => {
                        // The parts are dropped here; the emptied node, which holds
                        // nothing, is forgotten rather than looked at again by its `drop`.
                        let mut fields = empty(node);
                        take_unique(&mut fields, &mut pending)
                    }
                    Err(_) => None,
                };
            }
            match pending.pop() {
                None => return,
                Some(Value::Node(rc)) => spine = Some(rc),
                Some(Value::Stuck(rc)) => {
                    if let Ok(mut stuck) = Rc::try_unwrap(rc) {
                        pending.append(&mut stuck.take_parts());
                    }
                }
                Some(_) => {}
            }
        }
    }
}

impl Drop for Stuck {
    fn drop(&mut self) {
        let parts = self.take_parts();
        if parts.iter().any(owns_parts) {
            drop_iteratively(parts);
        }
    }
}

/// The parts of a node nothing else holds, without running the node's `drop` (which
/// would find nothing to do once they are out).
fn empty(mut node: Node) -> Fields {
    let fields = std::mem::take(&mut node.fields);
    std::mem::forget(node);
    fields
}

/// Moves the uniquely held parts out of `fields`: the first node is returned, the others
/// go to `pending`. What stays behind is dropped without recursing.
fn take_unique(fields: &mut Fields, pending: &mut Vec<Value>) -> Option<Rc<Node>> {
    let mut first = None;
    for f in fields.iter_mut() {
        if owns_parts(f) {
            match std::mem::take(f) {
                Value::Node(rc) if first.is_none() => first = Some(rc),
                other => pending.push(other),
            }
        }
    }
    first
}

fn owns_parts(v: &Value) -> bool {
    match v {
        Value::Node(rc) => Rc::strong_count(rc) == 1,
        Value::Stuck(rc) => Rc::strong_count(rc) == 1,
        _ => false,
    }
}

/// Drops values whose uniquely owned parts are emptied into one work list first, so that
/// the `Drop` of each part finds nothing left to recurse into.
fn drop_iteratively(mut pending: Vec<Value>) {
    while let Some(v) = pending.pop() {
        match v {
            Value::Node(rc) => {
                if let Ok(node) = Rc::try_unwrap(rc) {
                    empty(node).move_into(&mut pending);
                }
            }
            Value::Stuck(rc) => {
                if let Ok(mut stuck) = Rc::try_unwrap(rc) {
                    pending.append(&mut stuck.take_parts());
                }
            }
            _ => {}
        }
    }
}

impl Stuck {
    /// Moves out the values this stuck form holds.
    fn take_parts(&mut self) -> Vec<Value> {
        match self {
            Stuck::Hole { .. }
            | Stuck::Marked { .. }
            | Stuck::Unresolved { .. }
            | Stuck::Literal { .. } => Vec::new(),
            Stuck::Op { args, .. } => std::mem::take(args),
            Stuck::App { func, args } => {
                let mut out = std::mem::take(args);
                out.push(std::mem::replace(func, Value::Unit));
                out
            }
            Stuck::Match { scrutinee: v }
            | Stuck::If { cond: v }
            | Stuck::Field { base: v, .. } => {
                vec![std::mem::replace(v, Value::Unit)]
            }
        }
    }
}

/// A dictionary: an instance with the dictionaries of its context. `None` is a dictionary
/// nothing could supply (a type error or an ambiguity): what uses it is indeterminate.
pub type DictRef = Option<Rc<Dict>>;

#[derive(Debug)]
pub struct Dict {
    pub instance: u32,
    pub args: Vec<DictRef>,
    /// Method values, computed on first use.
    pub methods: Vec<OnceCell<Value>>,
    /// Superclass dictionaries, built on first use.
    pub supers: Vec<OnceCell<DictRef>>,
}

/// Why a value is indeterminate.
#[derive(Debug)]
pub enum Stuck {
    Hole {
        name: Option<String>,
        /// Index into the run's list of reached holes.
        reached: u32,
    },
    /// A node the checker marked as ill-typed.
    Marked { span: Span },
    /// A method whose instance could not be determined: an overloaded value nothing
    /// resolved, printed `<overloaded:NAME>`.
    Unresolved { method: Rc<str> },
    /// A numeric literal whose type could not be determined.
    Literal { text: Rc<str> },
    /// A native operation with an indeterminate operand.
    Op { op: &'static str, args: Vec<Value> },
    /// An indeterminate function applied to arguments.
    App { func: Value, args: Vec<Value> },
    /// A `match` whose scrutinee is indeterminate where a pattern needs to look at it.
    Match { scrutinee: Value },
    /// An `if` on an indeterminate condition.
    If { cond: Value },
    /// A field of an indeterminate record.
    Field { base: Value, field: Rc<str> },
}

impl Value {
    pub fn str(s: impl Into<String>) -> Value {
        Value::Str(Rc::new(s.into()))
    }

    pub fn stuck(s: Stuck) -> Value {
        Value::Stuck(Rc::new(s))
    }

    pub fn is_stuck(&self) -> bool {
        matches!(self, Value::Stuck(_))
    }

    /// Whether it holds a reference (what dropping it releases).
    #[inline(always)]
    pub fn holds_reference(&self) -> bool {
        matches!(
            self,
            Value::Str(_) | Value::Node(_) | Value::Dict(_) | Value::Stuck(_)
        )
    }

    /// Drops the value, running the drop glue (which is not inlined) only when it holds a
    /// reference: most values dropped in a run are scalars, or the `Unit` a move left.
    #[inline(always)]
    pub fn release(self) {
        if self.holds_reference() {
            drop(self)
        } else {
            std::mem::forget(self)
        }
    }

    /// Stores `v` in place of this value (`release`d).
    #[inline(always)]
    pub fn set(&mut self, v: Value) {
        std::mem::replace(self, v).release();
    }
}

/// Shortens `values` to `len`, releasing what is cut off (`Value::release`).
#[inline]
pub fn truncate(values: &mut Vec<Value>, len: usize) {
    while values.len() > len {
        if let Some(v) = values.pop() {
            v.release();
        }
    }
}
