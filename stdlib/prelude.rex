{- The Rex prelude.

   Loaded before every program. Conventions this file follows (the type checker and the
   evaluator rely on them):

   * Every declaration is `pub`; a declaration starts in column 1 and its continuation
     lines are indented. Class and instance members sit one per line at one indentation.
   * `bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 string uuid datetime`, `Array a`,
     `Dict a`, `Promise a`, tuples, records and functions are built in, not declared here.
   * A function named `prim_...` whose body is the hole `?` is a native: the evaluator
     binds it. Natives are internal and never offered as completions or candidates. The
     numeric, comparison and show natives dispatch on the runtime value, so one native
     serves every primitive type its class instances use it for.
   * `Result` is declared error-first (`Result e a`) so that `(Result e)` is the functor
     over the success value. A full application is written success-first, as users write
     it (`Result a e`); the checker swaps the two arguments of a full application.
   * The operators `&&` and `||` are the natives `prim_and` and `prim_or`.
   * List operations loop with accumulators (tail calls) so that long lists do not grow
     the stack; a result built backwards is reversed once at the end.
-}

{- ---------------------------------------------------------------- natives -}

{- Arithmetic on the primitive numeric types (`prim_add` also concatenates strings). -}
pub fn prim_add : a -> a -> a = ?
pub fn prim_sub : a -> a -> a = ?
pub fn prim_mul : a -> a -> a = ?
pub fn prim_div : a -> a -> a = ?
{- Remainder, truncating toward zero (`-1 % 3` is `-1`). -}
pub fn prim_mod : a -> a -> a = ?
pub fn prim_neg : a -> a = ?

{- Equality and ordering on primitive values; `prim_cmp` answers -1, 0 or 1. -}
pub fn prim_eq : a -> a -> bool = ?
pub fn prim_ne : a -> a -> bool = ?
pub fn prim_cmp : a -> a -> i32 = ?
pub fn prim_lt : a -> a -> bool = ?
pub fn prim_le : a -> a -> bool = ?
pub fn prim_gt : a -> a -> bool = ?
pub fn prim_ge : a -> a -> bool = ?

{- Renders a primitive value. -}
pub fn prim_show : a -> string = ?

{- The operators `&&` and `||` (the right operand is evaluated only when needed). -}
pub fn prim_and : bool -> bool -> bool = ?
pub fn prim_or : bool -> bool -> bool = ?

{- Stops evaluation with a runtime error carrying the message. -}
pub fn prim_error : string -> a = ?

{- Arrays. `prim_array_get` raises a runtime error when the index is out of range. -}
pub fn prim_array_from_list : List a -> Array a = ?
pub fn prim_array_to_list : Array a -> List a = ?
pub fn prim_array_get : i32 -> Array a -> a = ?
pub fn prim_array_len : Array a -> i32 = ?

{- `foldl` on lists, run by the evaluator as a loop: `f` is called on the accumulator and
   each element, first to last, exactly as a recursive `match` on `Empty` and `Cons` would. -}
pub fn prim_list_foldl : (b -> a -> b) -> b -> List a -> b = ?

{- A list reversed, as `foldl (\out x -> Cons x out) Empty` reverses it. -}
pub fn prim_list_reverse : List a -> List a = ?

{- `map` and `filter` on lists, run by the evaluator as loops that build the result front
   to back: `f` (`p`) is called on each element, first to last, and the result is the one
   the fold-and-reverse definitions (`prim_list_reverse (foldl (\out x -> Cons (f x) out)
   Empty xs)`, and with `if p x then Cons x out else out`) give, indeterminate parts
   included. -}
pub fn prim_list_map : (a -> b) -> List a -> List b = ?
pub fn prim_list_filter : (a -> bool) -> List a -> List a = ?

{- ---------------------------------------------------------------- data types -}

pub type List a = Empty | Cons a (List a)

pub type Option a = Some a | None

{- Error first: see the header. Users write `Result Success Error`. -}
pub type Result e a = Err e | Ok a

{- ---------------------------------------------------------------- classes -}

{- Numeric hierarchy. -}
pub class AdditiveMonoid a
  zero : a
  + : a -> a -> a

pub class MultiplicativeMonoid a
  one : a
  * : a -> a -> a

pub class Semiring a <= AdditiveMonoid a, MultiplicativeMonoid a

pub class AdditiveGroup a <= Semiring a
  negate : a -> a
  - : a -> a -> a

pub class Ring a <= AdditiveGroup a, MultiplicativeMonoid a

pub class Field a <= Ring a
  / : a -> a -> a

pub class Integral a
  % : a -> a -> a

{- Equality and ordering. -}
pub class Eq a
  == : a -> a -> bool
  != : a -> a -> bool

pub class Ord a <= Eq a
  cmp : a -> a -> i32
  < : a -> a -> bool
  <= : a -> a -> bool
  > : a -> a -> bool
  >= : a -> a -> bool

{- Rendering and default values. -}
pub class Show a
  show : a -> string

pub class Default a
  default : a

{- Containers. -}
pub class Functor f
  map : (a -> b) -> f a -> f b

pub class Applicative f <= Functor f
  pure : a -> f a
  ap : f (a -> b) -> f a -> f b

pub class Monad m <= Applicative m
  bind : (a -> m b) -> m a -> m b

pub class Foldable t
  foldl : (b -> a -> b) -> b -> t a -> b
  foldr : (a -> b -> b) -> b -> t a -> b
  fold : (b -> a -> b) -> b -> t a -> b

pub class Filterable f <= Functor f
  filter : (a -> bool) -> f a -> f a
  filter_map : (a -> Option b) -> f a -> f b

pub class Sequence f <= Functor f, Foldable f
  take : i32 -> f a -> f a
  skip : i32 -> f a -> f a
  zip : f a -> f b -> f (a, b)
  unzip : f (a, b) -> (f a, f b)

{- `or_else k x` is `x` when `x` holds a value, and `k x` when it is empty (`[]`, `None`,
   an empty array or an `Err`). -}
pub class Alternative f <= Applicative f
  or_else : (f a -> f a) -> f a -> f a

{- Two parameters: the container and its element type. -}
pub class Indexable t a
  get : i32 -> t -> a

{- `unwrap` for both `Option` and `Result`; `None` and `Err` raise a runtime error. -}
pub class Unwrap f
  unwrap : f a -> a

{- ---------------------------------------------------------------- numeric instances -}

{- Additive monoids: strings and every numeric type. -}
pub instance AdditiveMonoid string
  zero = ""
  + = prim_add

pub instance AdditiveMonoid u8
  zero = 0
  + = prim_add

pub instance AdditiveMonoid u16
  zero = 0
  + = prim_add

pub instance AdditiveMonoid u32
  zero = 0
  + = prim_add

pub instance AdditiveMonoid u64
  zero = 0
  + = prim_add

pub instance AdditiveMonoid i8
  zero = 0
  + = prim_add

pub instance AdditiveMonoid i16
  zero = 0
  + = prim_add

pub instance AdditiveMonoid i32
  zero = 0
  + = prim_add

pub instance AdditiveMonoid i64
  zero = 0
  + = prim_add

pub instance AdditiveMonoid f32
  zero = 0.0
  + = prim_add

pub instance AdditiveMonoid f64
  zero = 0.0
  + = prim_add

{- Multiplicative monoids: every numeric type. -}
pub instance MultiplicativeMonoid u8
  one = 1
  * = prim_mul

pub instance MultiplicativeMonoid u16
  one = 1
  * = prim_mul

pub instance MultiplicativeMonoid u32
  one = 1
  * = prim_mul

pub instance MultiplicativeMonoid u64
  one = 1
  * = prim_mul

pub instance MultiplicativeMonoid i8
  one = 1
  * = prim_mul

pub instance MultiplicativeMonoid i16
  one = 1
  * = prim_mul

pub instance MultiplicativeMonoid i32
  one = 1
  * = prim_mul

pub instance MultiplicativeMonoid i64
  one = 1
  * = prim_mul

pub instance MultiplicativeMonoid f32
  one = 1.0
  * = prim_mul

pub instance MultiplicativeMonoid f64
  one = 1.0
  * = prim_mul

{- Semirings: every numeric type. -}
pub instance Semiring u8
pub instance Semiring u16
pub instance Semiring u32
pub instance Semiring u64
pub instance Semiring i8
pub instance Semiring i16
pub instance Semiring i32
pub instance Semiring i64
pub instance Semiring f32
pub instance Semiring f64

{- Additive groups and rings: the signed integers and the floats. -}
pub instance AdditiveGroup i8
  negate = prim_neg
  - = prim_sub

pub instance AdditiveGroup i16
  negate = prim_neg
  - = prim_sub

pub instance AdditiveGroup i32
  negate = prim_neg
  - = prim_sub

pub instance AdditiveGroup i64
  negate = prim_neg
  - = prim_sub

pub instance AdditiveGroup f32
  negate = prim_neg
  - = prim_sub

pub instance AdditiveGroup f64
  negate = prim_neg
  - = prim_sub

pub instance Ring i8
pub instance Ring i16
pub instance Ring i32
pub instance Ring i64
pub instance Ring f32
pub instance Ring f64

{- Fields: the floats. -}
pub instance Field f32
  / = prim_div

pub instance Field f64
  / = prim_div

{- Remainder: the integer types. -}
pub instance Integral u8
  % = prim_mod

pub instance Integral u16
  % = prim_mod

pub instance Integral u32
  % = prim_mod

pub instance Integral u64
  % = prim_mod

pub instance Integral i8
  % = prim_mod

pub instance Integral i16
  % = prim_mod

pub instance Integral i32
  % = prim_mod

pub instance Integral i64
  % = prim_mod

{- ---------------------------------------------------------------- equality and ordering -}

pub instance Eq u8
  == = prim_eq
  != = prim_ne

pub instance Eq u16
  == = prim_eq
  != = prim_ne

pub instance Eq u32
  == = prim_eq
  != = prim_ne

pub instance Eq u64
  == = prim_eq
  != = prim_ne

pub instance Eq i8
  == = prim_eq
  != = prim_ne

pub instance Eq i16
  == = prim_eq
  != = prim_ne

pub instance Eq i32
  == = prim_eq
  != = prim_ne

pub instance Eq i64
  == = prim_eq
  != = prim_ne

pub instance Eq f32
  == = prim_eq
  != = prim_ne

pub instance Eq f64
  == = prim_eq
  != = prim_ne

pub instance Eq bool
  == = prim_eq
  != = prim_ne

pub instance Eq string
  == = prim_eq
  != = prim_ne

pub instance Eq uuid
  == = prim_eq
  != = prim_ne

pub instance Eq datetime
  == = prim_eq
  != = prim_ne

pub instance Eq (List a) <= Eq a
  == = \xs ys ->
    let rec
      same = \l r ->
        match (l, r)
          when (Cons x lrest, Cons y rrest) -> if x == y then same lrest rrest else false
          when (Empty, Empty) -> true
          when _ -> false
    in
      same xs ys
  != = \xs ys -> if xs == ys then false else true

pub instance Eq (Option a) <= Eq a
  == = \l r ->
    match (l, r)
      when (Some x, Some y) -> x == y
      when (None, None) -> true
      when _ -> false
  != = \l r -> if l == r then false else true

pub instance Eq (Array a) <= Eq a
  == = \xs ys ->
    let
      n = prim_array_len xs
    in
      if n != prim_array_len ys
        then false
        else
          let rec
            same = \i ->
              if i >= n
                then true
                else if prim_array_get i xs == prim_array_get i ys then same (i + 1) else false
          in
            same 0
  != = \xs ys -> if xs == ys then false else true

pub instance Eq (Result a e) <= Eq a, Eq e
  == = \l r ->
    match (l, r)
      when (Ok x, Ok y) -> x == y
      when (Err x, Err y) -> x == y
      when _ -> false
  != = \l r -> if l == r then false else true

pub instance Ord u8
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord u16
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord u32
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord u64
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord i8
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord i16
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord i32
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord i64
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord f32
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord f64
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

pub instance Ord string
  cmp = prim_cmp
  < = prim_lt
  <= = prim_le
  > = prim_gt
  >= = prim_ge

{- ---------------------------------------------------------------- show -}

pub instance Show bool
  show = prim_show

pub instance Show u8
  show = prim_show

pub instance Show u16
  show = prim_show

pub instance Show u32
  show = prim_show

pub instance Show u64
  show = prim_show

pub instance Show i8
  show = prim_show

pub instance Show i16
  show = prim_show

pub instance Show i32
  show = prim_show

pub instance Show i64
  show = prim_show

pub instance Show f32
  show = prim_show

pub instance Show f64
  show = prim_show

pub instance Show string
  show = prim_show

pub instance Show uuid
  show = prim_show

pub instance Show datetime
  show = prim_show

{- `[1, 2, 3]` -}
pub instance Show (List a) <= Show a
  show = \xs ->
    match xs
      when Empty -> "[]"
      when Cons x rest -> "[" + foldl (\out y -> out + ", " + show y) (show x) rest + "]"

{- `<array 1, 2, 3>` -}
pub instance Show (Array a) <= Show a
  show = \xs ->
    match (to_list xs)
      when Empty -> "<array >"
      when Cons x rest -> "<array " + foldl (\out y -> out + ", " + show y) (show x) rest + ">"

{- `Some(1)`, `None` -}
pub instance Show (Option a) <= Show a
  show = \o ->
    match o
      when Some x -> "Some(" + show x + ")"
      when None -> "None"

{- `Ok(1)`, `Err("boom")` -}
pub instance Show (Result a e) <= Show a, Show e
  show = \r ->
    match r
      when Ok x -> "Ok(" + show x + ")"
      when Err err -> "Err(" + show err + ")"

{- ---------------------------------------------------------------- defaults -}

pub instance Default bool
  default = false

pub instance Default u8
  default = 0

pub instance Default u16
  default = 0

pub instance Default u32
  default = 0

pub instance Default u64
  default = 0

pub instance Default i8
  default = 0

pub instance Default i16
  default = 0

pub instance Default i32
  default = 0

pub instance Default i64
  default = 0

pub instance Default f32
  default = 0.0

pub instance Default f64
  default = 0.0

pub instance Default string
  default = ""

pub instance Default (List a)
  default = Empty

pub instance Default (Array a)
  default = prim_array_from_list Empty

pub instance Default (Option a)
  default = None

pub instance Default (Result a e) <= Default a
  default = Ok default

{- ---------------------------------------------------------------- List instances -}

pub instance Functor List
  map = \f xs -> prim_list_map f xs

pub instance Applicative List
  pure = \x -> Cons x Empty
  ap = \fs xs -> bind (\f -> map f xs) fs

{- Each result list is pushed onto one reversed accumulator, reversed once at the end. -}
pub instance Monad List
  bind = \f xs ->
    let
      pushed = foldl (\out x -> foldl (\acc y -> Cons y acc) out (f x)) Empty xs
    in
      prim_list_reverse pushed

pub instance Foldable List
  foldl = \f z xs -> prim_list_foldl f z xs
  foldr = \f z xs -> foldl (\acc x -> f x acc) z (prim_list_reverse xs)
  fold = \f z xs -> foldl f z xs

pub instance Filterable List
  filter = \p xs -> prim_list_filter p xs
  filter_map = \f xs ->
    let
      step = \out x ->
        match (f x)
          when Some y -> Cons y out
          when None -> out,
      kept = foldl step Empty xs
    in
      prim_list_reverse kept

pub instance Sequence List
  take = \n xs ->
    let rec
      go = \k ys out ->
        if k <= 0
          then out
          else
            match ys
              when Empty -> out
              when Cons y rest -> go (k - 1) rest (Cons y out)
    in
      prim_list_reverse (go n xs Empty)
  skip = \n xs ->
    let rec
      go = \k ys ->
        if k <= 0
          then ys
          else
            match ys
              when Empty -> Empty
              when Cons _ rest -> go (k - 1) rest
    in
      go n xs
  zip = \xs ys ->
    let rec
      go = \l r out ->
        match (l, r)
          when (Cons x lrest, Cons y rrest) -> go lrest rrest (Cons (x, y) out)
          when _ -> out
    in
      prim_list_reverse (go xs ys Empty)
  unzip = \ps ->
    let
      step = \acc p ->
        match (acc, p)
          when ((ls, rs), (x, y)) -> (Cons x ls, Cons y rs),
      pushed = foldl step (Empty, Empty) ps
    in
      match pushed
        when (ls, rs) ->
          ( prim_list_reverse ls
          , prim_list_reverse rs
          )

pub instance Alternative List
  or_else = \k xs ->
    match xs
      when Empty -> k xs
      when Cons _ _ -> xs

pub instance Indexable (List a) a
  get = \i xs ->
    let rec
      go = \k ys ->
        match ys
          when Empty -> prim_error ("get: index " + show i + " is out of range")
          when Cons y rest -> if k == 0 then y else go (k - 1) rest
    in
      if i < 0 then prim_error ("get: index " + show i + " is out of range") else go i xs

{- ---------------------------------------------------------------- Option instances -}

pub instance Functor Option
  map = \f o ->
    match o
      when Some x -> Some (f x)
      when None -> None

pub instance Applicative Option
  pure = \x -> Some x
  ap = \mf mx ->
    match mf
      when Some f -> map f mx
      when None -> None

pub instance Monad Option
  bind = \f o ->
    match o
      when Some x -> f x
      when None -> None

pub instance Foldable Option
  foldl = \f z o ->
    match o
      when Some x -> f z x
      when None -> z
  foldr = \f z o ->
    match o
      when Some x -> f x z
      when None -> z
  fold = \f z o -> foldl f z o

pub instance Filterable Option
  filter = \p o ->
    match o
      when Some x -> if p x then o else None
      when None -> None
  filter_map = \f o ->
    match o
      when Some x -> f x
      when None -> None

pub instance Alternative Option
  or_else = \k o ->
    match o
      when Some _ -> o
      when None -> k o

pub instance Unwrap Option
  unwrap = \o ->
    match o
      when Some x -> x
      when None -> prim_error "unwrap: the value is None"

{- ---------------------------------------------------------------- Array instances -}

{- Arrays reuse the list code through `to_list`/`to_array`, except folds and equality,
   which walk the indices. -}
pub instance Functor Array
  map = \f xs -> to_array (map f (to_list xs))

pub instance Applicative Array
  pure = \x -> to_array (Cons x Empty)
  ap = \fs xs -> to_array (ap (to_list fs) (to_list xs))

pub instance Monad Array
  bind = \f xs -> to_array (bind (\x -> to_list (f x)) (to_list xs))

pub instance Foldable Array
  foldl = \f z xs ->
    let
      n = prim_array_len xs
    in
      let rec
        go = \acc i -> if i >= n then acc else go (f acc (prim_array_get i xs)) (i + 1)
      in
        go z 0
  foldr = \f z xs ->
    let rec
      go = \acc i -> if i < 0 then acc else go (f (prim_array_get i xs) acc) (i - 1)
    in
      go z (prim_array_len xs - 1)
  fold = \f z xs -> foldl f z xs

pub instance Filterable Array
  filter = \p xs -> to_array (filter p (to_list xs))
  filter_map = \f xs -> to_array (filter_map f (to_list xs))

pub instance Sequence Array
  take = \n xs -> to_array (take n (to_list xs))
  skip = \n xs -> to_array (skip n (to_list xs))
  zip = \xs ys -> to_array (zip (to_list xs) (to_list ys))
  unzip = \ps ->
    match (unzip (to_list ps))
      when (ls, rs) -> (to_array ls, to_array rs)

pub instance Alternative Array
  or_else = \k xs -> if prim_array_len xs == 0 then k xs else xs

pub instance Indexable (Array a) a
  get = prim_array_get

{- ---------------------------------------------------------------- Result instances -}

pub instance Functor (Result e)
  map = \f r ->
    match r
      when Ok x -> Ok (f x)
      when Err err -> Err err

pub instance Applicative (Result e)
  pure = \x -> Ok x
  ap = \rf rx ->
    match rf
      when Ok f -> map f rx
      when Err err -> Err err

pub instance Monad (Result e)
  bind = \f r ->
    match r
      when Ok x -> f x
      when Err err -> Err err

pub instance Alternative (Result e)
  or_else = \k r ->
    match r
      when Ok _ -> r
      when Err _ -> k r

pub instance Unwrap (Result e)
  unwrap = \r ->
    match r
      when Ok x -> x
      when Err _ -> prim_error "unwrap: the value is an Err"

{- ---------------------------------------------------------------- functions -}

{- Option and Result tests. -}
pub fn is_some : Option a -> bool = \o ->
  match o
    when Some _ -> true
    when None -> false

pub fn is_none : Option a -> bool = \o ->
  match o
    when Some _ -> false
    when None -> true

pub fn is_ok : Result t e -> bool = \r ->
  match r
    when Ok _ -> true
    when Err _ -> false

pub fn is_err : Result t e -> bool = \r ->
  match r
    when Ok _ -> false
    when Err _ -> true

{- Conversions between lists and arrays. -}
pub fn to_array : List a -> Array a = \xs -> prim_array_from_list xs

pub fn to_list : Array a -> List a = \xs -> prim_array_to_list xs

{- Reductions over any foldable container. `min` and `max` of an empty container raise a
   runtime error; `mean` divides by the count, so an empty container gives `0 / 0`. -}
pub fn count : f a -> i32 where Foldable f = \xs -> foldl (\n _ -> n + 1) 0 xs

pub fn sum : f a -> a where Foldable f, AdditiveMonoid a = \xs -> foldl (+) zero xs

pub fn mean : f a -> a where Foldable f, Field a = \xs ->
  let
    step = \acc x ->
      match acc
        when (total, n) -> (total + x, n + one),
    totals = foldl step (zero, zero) xs
  in
    match totals
      when (total, n) -> total / n

pub fn max : f a -> a where Foldable f, Ord a = \xs ->
  let
    step = \best x ->
      match best
        when Some m -> if x > m then Some x else best
        when None -> Some x
  in
    match (foldl step None xs)
      when Some m -> m
      when None -> prim_error "max: the container is empty"

pub fn min : f a -> a where Foldable f, Ord a = \xs ->
  let
    step = \best x ->
      match best
        when Some m -> if x < m then Some x else best
        when None -> Some x
  in
    match (foldl step None xs)
      when Some m -> m
      when None -> prim_error "min: the container is empty"
