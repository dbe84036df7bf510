"""Programs of a given size with one hole at the end, for bench/fill_scale.py.

The bulk is unrelated but well-typed code (types with record payloads, functions over
them, classes and instances, in the shape of compiler/benches/check.rs), then the pH
program of the LLMS guide, whose hole `qc_label` expects a `Result string string`.
"""

import sys

TAIL = '''fn parse_ph : string -> Result f32 string = \\raw ->
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
'''


def chunk(n: int) -> str:
    k = n % 9 + 2
    prev = n - 1 if n > 0 else 0
    return f'''type Shape{n} = Circle{n} {{ r: f32 }} | Rect{n} {{ w: f32, h: f32 }}

type Order{n} = Order{n} {{ id: i32, items: List string, total: f32 }}

fn area{n} : Shape{n} -> f32 = \\s ->
  match s
    when Circle{n} {{ r }} -> 3.14 * r * r
    when Rect{n} {{ w, h }} -> w * h

fn sum{n} : List i32 -> i32 = \\xs ->
  let
    step = \\acc x -> acc + x * {k},
    total = foldl step 0 xs
  in
    if total > 100 then total + sum{prev} [1] else total

fn order_total{n} : Order{n} -> f32 = \\o -> o.total * {k}.0

fn label{n} : Result i32 string -> string = \\x ->
  match x
    when Ok v -> "ok " + show v
    when Err e -> "error: " + e

fn first{n} : Option (List i32) -> i32 = \\o ->
  match o
    when Some (h::_) -> h + sum{n} [h]
    when Some [] -> 0
    when None -> 0 - 1

'''


def program(lines: int) -> str:
    out = []
    count = TAIL.count("\n")
    n = 0
    while count < lines:
        c = chunk(n)
        out.append(c)
        count += c.count("\n")
        n += 1
    return "".join(out) + TAIL


if __name__ == "__main__":
    sys.stdout.write(program(int(sys.argv[1])))
