{- Booking meeting rooms by the hour in the model-view-update style. A slot is the hour a
   booking starts; rooms can be booked from 9 to 16. -}

import lib.booking (*)

{- SwitchUser changes the user and clears the message. Book adds a booking of the room at
   the slot for the current user with the message "booked"; the message is "invalid slot"
   (and nothing is booked) when the slot is outside 9..16, and "taken" when the room is
   already booked at that slot. Cancel removes the current user's booking of the room at
   the slot with the message "cancelled", or only sets the message "not yours" when the
   user has no such booking. CancelAllMine removes every booking of the current user, with
   the message "cancelled all". -}
fn update : Model -> Action -> Model = \model action -> ?
