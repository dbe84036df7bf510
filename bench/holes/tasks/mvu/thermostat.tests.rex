
fn mode_eq : Mode -> Mode -> bool = \a b -> mode_name a == mode_name b

fn model_eq : Model -> Model -> bool = \a b ->
  a.current == b.current && a.target == b.target && mode_eq a.mode b.mode && a.log == b.log

fn run : Model -> List Action -> Model = \model actions -> foldl update model actions

let
  start = Model { current = 18, target = 20, mode = Off, log = [] }
in
[ model_eq (update start (SetTarget { degrees = 22 }))
    (Model { current = 18, target = 22, mode = Off, log = [] })
, model_eq (update start (SetTarget { degrees = 45 }))
    (Model { current = 18, target = 30, mode = Off, log = [] })
, model_eq (update start (SetTarget { degrees = 3 }))
    (Model { current = 18, target = 10, mode = Off, log = [] })
, model_eq (update start (Nudge { delta = 1 }))
    (Model { current = 18, target = 21, mode = Off, log = [] })
, model_eq (update start (Nudge { delta = -4 }))
    (Model { current = 18, target = 16, mode = Off, log = [] })
, model_eq (run start [Nudge { delta = 8 }, Nudge { delta = 8 }])
    (Model { current = 18, target = 30, mode = Off, log = [] })
, model_eq (update start (Nudge { delta = -15 }))
    (Model { current = 18, target = 10, mode = Off, log = [] })
, model_eq (update start (SetMode { mode = Heat }))
    (Model { current = 18, target = 20, mode = Heat, log = [] })
, model_eq (run start [SetMode { mode = Cool }, SetMode { mode = Off }]) start
, model_eq (update start (Reading { degrees = 19 }))
    (Model { current = 19, target = 20, mode = Off, log = ["read 19"] })
, model_eq (run start [Reading { degrees = 19 }, Reading { degrees = 21 }])
    (Model { current = 21, target = 20, mode = Off, log = ["read 21", "read 19"] })
, model_eq (run start [Reading { degrees = 19 }, ClearLog])
    (Model { current = 19, target = 20, mode = Off, log = [] })
, model_eq (update start ClearLog) start
, model_eq (run start [SetMode { mode = Heat }, SetTarget { degrees = 24 }, Reading { degrees = 23 }])
    (Model { current = 23, target = 24, mode = Heat, log = ["read 23"] })
]
