// The examples menu. The first three are the LLMS.md programs (holes to fill from
// type-directed candidates; the third also has type errors to fix first); the rest show
// diagnostics and the prelude at work.
export const EXAMPLES = [
  {
    id: 'ph',
    title: 'Fill a hole: pH quality label',
    text: `fn parse_ph : string -> Result f32 string = \\raw ->
  if raw == "7.3" then Ok 7.3 else Err "bad reading"

fn classify_ph : f32 -> string = \\ph ->
  if ph < 6.8 then "acidic"
  else if ph > 7.8 then "alkaline"
  else "stable"

fn qc_label_from_sensor : string -> Result string string = \\raw ->
  match (parse_ph raw)
    when Ok ph -> Ok (classify_ph ph)
    when Err e -> Err e

let sensor_reading = "7.3" in
let qc_label : Result string string = ? in
qc_label
`,
  },
  {
    id: 'mk',
    title: 'Fill a hole: adapter from i32 to string',
    text: `fn mk : i32 -> string = \\n -> "value"
let x = 1 in
let y : string = ? in
y
`,
  },
  {
    id: 'parse',
    title: 'Exercise: fix the type errors, then fill the hole',
    text: `fn parse_i32 : string -> Result string i32 = \\s ->
  if s == "42" then Ok 42 else Err "bad-int"

fn plus1 : i32 -> i32 = \\n -> n + 1

let input = "42" in
let out : Result string i32 = ? in
out
`,
  },
  {
    id: 'lists',
    title: 'Lists: filter, map, fold',
    text: `let
  values = [3, 12, 7, 20, 15, 4],
  selected = filter (\\n -> n >= 10) values,
  adjusted = map (\\n -> n - 2) selected,
  total = foldl (\\acc n -> acc + n) 0 adjusted
in
  (values, selected, adjusted, total)
`,
  },
  {
    id: 'tree',
    title: 'Types: a binary tree',
    text: `type Tree = Empty | Node { key: i32, left: Tree, right: Tree }

fn insert : i32 -> Tree -> Tree = \\k t ->
  match t
    when Empty -> Node { key = k, left = Empty, right = Empty }
    when Node {key, left, right} ->
      if k < key then Node { key = key, left = insert k left, right = right }
      else Node { key = key, left = left, right = insert k right }

fn size : Tree -> i32 = \\t ->
  match t
    when Empty -> 0
    when Node {key, left, right} -> 1 + size left + size right

size (foldl (\\t k -> insert k t) Empty [5, 2, 8, 1])
`,
  },
  {
    id: 'typo',
    title: 'Errors: a misspelled name',
    text: `fn double : i32 -> i32 = \\n -> n * 2

let total = dobule 21 in
total
`,
  },
];
