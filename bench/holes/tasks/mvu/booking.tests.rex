
fn booking_eq : Booking -> Booking -> bool = \a b -> a.room == b.room && a.slot == b.slot && a.who == b.who

fn bookings_eq : List Booking -> List Booking -> bool = \xs ys ->
  match (xs, ys)
    when ([], []) -> true
    when (x::xt, y::yt) -> booking_eq x y && bookings_eq xt yt
    when _ -> false

fn model_eq : Model -> Model -> bool = \a b ->
  a.user == b.user && bookings_eq a.bookings b.bookings && a.message == b.message

fn run : Model -> List Action -> Model = \model actions -> foldl update model actions

let
  ada_red = Booking { room = "red", slot = 10, who = "ada" },
  bob_blue = Booking { room = "blue", slot = 10, who = "bob" },
  ada_blue = Booking { room = "blue", slot = 14, who = "ada" },
  fresh = Model { user = "ada", bookings = [], message = "" },
  busy = Model { user = "ada", bookings = [ada_red, bob_blue, ada_blue], message = "" }
in
[ model_eq (update fresh (SwitchUser { name = "bob" })) (Model { user = "bob", bookings = [], message = "" })
, model_eq (update { fresh with { message = "taken" } } (SwitchUser { name = "cy" }))
    (Model { user = "cy", bookings = [], message = "" })
, model_eq (update fresh (Book { room = "red", slot = 10 }))
    (Model { user = "ada", bookings = [ada_red], message = "booked" })
, model_eq (update busy (Book { room = "red", slot = 10 }))
    (Model { user = "ada", bookings = [ada_red, bob_blue, ada_blue], message = "taken" })
, model_eq (update busy (Book { room = "red", slot = 11 }))
    (Model { user = "ada", bookings = [ada_red, bob_blue, ada_blue, Booking { room = "red", slot = 11, who = "ada" }], message = "booked" })
, model_eq (update fresh (Book { room = "red", slot = 8 }))
    (Model { user = "ada", bookings = [], message = "invalid slot" })
, model_eq (update fresh (Book { room = "red", slot = 17 }))
    (Model { user = "ada", bookings = [], message = "invalid slot" })
, model_eq (update busy (Cancel { room = "red", slot = 10 }))
    (Model { user = "ada", bookings = [bob_blue, ada_blue], message = "cancelled" })
, model_eq (update busy (Cancel { room = "blue", slot = 10 }))
    (Model { user = "ada", bookings = [ada_red, bob_blue, ada_blue], message = "not yours" })
, model_eq (update busy (Cancel { room = "green", slot = 12 }))
    (Model { user = "ada", bookings = [ada_red, bob_blue, ada_blue], message = "not yours" })
, model_eq (update busy CancelAllMine)
    (Model { user = "ada", bookings = [bob_blue], message = "cancelled all" })
, model_eq (run busy [SwitchUser { name = "bob" }, CancelAllMine])
    (Model { user = "bob", bookings = [ada_red, ada_blue], message = "cancelled all" })
, model_eq (run fresh [SwitchUser { name = "bob" }, Book { room = "blue", slot = 10 }, SwitchUser { name = "ada" }, Book { room = "blue", slot = 10 }])
    (Model { user = "ada", bookings = [bob_blue], message = "taken" })
, model_eq (run busy [SwitchUser { name = "bob" }, Cancel { room = "blue", slot = 10 }])
    (Model { user = "bob", bookings = [ada_red, ada_blue], message = "cancelled" })
]
