{- A thermostat panel in the model-view-update style: its model, actions and helpers (the
   app's `update` is in ../thermostat.rex). Temperatures are whole degrees Celsius. -}

pub type Mode = Off | Heat | Cool

pub type Model = Model { current: i32, target: i32, mode: Mode, log: List string }

pub type Action =
  SetTarget { degrees: i32 }
  | Nudge { delta: i32 }
  | SetMode { mode: Mode }
  | Reading { degrees: i32 }
  | ClearLog

pub fn clamp : i32 -> i32 -> i32 -> i32 = \lo hi x ->
  if x < lo then lo else if x > hi then hi else x

pub fn limit_target : i32 -> i32 = \degrees -> clamp 10 30 degrees

pub fn gap : Model -> i32 = \model -> model.target - model.current

pub fn mode_name : Mode -> string = \mode ->
  match mode
    when Off -> "off"
    when Heat -> "heating"
    when Cool -> "cooling"

pub fn needs_heat : Model -> bool = \model -> model.current < model.target

pub fn status : Model -> string = \model ->
  show model.current + " -> " + show model.target + " (" + mode_name model.mode + ")"

pub fn reading_entry : i32 -> string = \degrees -> "read " + show degrees
