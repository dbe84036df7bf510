{- A shopping cart in the model-view-update style. Prices are in cents. -}

type Line = Line { sku: string, price: i32, qty: i32 }

type Model = Model { lines: List Line, coupon: Option string, checked_out: bool }

type Action =
  AddItem { sku: string, price: i32 }
  | SetQty { sku: string, qty: i32 }
  | ApplyCoupon { code: string }
  | RemoveCoupon
  | Checkout

fn has_sku : string -> List Line -> bool = \sku lines ->
  count (filter (\line -> line.sku == sku) lines) > 0

fn add_one : string -> Line -> Line = \sku line ->
  if line.sku == sku then { line with { qty = line.qty + 1 } } else line

fn with_qty : string -> i32 -> Line -> Line = \sku qty line ->
  if line.sku == sku then { line with { qty = qty } } else line

fn append_line : Line -> List Line -> List Line = \line lines -> foldr Cons [line] lines

fn line_total : Line -> i32 = \line -> line.price * line.qty

fn subtotal : Model -> i32 = \model -> sum (map line_total model.lines)

fn valid_coupon : string -> bool = \code -> code == "SAVE10" || code == "WELCOME"

fn item_count : Model -> i32 = \model -> sum (map (\line -> line.qty) model.lines)

{- Once checked out, the cart ignores every action. AddItem adds one more of the sku when
   the cart has a line for it, else appends a new line with quantity 1. SetQty sets the
   quantity of the sku's line; a quantity of 0 or less removes the line. ApplyCoupon
   keeps a valid code as the coupon and ignores an invalid one; RemoveCoupon drops it.
   Checkout marks the cart checked out, unless it is empty. -}
fn update : Model -> Action -> Model = \model action -> ?
