{- A to-do list in the model-view-update style. -}

import lib.todo (*)

{- SetDraft replaces the draft. AddTodo appends a new todo whose title is the draft and
   whose id is next_id, then clears the draft and increments next_id; with an empty draft
   it does nothing. Toggle flips the done flag of the todo with that id, Remove deletes it.
   SetFilter sets the filter. ClearCompleted deletes every done todo. -}
fn update : Model -> Action -> Model = \model action -> ?
