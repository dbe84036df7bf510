//! What a kernel's register holds (`kernel`): a `Value`, or, for kernels computing on
//! `i32`s and booleans alone, an unboxed `Scalar` (eight bytes, copied without reference
//! counts or drops; `fib` runs at 170 M instructions on them against 250 M on values).
//! The same code runs on both; each operation either computes as the machine does or
//! says that the kernel gives up (`None`, `Stop::GiveUp`).

use std::rc::Rc;

use super::ir::{field_index_near, record_names, Code};
use super::kernel::{Lane, Lit, OrGiveUp, Reg, Regs, Stop, MAX_REGS, MAX_UNPACK, WHOLE};
use super::machine::{field, record_of, tuple_field, update};
use super::natives::{self, ListIds, Prim};
use super::value::{free_emptied, into_pair_parts, lambda_call, Fields, Node, NodeKind, Value};

/// A register's contents, and the operations of kernel instructions on them.
pub(super) trait Register: Clone + Default {
    /// Whether it may hold a function value (`Ins::Apply`, which no kernel on scalars
    /// runs, compiles to nothing for a kind that does not).
    const FUNCTIONS: bool;
    /// Whether it may hold a node a frame links (`Ins::Link`, which no kernel on scalars
    /// runs: their returns and calls do not look at the chain).
    const LINKS: bool;
    /// `v` in a register, if this kind holds it.
    fn of(v: &Value) -> Option<Self>;
    fn value(self) -> Value;
    /// A copy of the contents (`Copy`, `Part`).
    fn dup(&self) -> Self;
    /// Stores `v`, releasing what the register held.
    fn set(&mut self, v: Self);
    /// The contents, moved out (a variable's last read).
    fn take(&mut self) -> Self;
    fn binary(p: Prim, a: &Self, b: &Self) -> Result<Self, Stop>;
    fn binary_k(p: Prim, a: &Self, k: i32) -> Result<Self, Stop>;
    /// Whether comparison `p` holds of `a` and `b` (`Ins::JumpUnlessBin`): `binary`'s
    /// boolean, without building it.
    #[inline(always)]
    fn holds(p: Prim, a: &Self, b: &Self) -> Result<bool, Stop> {
        Self::binary(p, a, b)?.truth().or_give_up()
    }
    fn unary(p: Prim, a: &Self, list: ListIds) -> Result<Self, Stop>;
    /// `unary` of an operand given up (`natives::unary_owned`).
    #[inline(always)]
    fn unary_owned(p: Prim, a: Self, list: ListIds) -> Result<Self, Stop> {
        Self::unary(p, &a, list)
    }
    /// The boolean held.
    fn truth(&self) -> Option<bool>;
    /// Whether it holds literal `v` (`None`: a value of another type).
    fn is(&self, v: Lit) -> Option<bool>;
    /// Whether it matches constructor pattern `ctor` (`bare`: without parts), as
    /// `Machine::matches` decides (`None`: indeterminate).
    fn is_ctor(&self, ctor: u32, bare: bool) -> Option<bool>;
    /// Whether it holds a tuple of `n` parts (`None`: indeterminate).
    fn is_tuple(&self, n: u8) -> Option<bool>;
    /// Part `i` of the node held.
    fn part(&self, i: u8) -> Option<Self>;
    /// Part `i` of the node held, read in place; the contents themselves where `i` is
    /// `WHOLE` (`Ins::JumpUnlessPartBin`).
    fn operand(&self, i: u8) -> Option<&Self>;
    /// A node of `kind` whose parts are `parts` (moved out).
    fn node(kind: NodeKind, parts: &mut [Self]) -> Option<Self>;
    /// `node` in the memory of the emptied node `token` keeps, where it keeps one of as
    /// many parts that nothing else holds.
    fn node_in(kind: NodeKind, parts: &mut [Self], token: Self) -> Option<Self>;
    /// `node_in` of the two parts `a` and `b` (`Ins::NodeInPair`).
    #[inline(always)]
    fn node_in_pair(kind: NodeKind, a: Self, b: Self, token: Self) -> Option<Self> {
        Self::node_in(kind, &mut [a, b], token)
    }
    /// What `Ins::Unpack { src, to, n: 2, keep }` leaves in frame `f` from a pair of
    /// `parts` built in `token`'s memory, without the pair: part `i` in register `to[i]`
    /// (released where that is `src`), and in `src` the memory (`keep`) or nothing.
    #[inline(always)]
    fn hand_over(
        f: &mut [Self; MAX_REGS],
        src: Reg,
        to: [Reg; 2],
        parts: [Self; 2],
        token: Self,
        keep: bool,
    ) {
        for (part, r) in parts.into_iter().zip(to) {
            if r != src {
                f[r as usize].set(part);
            }
        }
        f[src as usize].set(if keep { token } else { Self::default() });
    }
    /// `Ins::Link`: the node `node_in` builds of `parts` in `token`'s memory, but part
    /// `hole` (left empty, its register as it was), linked into `chain`'s `lane` (`None`:
    /// the kernel gives up).
    fn link(
        chain: &mut Chain<Self>,
        kind: NodeKind,
        parts: &mut [Self],
        hole: u8,
        token: Self,
        lane: Lane,
    ) -> Option<()>;
    /// `Ins::Relink` on frame `f`: part `hole` of the pair in register `src` to register
    /// `regs[0]`, register `regs[1]` and `src` (which may be `regs[0]`) emptied, and the
    /// pair, relabelled `kind` and its other part where it was, linked into `chain`'s
    /// `lane` with its hole at `hole`, where the pair is held there alone; otherwise its
    /// parts copied, the other in a new node linked so (`relink_copy`). `None` where `src`
    /// holds no pair or the chain does not take the lane (the kernel gives up).
    fn relink(
        f: &mut [Self; MAX_REGS],
        chain: &mut Chain<Self>,
        kind: NodeKind,
        src: Reg,
        regs: [Reg; 2],
        hole: u8,
        lane: Lane,
    ) -> Option<()>;
    /// The first node of `chain` (not empty), once `v` fills the last one's hole (or, in
    /// a chain of two lanes, `v`'s two parts the last holes of each); `chain` is emptied.
    /// `None` where `v` is no pair there.
    fn close(chain: &mut Chain<Self>, v: Self) -> Option<Self>;
    /// `Ins::Unpack` on frame `f`: part `i` of the `n` of the node in register `src` to
    /// register `to[i]` (released where it is `src`), moved out where nothing else holds
    /// the node and copied otherwise; `src` keeps the emptied node where `keep` asks for
    /// it, and is empty otherwise. `None` where `src` holds no node of `n` parts.
    fn unpack(
        f: &mut [Self; MAX_REGS],
        src: Reg,
        to: [Reg; MAX_UNPACK],
        n: u8,
        keep: bool,
    ) -> Option<()>;
    /// `v` with its parts released, where it is a node nothing else holds (its memory kept
    /// for `node_in`); empty otherwise.
    fn spare(v: Self) -> Self;
    fn tuple_field(&self, index: u32) -> Option<Self>;
    /// `Ins::Fields` on frame `f`: field `names[i]` of the record in register `src` (of
    /// the program whose code is `code`) copied to register `to[i]`.
    fn fields(
        f: &mut [Self; MAX_REGS],
        code: &[Code],
        src: Reg,
        names: &[Rc<str>],
        to: [Reg; MAX_UNPACK],
    ) -> Option<()>;
    /// Field `name` of the record held.
    fn field(&self, code: &[Code], name: &Rc<str>) -> Option<Self>;
    /// `record` with fields `names` set to `values` (moved out).
    fn update(record: Self, code: &[Code], names: &[Rc<str>], values: &mut [Self]) -> Option<Self>;
    /// The lambda of the closure held, and how many values it captured (`Ins::Apply`).
    fn closure(&self) -> Option<(u32, usize)>;
    /// Captured value `i` of the closure held, unless it is indeterminate.
    fn captured(&self, i: usize) -> Option<Self>;
    /// What calling the function value held runs (`value::lambda_call`: a closure's
    /// lambda, the arguments a partial application holds, the captured values).
    fn callee(&self) -> Option<(u32, &[Value], &[Value])>;
    /// Whether it holds a decided value (a kernel takes no indeterminate argument).
    fn decided(&self) -> bool;
    /// Empties the registers of a frame that returned (what they hold is released at
    /// once, so that a cell a kernel is done with can be freed and its memory re-used).
    fn clear(regs: &mut [Self]);
    /// Empties registers `regs` of frame `f` (`Ins::Ret`'s `clear`).
    fn clear_regs(f: &mut [Self; MAX_REGS], regs: Regs);
    /// Whether it holds a reference (a test's check that runs leave none behind).
    #[cfg(test)]
    fn holds_reference(&self) -> bool;
}

impl Register for Value {
    const FUNCTIONS: bool = true;
    const LINKS: bool = true;

    /// A copy of `v`, unless it is indeterminate (a kernel takes no such argument).
    #[inline(always)]
    fn of(v: &Value) -> Option<Value> {
        (!v.is_stuck()).then(|| v.dup())
    }

    #[inline(always)]
    fn value(self) -> Value {
        self
    }

    /// `clone`, with the kinds kernels hold most tested first (the derived `clone`
    /// dispatches on a table, an indirect jump the processor often mispredicts).
    #[inline(always)]
    fn dup(&self) -> Value {
        match self {
            Value::Node(n) => Value::Node(n.clone()),
            Value::I32(x) => Value::I32(*x),
            other => other.clone(),
        }
    }

    #[inline(always)]
    fn set(&mut self, v: Value) {
        Value::set(self, v)
    }

    #[inline(always)]
    fn take(&mut self) -> Value {
        std::mem::take(self)
    }

    #[inline(always)]
    fn binary(p: Prim, a: &Value, b: &Value) -> Result<Value, Stop> {
        if let (&Value::I32(x), &Value::I32(y)) = (a, b) {
            if let Some(v) = natives::i32_binary!(p, x, y, Value::I32, Value::Bool) {
                return Ok(v);
            }
        }
        decided(natives::binary(p, a, b))
    }

    #[inline(always)]
    fn binary_k(p: Prim, a: &Value, k: i32) -> Result<Value, Stop> {
        if let &Value::I32(x) = a {
            if let Some(v) = natives::i32_binary!(p, x, k, Value::I32, Value::Bool) {
                return Ok(v);
            }
        }
        decided(natives::binary(p, a, &Value::I32(k)))
    }

    /// Integers and strings (the keys of search trees) compared in place; the rest as
    /// `binary` compares them.
    #[inline(always)]
    fn holds(p: Prim, a: &Value, b: &Value) -> Result<bool, Stop> {
        let answer = match (a, b) {
            (Value::I32(x), Value::I32(y)) => natives::holds(p, x.cmp(y)),
            (Value::Str(x), Value::Str(y)) => natives::holds(p, x.as_str().cmp(y.as_str())),
            _ => None,
        };
        match answer {
            Some(b) => Ok(b),
            None => Self::binary(p, a, b)?.truth().or_give_up(),
        }
    }

    #[inline(always)]
    fn unary(p: Prim, a: &Value, list: ListIds) -> Result<Value, Stop> {
        decided(natives::unary(p, a, list))
    }

    #[inline(always)]
    fn unary_owned(p: Prim, a: Value, list: ListIds) -> Result<Value, Stop> {
        decided(natives::unary_owned(p, a, list))
    }

    #[inline(always)]
    fn truth(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    #[inline(always)]
    fn is(&self, v: Lit) -> Option<bool> {
        match (self, v) {
            (Value::I32(x), Lit::I32(y)) => Some(*x == y),
            (Value::Bool(x), Lit::Bool(y)) => Some(*x == y),
            (Value::I32(_), Lit::BeyondI32) => Some(false),
            _ => None,
        }
    }

    #[inline(always)]
    fn is_ctor(&self, ctor: u32, bare: bool) -> Option<bool> {
        match self {
            Value::Tag(t) => Some(*t == ctor && bare),
            Value::Node(n) => Some(matches!(n.kind, NodeKind::Data(t) if t == ctor)),
            Value::Stuck(_) => None,
            _ => Some(false),
        }
    }

    #[inline(always)]
    fn is_tuple(&self, n: u8) -> Option<bool> {
        match self {
            Value::Unit => Some(n == 0),
            Value::Node(node) => {
                Some(matches!(node.kind, NodeKind::Tuple) && node.fields.len() == n as usize)
            }
            Value::Stuck(_) => None,
            _ => Some(false),
        }
    }

    #[inline(always)]
    fn part(&self, i: u8) -> Option<Value> {
        match self {
            Value::Node(n) => n.fields.get(i as usize).map(Register::dup),
            _ => None,
        }
    }

    #[inline(always)]
    fn operand(&self, i: u8) -> Option<&Value> {
        match self {
            _ if i == WHOLE => Some(self),
            Value::Node(n) => n.fields.get(i as usize),
            _ => None,
        }
    }

    #[inline(always)]
    fn node(kind: NodeKind, parts: &mut [Value]) -> Option<Value> {
        let fields = match parts {
            [a, b] => Fields::pair(std::mem::take(a), std::mem::take(b)),
            _ => parts.iter_mut().map(std::mem::take).collect(),
        };
        Some(Node::value(kind, fields))
    }

    #[inline(always)]
    fn node_in(kind: NodeKind, parts: &mut [Value], token: Value) -> Option<Value> {
        if let Value::Node(mut rc) = token {
            // A list cell or a pair in the memory of one, most often: its two slots
            // written without the general loop.
            if let [a, b] = &mut *parts {
                if let Some(items) = Node::reuse_pair(&mut rc, kind) {
                    items[0].set(std::mem::take(a));
                    items[1].set(std::mem::take(b));
                    return Some(Value::Node(rc));
                }
            }
            if rc.fields.len() == parts.len() {
                if let Some(slots) = Node::reuse(&mut rc, kind) {
                    for (slot, part) in slots.iter_mut().zip(parts) {
                        slot.set(std::mem::take(part));
                    }
                    return Some(Value::Node(rc));
                }
            }
        }
        <Value as Register>::node(kind, parts)
    }

    /// A list cell or a pair in the memory of one, most often: its two slots written
    /// where they are, without an array of the parts to drop afterwards.
    #[inline(always)]
    fn node_in_pair(kind: NodeKind, a: Value, b: Value, token: Value) -> Option<Value> {
        if let Value::Node(mut rc) = token {
            if let Some(items) = Node::reuse_pair(&mut rc, kind) {
                items[0].set(a);
                items[1].set(b);
                return Some(Value::Node(rc));
            }
            return <Value as Register>::node_in(kind, &mut [a, b], Value::Node(rc));
        }
        Some(Node::value(kind, Fields::pair(a, b)))
    }

    #[inline(always)]
    fn link(
        chain: &mut Chain<Value>,
        kind: NodeKind,
        parts: &mut [Value],
        hole: u8,
        token: Value,
        lane: Lane,
    ) -> Option<()> {
        let hole = hole as usize;
        // A list cell in the memory of one, most often (`Cons x (merge xt ys)`): its
        // other slot filled and its hole emptied in place.
        let token = match token {
            Value::Node(mut rc) if parts.len() == 2 && hole < 2 => {
                match Node::reuse_pair(&mut rc, kind) {
                    Some(items) => {
                        items[1 - hole].set(std::mem::take(&mut parts[1 - hole]));
                        items[hole].set(Value::Unit);
                        let slot: *mut Value = &mut items[hole];
                        return chain.push_in(Value::Node(rc), slot, lane);
                    }
                    None => Value::Node(rc),
                }
            }
            token => token,
        };
        let kept = std::mem::take(parts.get_mut(hole)?);
        let built = <Value as Register>::node_in(kind, parts, token);
        parts[hole] = kept;
        let mut node = built?;
        let Value::Node(rc) = &mut node else {
            return None;
        };
        let slot: *mut Value = Rc::get_mut(rc)?.fields.get_mut(hole)?;
        chain.push_in(node, slot, lane)
    }

    #[inline(always)]
    fn close(chain: &mut Chain<Value>, v: Value) -> Option<Value> {
        if chain.right.is_null() {
            return Some(chain.close(v));
        }
        chain.close_pair(v)
    }

    #[inline(always)]
    fn relink(
        f: &mut [Value; MAX_REGS],
        chain: &mut Chain<Value>,
        kind: NodeKind,
        src: Reg,
        [part_reg, kept]: [Reg; 2],
        hole: u8,
        lane: Lane,
    ) -> Option<()> {
        if !chain.takes(lane) {
            return None;
        }
        let Value::Node(rc) = &mut f[src as usize] else {
            return None;
        };
        let Some(items) = Node::reuse_pair(rc, kind) else {
            return relink_copy(f, chain, kind, src, [part_reg, kept], hole, lane);
        };
        let hole = hole as usize & 1;
        let part = std::mem::take(&mut items[hole]);
        let slot: *mut Value = &mut items[hole];
        // The pair moves to the chain; `slot` stays in its memory, on the heap.
        let pair = std::mem::take(&mut f[src as usize]);
        if lane == Lane::Whole {
            chain.push(pair, slot);
        } else {
            let linked = chain.push_lane(pair, slot, lane);
            debug_assert!(
                linked.is_some(),
                "a chain that takes the lane links into it"
            );
        }
        f[part_reg as usize].set(part);
        f[kept as usize].set(Value::Unit);
        Some(())
    }

    #[inline(always)]
    fn hand_over(
        f: &mut [Value; MAX_REGS],
        src: Reg,
        to: [Reg; 2],
        [a, b]: [Value; 2],
        token: Value,
        keep: bool,
    ) {
        put(f, src, to[0], a);
        put(f, src, to[1], b);
        match token {
            token if keep => f[src as usize].set(token),
            token => {
                f[src as usize].set(Value::Unit);
                if let Value::Node(rc) = token {
                    free_emptied(rc);
                }
            }
        }
    }

    #[inline(always)]
    fn unpack(
        f: &mut [Value; MAX_REGS],
        src: Reg,
        to: [Reg; MAX_UNPACK],
        n: u8,
        keep: bool,
    ) -> Option<()> {
        let Value::Node(rc) = &mut f[src as usize] else {
            return None;
        };
        // A node nothing else holds is emptied where it is, and stays there if `keep`.
        if let Some(node) = Rc::get_mut(rc) {
            let fields: *mut Fields = &mut node.fields;
            // SAFETY: the node's memory is the heap's, held by register `src` alone; the
            // parts go to other registers (`put` releases one meant for `src` itself), and
            // `src` is left as it is until they are all out.
            let fields = unsafe { &mut *fields };
            match &mut fields[..] {
                // A list cell or a pair, most often: without a loop.
                [a, b] if n == 2 => {
                    let (pa, pb) = (std::mem::take(a), std::mem::take(b));
                    put(f, src, to[0], pa);
                    put(f, src, to[1], pb);
                }
                fields if fields.len() == n as usize => {
                    for (part, r) in fields.iter_mut().zip(to) {
                        put(f, src, r, std::mem::take(part));
                    }
                }
                _ => return None,
            }
            if !keep {
                if let Value::Node(rc) = std::mem::take(&mut f[src as usize]) {
                    free_emptied(rc);
                }
            }
            return Some(());
        }
        let Value::Node(rc) = std::mem::take(&mut f[src as usize]) else {
            return None;
        };
        if rc.fields.len() != n as usize {
            return None;
        }
        for (part, r) in rc.fields.iter().zip(to) {
            if r != src {
                f[r as usize].set(part.dup());
            }
        }
        Some(())
    }

    #[inline(always)]
    fn spare(v: Value) -> Value {
        match v {
            Value::Node(mut rc) => {
                if let Some(node) = Rc::get_mut(&mut rc) {
                    node.fields
                        .iter_mut()
                        .for_each(|p| std::mem::take(p).release());
                    return Value::Node(rc);
                }
                Value::Unit
            }
            other => {
                other.release();
                Value::Unit
            }
        }
    }

    fn tuple_field(&self, index: u32) -> Option<Value> {
        tuple_field(self, index).ok()
    }

    #[inline(always)]
    fn fields(
        f: &mut [Value; MAX_REGS],
        code: &[Code],
        src: Reg,
        names: &[Rc<str>],
        to: [Reg; MAX_UNPACK],
    ) -> Option<()> {
        let (record, shape) = record_of(&f[src as usize])?;
        let have = record_names(code, shape);
        let mut parts: [Value; MAX_UNPACK] = Default::default();
        for (k, name) in names.iter().enumerate() {
            let i = field_index_near(have, name, k)?;
            parts[k] = record.fields[i].dup();
        }
        for (part, r) in parts.into_iter().zip(to).take(names.len()) {
            f[r as usize].set(part);
        }
        Some(())
    }

    fn field(&self, code: &[Code], name: &Rc<str>) -> Option<Value> {
        match self {
            Value::Node(_) => field(code, self, name).ok(),
            _ => None,
        }
    }

    fn update(
        record: Value,
        code: &[Code],
        names: &[Rc<str>],
        values: &mut [Value],
    ) -> Option<Value> {
        // Only a record: the machine decides an indeterminate one.
        record_of(&record)?;
        update(code, record, names, values.iter_mut().map(std::mem::take)).ok()
    }

    #[inline(always)]
    fn closure(&self) -> Option<(u32, usize)> {
        match self {
            Value::Node(n) => match n.kind {
                NodeKind::Closure(lam) => Some((lam, n.fields.len())),
                _ => None,
            },
            _ => None,
        }
    }

    #[inline(always)]
    fn captured(&self, i: usize) -> Option<Value> {
        match self {
            Value::Node(n) => n.fields.get(i).and_then(<Value as Register>::of),
            _ => None,
        }
    }

    fn callee(&self) -> Option<(u32, &[Value], &[Value])> {
        lambda_call(self)
    }

    #[inline(always)]
    fn decided(&self) -> bool {
        !self.is_stuck()
    }

    #[cfg(test)]
    fn holds_reference(&self) -> bool {
        Value::holds_reference(self)
    }

    #[inline(always)]
    fn clear_regs(f: &mut [Value; MAX_REGS], regs: Regs) {
        for i in 0..regs.n {
            // (A register index wraps within the frame: no bounds to check.)
            empty(&mut f[regs.from.wrapping_add(i) as usize]);
        }
    }

    #[inline(always)]
    fn clear(regs: &mut [Value]) {
        regs.iter_mut().for_each(empty);
    }
}

/// A value a scalar kernel computes with: eight bytes, copied freely.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    I32(i32),
    Bool(bool),
}

impl Default for Scalar {
    fn default() -> Scalar {
        Scalar::Bool(false)
    }
}

impl Register for Scalar {
    const FUNCTIONS: bool = false;
    const LINKS: bool = false;

    #[inline(always)]
    fn of(v: &Value) -> Option<Scalar> {
        match v {
            Value::I32(x) => Some(Scalar::I32(*x)),
            Value::Bool(b) => Some(Scalar::Bool(*b)),
            _ => None,
        }
    }

    #[inline(always)]
    fn value(self) -> Value {
        match self {
            Scalar::I32(x) => Value::I32(x),
            Scalar::Bool(b) => Value::Bool(b),
        }
    }

    #[inline(always)]
    fn dup(&self) -> Scalar {
        *self
    }

    #[inline(always)]
    fn set(&mut self, v: Scalar) {
        *self = v;
    }

    #[inline(always)]
    fn take(&mut self) -> Scalar {
        *self
    }

    /// `natives::binary` on two scalars (the same table, `natives::i32_binary`); its
    /// errors, and booleans ordered, give up.
    #[inline(always)]
    fn binary(p: Prim, a: &Scalar, b: &Scalar) -> Result<Scalar, Stop> {
        match (*a, *b) {
            (Scalar::I32(x), Scalar::I32(y)) => {
                natives::i32_binary!(p, x, y, Scalar::I32, Scalar::Bool).or_give_up()
            }
            (Scalar::Bool(x), Scalar::Bool(y)) => match p {
                Prim::Eq => Ok(Scalar::Bool(x == y)),
                Prim::Ne => Ok(Scalar::Bool(x != y)),
                _ => Err(Stop::GiveUp),
            },
            _ => Err(Stop::GiveUp),
        }
    }

    #[inline(always)]
    fn binary_k(p: Prim, a: &Scalar, k: i32) -> Result<Scalar, Stop> {
        Scalar::binary(p, a, &Scalar::I32(k))
    }

    /// `-a`, as `natives::neg` computes it on an `i32`.
    #[inline(always)]
    fn unary(p: Prim, a: &Scalar, _: ListIds) -> Result<Scalar, Stop> {
        match (p, *a) {
            (Prim::Neg, Scalar::I32(x)) => x.checked_neg().map(Scalar::I32).or_give_up(),
            _ => Err(Stop::GiveUp),
        }
    }

    #[inline(always)]
    fn truth(&self) -> Option<bool> {
        match self {
            Scalar::Bool(b) => Some(*b),
            _ => None,
        }
    }

    #[inline(always)]
    fn is(&self, v: Lit) -> Option<bool> {
        match (*self, v) {
            (Scalar::I32(x), Lit::I32(y)) => Some(x == y),
            (Scalar::Bool(x), Lit::Bool(y)) => Some(x == y),
            (Scalar::I32(_), Lit::BeyondI32) => Some(false),
            _ => None,
        }
    }

    fn is_ctor(&self, _: u32, _: bool) -> Option<bool> {
        None
    }

    fn is_tuple(&self, _: u8) -> Option<bool> {
        None
    }

    fn part(&self, _: u8) -> Option<Scalar> {
        None
    }

    /// (A scalar kernel reads no parts: `on_scalars`.)
    fn operand(&self, i: u8) -> Option<&Scalar> {
        (i == WHOLE).then_some(self)
    }

    fn node(_: NodeKind, _: &mut [Scalar]) -> Option<Scalar> {
        None
    }

    fn node_in(_: NodeKind, _: &mut [Scalar], _: Scalar) -> Option<Scalar> {
        None
    }

    fn link(
        _: &mut Chain<Scalar>,
        _: NodeKind,
        _: &mut [Scalar],
        _: u8,
        _: Scalar,
        _: Lane,
    ) -> Option<()> {
        None
    }

    fn relink(
        _: &mut [Scalar; MAX_REGS],
        _: &mut Chain<Scalar>,
        _: NodeKind,
        _: Reg,
        _: [Reg; 2],
        _: u8,
        _: Lane,
    ) -> Option<()> {
        None
    }

    fn close(chain: &mut Chain<Scalar>, v: Scalar) -> Option<Scalar> {
        Some(chain.close(v))
    }

    fn unpack(
        _: &mut [Scalar; MAX_REGS],
        _: Reg,
        _: [Reg; MAX_UNPACK],
        _: u8,
        _: bool,
    ) -> Option<()> {
        None
    }

    fn spare(v: Scalar) -> Scalar {
        v
    }

    fn tuple_field(&self, _: u32) -> Option<Scalar> {
        None
    }

    fn fields(
        _: &mut [Scalar; MAX_REGS],
        _: &[Code],
        _: Reg,
        _: &[Rc<str>],
        _: [Reg; MAX_UNPACK],
    ) -> Option<()> {
        None
    }

    fn field(&self, _: &[Code], _: &Rc<str>) -> Option<Scalar> {
        None
    }

    fn update(_: Scalar, _: &[Code], _: &[Rc<str>], _: &mut [Scalar]) -> Option<Scalar> {
        None
    }

    fn closure(&self) -> Option<(u32, usize)> {
        None
    }

    fn captured(&self, _: usize) -> Option<Scalar> {
        None
    }

    fn callee(&self) -> Option<(u32, &[Value], &[Value])> {
        None
    }

    #[inline(always)]
    fn decided(&self) -> bool {
        true
    }

    /// Scalars hold nothing to release.
    #[inline(always)]
    fn clear(_: &mut [Scalar]) {}

    #[inline(always)]
    fn clear_regs(_: &mut [Scalar; MAX_REGS], _: Regs) {}

    #[cfg(test)]
    fn holds_reference(&self) -> bool {
        false
    }
}

/// Empties register `r`, releasing what it holds (most are empty already: moved out, or
/// released where their code is done).
#[inline(always)]
fn empty(r: &mut Value) {
    if !matches!(r, Value::Unit) {
        std::mem::take(r).release();
    }
}

/// A native's value, where it is decided: on an error or an indeterminate value (an
/// operand was one) the kernel gives up, so that a native's result is known a number, a
/// boolean or a string where its operands are (`kernel_clears`).
#[inline(always)]
fn decided(v: Result<Value, super::Fault>) -> Result<Value, Stop> {
    match v {
        Ok(v) if !v.is_stuck() => Ok(v),
        _ => Err(Stop::GiveUp),
    }
}

/// Part `v` of a node taken apart to register `r` of frame `f`, or released where `r` is
/// the node's own register `src` (`Ins::Unpack`).
#[inline(always)]
fn put(f: &mut [Value; MAX_REGS], src: Reg, r: Reg, v: Value) {
    if r == src {
        v.release();
    } else {
        f[r as usize].set(v);
    }
}

/// `Register::relink` of a pair held elsewhere too (the chain takes the lane): its parts
/// copied, and the `Link` the relink stands for done in fresh memory.
#[cold]
#[inline(never)]
fn relink_copy(
    f: &mut [Value; MAX_REGS],
    chain: &mut Chain<Value>,
    kind: NodeKind,
    src: Reg,
    [part_reg, kept]: [Reg; 2],
    hole: u8,
    lane: Lane,
) -> Option<()> {
    let Value::Node(pair) = std::mem::take(&mut f[src as usize]) else {
        return None;
    };
    let mut parts = match &pair.fields[..] {
        [a, b] => [a.dup(), b.dup()],
        _ => return None,
    };
    let hole = hole & 1;
    let part = std::mem::take(&mut parts[usize::from(hole)]);
    <Value as Register>::link(chain, kind, &mut parts, hole, Value::Unit, lane)?;
    drop(pair);
    f[part_reg as usize].set(part);
    f[kept as usize].set(Value::Unit);
    Some(())
}

/// The nodes a frame built around the result it has yet to compute (`Ins::Link`), each
/// in the hole of the one before: the first, which the frame returns once its result
/// fills the last one's hole (`hole`, null where there are none). Built around the parts
/// of a pair (`Lane::Left` and `Right`), it has two lanes: its first node is a pair whose
/// parts begin them, and the last holes of each (`hole` and `right`) take the parts of
/// the frame's result.
pub(super) struct Chain<R> {
    head: R,
    hole: *mut R,
    /// The `Right` lane's last hole; null for a chain of one lane.
    right: *mut R,
    len: usize,
}

impl<R: Default> Default for Chain<R> {
    fn default() -> Chain<R> {
        Chain {
            head: R::default(),
            hole: std::ptr::null_mut(),
            right: std::ptr::null_mut(),
            len: 0,
        }
    }
}

impl<R: Default> Chain<R> {
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.hole.is_null()
    }

    /// How many levels of recursion it holds (a node each, or a node in each lane).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether a node may be linked into `lane`: any, into an empty chain; otherwise one
    /// of the kind of lanes it has.
    #[inline(always)]
    fn takes(&self, lane: Lane) -> bool {
        match lane {
            Lane::Whole => self.right.is_null(),
            Lane::Left | Lane::Right => self.hole.is_null() || !self.right.is_null(),
        }
    }

    /// Links `node` (a node no one else holds, kept in the chain from now on) into the
    /// hole of the last node, or as the first; `hole` points to the part of `node` its
    /// result goes to, which holds an empty value.
    #[inline(always)]
    fn push(&mut self, node: R, hole: *mut R) {
        if self.hole.is_null() {
            self.head = node;
        } else {
            // SAFETY: `self.hole` points into the last node linked, which the chain holds
            // alone (no register or other node refers to it) and keeps alive; the empty
            // value there needs no drop.
            unsafe { self.hole.write(node) };
        }
        self.hole = hole;
        self.len += 1;
    }

    /// The first node, once `v` fills the last one's hole (the chain is not empty, of one
    /// lane); the chain is empty again.
    #[inline(always)]
    fn close(&mut self, v: R) -> R {
        debug_assert!(!self.hole.is_null());
        // SAFETY: as in `push`.
        unsafe { self.hole.write(v) };
        self.hole = std::ptr::null_mut();
        self.len = 0;
        std::mem::take(&mut self.head)
    }
}

impl Chain<Value> {
    /// `push` into `lane`: an empty chain linked into a lane of a pair begins as a new
    /// pair of two empty parts, the first hole of each lane. `None`, with nothing linked,
    /// where the chain does not take the lane (`takes`).
    #[inline(always)]
    fn push_in(&mut self, node: Value, slot: *mut Value, lane: Lane) -> Option<()> {
        if lane == Lane::Whole && self.right.is_null() {
            self.push(node, slot);
            return Some(());
        }
        self.push_lane(node, slot, lane)
    }

    #[inline(always)]
    fn push_lane(&mut self, node: Value, slot: *mut Value, lane: Lane) -> Option<()> {
        if !self.takes(lane) || lane == Lane::Whole {
            return None;
        }
        if self.hole.is_null() {
            let mut pair = Rc::new(Node {
                kind: NodeKind::Tuple,
                fields: Fields::pair(Value::Unit, Value::Unit),
            });
            let [left, right] = Node::reuse_pair(&mut pair, NodeKind::Tuple)?;
            (self.hole, self.right) = (left, right);
            self.head = Value::Node(pair);
        }
        let at = if lane == Lane::Left {
            &mut self.hole
        } else {
            &mut self.right
        };
        // SAFETY: as in `push`: the lane's last hole is in the last node linked into it
        // (or the first pair's part), which the chain holds alone and keeps alive.
        unsafe { at.write(node) };
        *at = slot;
        self.len += usize::from(lane == Lane::Left);
        Some(())
    }

    /// `close` of a chain of two lanes: pair `v`'s parts fill the last hole of each.
    /// `None` where `v` is no pair.
    #[inline(never)]
    fn close_pair(&mut self, v: Value) -> Option<Value> {
        let Value::Node(pair) = v else {
            return None;
        };
        if !matches!(pair.kind, NodeKind::Tuple) {
            return None;
        }
        let (a, b) = into_pair_parts(pair)?;
        // SAFETY: as in `push_lane`.
        unsafe {
            self.hole.write(a);
            self.right.write(b);
        }
        self.hole = std::ptr::null_mut();
        self.right = std::ptr::null_mut();
        self.len = 0;
        Some(std::mem::take(&mut self.head))
    }
}
