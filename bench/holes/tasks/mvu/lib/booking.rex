{- Booking meeting rooms by the hour in the model-view-update style: its model, actions and
   helpers (the app's `update` is in ../booking.rex). A slot is the hour a booking starts;
   rooms can be booked from 9 to 16. -}

pub type Booking = Booking { room: string, slot: i32, who: string }

pub type Model = Model { user: string, bookings: List Booking, message: string }

pub type Action =
  SwitchUser { name: string }
  | Book { room: string, slot: i32 }
  | Cancel { room: string, slot: i32 }
  | CancelAllMine

pub fn at : string -> i32 -> Booking -> bool = \room slot booking ->
  booking.room == room && booking.slot == slot

pub fn is_taken : string -> i32 -> List Booking -> bool = \room slot bookings ->
  count (filter (at room slot) bookings) > 0

pub fn owned_by : string -> Booking -> bool = \who booking -> booking.who == who

pub fn valid_slot : i32 -> bool = \slot -> slot >= 9 && slot <= 16

pub fn add_booking : Booking -> List Booking -> List Booking = \b bookings -> foldr Cons [b] bookings

pub fn describe : Booking -> string = \b -> b.room + " at " + show b.slot + " for " + b.who

pub fn bookings_of : string -> Model -> List Booking = \who model -> filter (owned_by who) model.bookings

pub fn busiest_slot : Model -> i32 = \model -> max (map (\b -> b.slot) model.bookings)
