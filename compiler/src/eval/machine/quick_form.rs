//! Quick forms: the body of a lambda that is one native on its parameters, captured
//! values and constants, or one native over another (`\x -> (x * 7) % 1000`,
//! `\x -> x % 2 == 0`, `\acc x -> acc + x`), read once into a form that `apply_quick`
//! computes straight from the arguments, without setting up a frame. It computes what
//! `Machine::quick_op` computes on the frame, natives in the same order.

use std::rc::Rc;

use crate::eval::ir::{Code, CodeId, Program};
use crate::eval::natives::{self, ListIds, Prim};
use crate::eval::value::Value;
use crate::eval::Fault;

/// What `apply_quick` knows of a lambda's body.
pub(super) enum Body {
    /// Not looked at yet.
    Unread,
    /// A quick form, for a lambda of `arity` parameters.
    Form { arity: u32, form: Rc<Form> },
    /// Anything else: `apply_quick_closure` tries it on a frame.
    Other,
    /// A body `quick_op` found to need the machine.
    Slow,
}

/// Where an operand of a form is.
pub(super) enum Operand {
    Arg(u8),
    Capture(u8),
    Const(Value),
}

pub(super) enum Form {
    Un(Prim, Operand),
    Bin(Prim, Operand, Operand),
    /// `p (q a b) c`.
    Left(Prim, Prim, Operand, Operand, Operand),
    /// `p a (q b c)`.
    Right(Prim, Operand, Prim, Operand, Operand),
}

/// A closure's form with its captured values, as `Machine::form_of` finds it once for a
/// loop over a list.
pub(super) type Found<'f> = Option<(Rc<Form>, &'f [Value])>;

/// The call of `found`'s closure on `args`, computed from its form: `None` where it has
/// none or the form does not compute the call (`apply_fast` then makes it).
#[inline(always)]
pub(super) fn apply_found(
    found: &Found<'_>,
    args: &[Value],
    list: ListIds,
) -> Option<Result<Value, Fault>> {
    let (form, caps) = found.as_ref()?;
    form.apply(args, caps, list)
}

/// `Body` of lambda `lam`: its form, or `Other`.
pub(super) fn read(prog: &Program, lam: u32) -> Body {
    let Some(l) = prog.lambdas.get(lam as usize) else {
        return Body::Other;
    };
    let arity = l.arity;
    let operand = |id: CodeId| -> Option<Operand> {
        match prog.code.get(id as usize)? {
            Code::Const(v) => Some(Operand::Const(v.clone())),
            Code::Local(s) | Code::Move(s) if *s < arity => {
                Some(Operand::Arg(u8::try_from(*s).ok()?))
            }
            Code::Capture(i) => Some(Operand::Capture(u8::try_from(*i).ok()?)),
            _ => None,
        }
    };
    let bin = |id: CodeId| -> Option<(Prim, Operand, Operand)> {
        match prog.code.get(id as usize)? {
            Code::Prim2(p, a, b) => Some((*p, operand(*a)?, operand(*b)?)),
            _ => None,
        }
    };
    let form = match prog.code.get(l.body as usize) {
        Some(Code::Prim1(p, a)) => operand(*a).map(|a| Form::Un(*p, a)),
        Some(Code::Prim2(p, a, b)) => match (operand(*a), operand(*b)) {
            (Some(a), Some(b)) => Some(Form::Bin(*p, a, b)),
            (None, Some(c)) => bin(*a).map(|(q, a, b)| Form::Left(*p, q, a, b, c)),
            (Some(a), None) => bin(*b).map(|(q, b, c)| Form::Right(*p, a, q, b, c)),
            (None, None) => None,
        },
        _ => None,
    };
    match form {
        Some(form) if arity <= u32::from(u8::MAX) => Body::Form {
            arity,
            form: Rc::new(form),
        },
        _ => Body::Other,
    }
}

impl Form {
    /// The body's value on `args` and the closure's captured values `caps`; `None` where
    /// an operand is missing (a broken closure: the frame path reports it).
    #[inline(always)]
    pub(super) fn apply(
        &self,
        args: &[Value],
        caps: &[Value],
        list: ListIds,
    ) -> Option<Result<Value, Fault>> {
        Some(match self {
            Form::Un(p, a) => natives::unary(*p, at(a, args, caps)?, list),
            Form::Bin(p, a, b) => natives::binary(*p, at(a, args, caps)?, at(b, args, caps)?),
            Form::Left(p, q, a, b, c) => {
                let (a, b, c) = (at(a, args, caps)?, at(b, args, caps)?, at(c, args, caps)?);
                let x = match natives::binary(*q, a, b) {
                    Ok(x) => x,
                    Err(e) => return Some(Err(e)),
                };
                let v = natives::binary(*p, &x, c);
                x.release();
                v
            }
            Form::Right(p, a, q, b, c) => {
                let (a, b, c) = (at(a, args, caps)?, at(b, args, caps)?, at(c, args, caps)?);
                let y = match natives::binary(*q, b, c) {
                    Ok(y) => y,
                    Err(e) => return Some(Err(e)),
                };
                let v = natives::binary(*p, a, &y);
                y.release();
                v
            }
        })
    }
}

/// The value operand `o` reads.
#[inline(always)]
fn at<'a>(o: &'a Operand, args: &'a [Value], caps: &'a [Value]) -> Option<&'a Value> {
    match o {
        Operand::Arg(i) => args.get(*i as usize),
        Operand::Capture(i) => caps.get(*i as usize),
        Operand::Const(v) => Some(v),
    }
}
