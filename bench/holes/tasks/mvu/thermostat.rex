{- A thermostat panel in the model-view-update style. Temperatures are whole degrees
   Celsius. -}

import lib.thermostat (*)

{- SetTarget sets the target, kept between 10 and 30 degrees. Nudge moves the target
   by delta, clamped the same way. SetMode sets the mode. Reading records a new current
   temperature and puts its reading_entry at the front of the log. ClearLog empties the
   log. -}
fn update : Model -> Action -> Model = \model action -> ?
