{- A thermostat panel in the model-view-update style. Temperatures are whole degrees
   Celsius. -}

type Mode = Off | Heat | Cool

type Model = Model { current: i32, target: i32, mode: Mode, log: List string }

type Action =
  SetTarget { degrees: i32 }
  | Nudge { delta: i32 }
  | SetMode { mode: Mode }
  | Reading { degrees: i32 }
  | ClearLog

fn clamp : i32 -> i32 -> i32 -> i32 = \lo hi x ->
  if x < lo then lo else if x > hi then hi else x

fn limit_target : i32 -> i32 = \degrees -> clamp 10 30 degrees

fn gap : Model -> i32 = \model -> model.target - model.current

fn mode_name : Mode -> string = \mode ->
  match mode
    when Off -> "off"
    when Heat -> "heating"
    when Cool -> "cooling"

fn needs_heat : Model -> bool = \model -> model.current < model.target

fn status : Model -> string = \model ->
  show model.current + " -> " + show model.target + " (" + mode_name model.mode + ")"

fn reading_entry : i32 -> string = \degrees -> "read " + show degrees

{- SetTarget sets the target, kept between 10 and 30 degrees. Nudge moves the target
   by delta, clamped the same way. SetMode sets the mode. Reading records a new current
   temperature and puts its reading_entry at the front of the log. ClearLog empties the
   log. -}
fn update : Model -> Action -> Model = \model action -> ?
