{- Booking meeting rooms by the hour in the model-view-update style. A slot is the hour a
   booking starts; rooms can be booked from 9 to 16. -}

type Booking = Booking { room: string, slot: i32, who: string }

type Model = Model { user: string, bookings: List Booking, message: string }

type Action =
  SwitchUser { name: string }
  | Book { room: string, slot: i32 }
  | Cancel { room: string, slot: i32 }
  | CancelAllMine

fn at : string -> i32 -> Booking -> bool = \room slot booking ->
  booking.room == room && booking.slot == slot

fn is_taken : string -> i32 -> List Booking -> bool = \room slot bookings ->
  count (filter (at room slot) bookings) > 0

fn owned_by : string -> Booking -> bool = \who booking -> booking.who == who

fn valid_slot : i32 -> bool = \slot -> slot >= 9 && slot <= 16

fn add_booking : Booking -> List Booking -> List Booking = \b bookings -> foldr Cons [b] bookings

fn describe : Booking -> string = \b -> b.room + " at " + show b.slot + " for " + b.who

fn bookings_of : string -> Model -> List Booking = \who model -> filter (owned_by who) model.bookings

fn busiest_slot : Model -> i32 = \model -> max (map (\b -> b.slot) model.bookings)

{- SwitchUser changes the user and clears the message. Book adds a booking of the room at
   the slot for the current user with the message "booked"; the message is "invalid slot"
   (and nothing is booked) when the slot is outside 9..16, and "taken" when the room is
   already booked at that slot. Cancel removes the current user's booking of the room at
   the slot with the message "cancelled", or only sets the message "not yours" when the
   user has no such booking. CancelAllMine removes every booking of the current user, with
   the message "cancelled all". -}
fn update : Model -> Action -> Model = \model action -> ?
