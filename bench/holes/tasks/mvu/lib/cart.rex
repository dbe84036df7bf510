{- A shopping cart in the model-view-update style: its model, actions and helpers (the
   app's `update` is in ../cart.rex). Prices are in cents. -}

pub type Line = Line { sku: string, price: i32, qty: i32 }

pub type Model = Model { lines: List Line, coupon: Option string, checked_out: bool }

pub type Action =
  AddItem { sku: string, price: i32 }
  | SetQty { sku: string, qty: i32 }
  | ApplyCoupon { code: string }
  | RemoveCoupon
  | Checkout

pub fn has_sku : string -> List Line -> bool = \sku lines ->
  count (filter (\line -> line.sku == sku) lines) > 0

pub fn add_one : string -> Line -> Line = \sku line ->
  if line.sku == sku then { line with { qty = line.qty + 1 } } else line

pub fn with_qty : string -> i32 -> Line -> Line = \sku qty line ->
  if line.sku == sku then { line with { qty = qty } } else line

pub fn append_line : Line -> List Line -> List Line = \line lines -> foldr Cons [line] lines

pub fn line_total : Line -> i32 = \line -> line.price * line.qty

pub fn subtotal : Model -> i32 = \model -> sum (map line_total model.lines)

pub fn valid_coupon : string -> bool = \code -> code == "SAVE10" || code == "WELCOME"

pub fn item_count : Model -> i32 = \model -> sum (map (\line -> line.qty) model.lines)
