//! Snapshots of parse trees (as S-expressions) and syntax diagnostics for every declaration
//! and expression form, and for broken inputs that show how recovery keeps damage local.

use std::fmt::Write;

use rex_compiler::syntax::parser::parse_text;
use rex_compiler::syntax::print::print_item;

/// The source, each item with its absolute span, then each diagnostic with its code, span,
/// the text it covers and its message.
fn render(src: &str) -> String {
    let parsed = parse_text(src);
    let mut out = String::new();
    let _ = writeln!(out, "{src}");
    let _ = writeln!(out, "---- items");
    for item in &parsed.items {
        let span = item.abs(item.span);
        let _ = writeln!(out, "{:?} {}", span, print_item(item));
    }
    if !parsed.diagnostics.is_empty() {
        let _ = writeln!(out, "---- diagnostics");
    }
    for d in &parsed.diagnostics {
        let covered = src.get(d.span.range()).unwrap_or("");
        let _ = writeln!(
            out,
            "{} {:?} {:?}: {}",
            d.code.as_str(),
            d.span,
            covered,
            d.message
        );
    }
    out
}

macro_rules! snapshot {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(render($src));
        }
    };
}

// ------------------------------------------------------------------ declarations

snapshot!(
    fn_with_colon_signature,
    r"fn add : i32 -> i32 -> i32 = \x y -> x + y"
);

snapshot!(
    fn_with_parenthesised_params,
    r"fn add (x: i32) -> (y: i32) -> i32 = x + y"
);

snapshot!(
    fn_with_named_params,
    r"fn id x: D.Boxed -> D.Boxed = x
fn pair x: i32 -> y: List a -> (i32, List a) = (x, y)"
);

snapshot!(
    fn_with_where_constraints,
    r"fn demo : List i32 -> i32 where Foldable List, AdditiveMonoid i32 = \xs -> foldl (+) 0 xs
fn get2 : t -> a where Indexable (t, a) = \xs -> get 2 xs"
);

snapshot!(
    pub_fn_over_several_lines,
    r"pub fn even : i32 -> bool = \n ->
  if n == 0 then true else odd (n - 1)

pub fn odd : i32 -> bool = \n ->
  if n == 0
    then false
    else even (n - 1)"
);

snapshot!(
    type_with_variants_and_parameters,
    r"type Maybe a = Just a | Nothing
type Shape =
  | Circle f32
  | Rect f32 f32
type Wrap f a = Wrap (f a) (a -> a) (List (a, i32))"
);

snapshot!(
    type_with_record_constructors,
    r"type User = User { name: string, age: i32 }
type Sum = A { x: i32 } | B { x: i32 } | C
pub type Model = Model { items: List (string, i32), step: i32 -> i32 }"
);

snapshot!(
    class_with_superclass_and_operators,
    r"class Size a
  size : a -> i32

class Ord a <= Eq a
  < : a -> a -> bool
  (<=) : a -> a -> bool

class Monad m <= Applicative m, Functor m where
  bind : (a -> m b) -> m a -> m b

pub class Indexable t a
  get : i32 -> t -> a"
);

snapshot!(
    instance_with_context_and_where,
    r#"instance Size (List t)
  size = \xs ->
    match xs
      when Empty -> 0
      when Cons _ rest -> 1 + size rest

instance Show (List a) <= Show a
  show = \xs -> "[" + show xs + "]"

instance D.Pick i32 where
  pick = 7

instance Eq Color
  == = \a b -> true
  (!=) = \a b -> false"#
);

snapshot!(
    imports_in_every_form,
    r"import foo.bar as Bar
import foo.bar (*)
import foo.bar (x, y as z, Boxed, (<+>))
import super.core.calc (Boxed)
import super.super.util
pub import dep as D"
);

// ------------------------------------------------------------------ expressions

snapshot!(
    lambdas,
    r"( \x y -> x + y
, \(x: i32) (y: List a) -> x
, \_ -> 0
, \(a, b) -> a
, λx → x
, \x -> \y -> x y
)"
);

snapshot!(
    application_and_operator_precedence,
    r"( f x y + g z * 2 - 1
, a == b && c || d
, a - b - c
, 1 :: 2 :: []
, x :: xs ++ ys
, f -1
, f (-1)
, -x + 1
, 2 * -3
, a <= b
, x |> f
)"
);

snapshot!(
    operator_sections_and_negative_literals,
    r"( (+), ((*) 2), map ((+) 1) xs, (-), (::), (==)
, -3, -2.5, - 3, -(x), (-3 is i16)
)"
);

snapshot!(
    let_bindings,
    r"let
  x = 1 + 2,
  y: i32 = 3,
  (a, b) = (x, y),
  f: u8 -> u8 = \v -> v,
  Pair p q = pair
in
  x * y"
);

snapshot!(
    let_rec_and_if,
    r"let rec
  even = \n -> if n == 0 then true else odd (n - 1),
  odd = \n -> if n == 0 then false else even (n - 1)
in
  (even 10, odd 11)"
);

snapshot!(
    match_with_every_pattern_form,
    r#"match v
  when _ -> 0
  when x -> x
  when 1 -> 1
  when -1 -> 2
  when 2.5 -> 3
  when "s" -> 4
  when true -> 5
  when Ok x -> x
  when Sample.Right x -> x
  when Cons h t -> h
  when [] -> 0
  when [x] -> x
  when [x, y] -> x
  when h::t -> h
  when a::b::rest -> a
  when {foo, bar} -> foo
  when Bar {x, y} -> x
  when Bar {x: Some a, y = b} -> a
  when (a, b) -> a
  when () -> 0
  when Pair (Just a) _ -> a"#
);

snapshot!(
    nested_match_in_last_arm,
    r#"match a
  when Err e -> "err"
  when Ok x ->
    match x
      when 0 -> "zero"
      when _ -> "other""#
);

snapshot!(
    nested_match_takes_following_arms,
    r#"( match a
    when Ok x ->
      match x
        when 0 -> "zero"
    when Err e -> "err"
, match a
    when Ok x ->
      (match x
        when 0 -> "zero")
    when Err e -> "err"
, match (f x)
    when _ -> \y -> match y when _ -> 1
)"#
);

snapshot!(
    tuples_lists_dicts_and_updates,
    r#"( (1, "hi", true)
, ()
, [1, 2, 3]
, []
, { a = 1, b = [x] }
, {}
, { s with { x = x + 1, y = 0 } }
, (x)
)"#
);

snapshot!(
    projection_and_qualified_names,
    r"( x.field
, t.1
, t.0.name
, Bar.value
, D.Boxed 1
, (f x).y
, { base with { n = base.n } }.n
)"
);

snapshot!(
    ascription_holes_and_literals,
    r#"( (4 is u8)
, x is List i32
, ?
, ?name
, f ? ?x
, "a\n\"b"
, 1.5e3
, false
)"#
);

// ------------------------------------------------------------------ recovery

snapshot!(
    missing_in,
    r"let x = 1
  x + 1"
);

snapshot!(
    fat_arrow_in_an_arm,
    r"match x
  when Ok y => y
  when Err e -> 0"
);

snapshot!(
    unclosed_paren,
    r"fn f : i32 -> i32 = \x -> (x + 1

fn g : i32 -> i32 = \x -> x

g 1"
);

snapshot!(
    broken_fn_before_a_good_fn,
    r"fn f : i32 -> = \x -> x

fn g : i32 -> i32 = \x -> x * 2

g 1"
);

snapshot!(
    stray_closing_paren,
    r"fn f : i32 -> i32 = \x -> x + 1)

f 2"
);

snapshot!(
    missing_list_bracket,
    r"let xs = [1, 2, 3 in
map inc xs"
);

snapshot!(
    bad_element_inside_brackets,
    r"( [1, 2 +, 3]
, { a = 1, b = }
, f (x y = 2) z
)"
);

snapshot!(
    deleted_declaration_keyword,
    r"fn a : i32 -> i32 = \x -> x
 b : i32 -> i32 = \x -> x

a 1"
);

snapshot!(
    broken_instance_member,
    r"instance Show Foo
  show = \x ->
  size = \x -> 1 +
  other = 1

show Foo"
);

snapshot!(
    lexical_faults,
    r#"let s = "abc in
let t = x ` y in
{- never closed"#
);

snapshot!(
    second_result_expression,
    r"1 + 1
fn f : i32 -> i32 = \x -> x
2 + 2"
);

snapshot!(
    continuation_lines_in_column_one,
    r"1 + 1
2 + 2"
);

snapshot!(
    broken_signatures,
    r"fn f : i32 -> = \x -> x

fn g = 1

type T = | A
type U a = A a | b

g 1"
);

snapshot!(
    declaration_keyword_after_stray_text,
    r#"type Foo = Foo
] instance Show Foo
  show = \x -> "foo"
(
show Foo"#
);
