{- A shopping cart in the model-view-update style. Prices are in cents. -}

import lib.cart (*)

{- Once checked out, the cart ignores every action. AddItem adds one more of the sku when
   the cart has a line for it, else appends a new line with quantity 1. SetQty sets the
   quantity of the sku's line; a quantity of 0 or less removes the line. ApplyCoupon
   keeps a valid code as the coupon and ignores an invalid one; RemoveCoupon drops it.
   Checkout marks the cart checked out, unless it is empty. -}
fn update : Model -> Action -> Model = \model action -> ?
