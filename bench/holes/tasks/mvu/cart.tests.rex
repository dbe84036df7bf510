
fn line_eq : Line -> Line -> bool = \a b -> a.sku == b.sku && a.price == b.price && a.qty == b.qty

fn lines_eq : List Line -> List Line -> bool = \xs ys ->
  match (xs, ys)
    when ([], []) -> true
    when (x::xt, y::yt) -> line_eq x y && lines_eq xt yt
    when _ -> false

fn model_eq : Model -> Model -> bool = \a b ->
  lines_eq a.lines b.lines && a.coupon == b.coupon && a.checked_out == b.checked_out

fn run : Model -> List Action -> Model = \model actions -> foldl update model actions

let
  empty = Model { lines = [], coupon = None, checked_out = false },
  pen = Line { sku = "pen", price = 150, qty = 1 },
  ink = Line { sku = "ink", price = 900, qty = 2 },
  cart = Model { lines = [pen, ink], coupon = None, checked_out = false },
  done = Model { lines = [pen, ink], coupon = None, checked_out = true }
in
[ model_eq (update empty (AddItem { sku = "pen", price = 150 }))
    (Model { lines = [pen], coupon = None, checked_out = false })
, model_eq (update cart (AddItem { sku = "pen", price = 150 }))
    (Model { lines = [{ pen with { qty = 2 } }, ink], coupon = None, checked_out = false })
, model_eq (update cart (AddItem { sku = "pad", price = 300 }))
    (Model { lines = [pen, ink, Line { sku = "pad", price = 300, qty = 1 }], coupon = None, checked_out = false })
, model_eq (update cart (SetQty { sku = "ink", qty = 5 }))
    (Model { lines = [pen, { ink with { qty = 5 } }], coupon = None, checked_out = false })
, model_eq (update cart (SetQty { sku = "pen", qty = 0 }))
    (Model { lines = [ink], coupon = None, checked_out = false })
, model_eq (update cart (SetQty { sku = "ink", qty = -1 }))
    (Model { lines = [pen], coupon = None, checked_out = false })
, model_eq (update cart (SetQty { sku = "pad", qty = 3 })) cart
, model_eq (update cart (ApplyCoupon { code = "SAVE10" }))
    (Model { lines = [pen, ink], coupon = Some "SAVE10", checked_out = false })
, model_eq (update cart (ApplyCoupon { code = "FREE" })) cart
, model_eq (run cart [ApplyCoupon { code = "WELCOME" }, RemoveCoupon]) cart
, model_eq (update cart Checkout) done
, model_eq (update empty Checkout) empty
, model_eq (update done (AddItem { sku = "pad", price = 300 })) done
, model_eq (run done [SetQty { sku = "pen", qty = 0 }, ApplyCoupon { code = "SAVE10" }]) done
]
