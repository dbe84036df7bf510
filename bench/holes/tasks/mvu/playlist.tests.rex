
fn song_eq : Song -> Song -> bool = \a b -> a.title == b.title && a.seconds == b.seconds

fn songs_eq : List Song -> List Song -> bool = \xs ys ->
  match (xs, ys)
    when ([], []) -> true
    when (x::xt, y::yt) -> song_eq x y && songs_eq xt yt
    when _ -> false

fn model_eq : Model -> Model -> bool = \a b ->
  songs_eq a.songs b.songs && a.current == b.current && a.playing == b.playing
    && a.elapsed == b.elapsed

fn run : Model -> List Action -> Model = \model actions -> foldl update model actions

let
  intro = Song { title = "Intro", seconds = 60 },
  waltz = Song { title = "Waltz", seconds = 180 },
  coda = Song { title = "Coda", seconds = 90 },
  three = [intro, waltz, coda],
  empty = Model { songs = [], current = 0, playing = false, elapsed = 0 },
  paused = Model { songs = three, current = 0, playing = false, elapsed = 0 },
  playing = Model { songs = three, current = 1, playing = true, elapsed = 30 }
in
[ model_eq (update paused Play) (Model { songs = three, current = 0, playing = true, elapsed = 0 })
, model_eq (update empty Play) empty
, model_eq (update playing Pause) (Model { songs = three, current = 1, playing = false, elapsed = 30 })
, model_eq (update playing Next) (Model { songs = three, current = 2, playing = true, elapsed = 0 })
, model_eq (run playing [Next, Next]) (Model { songs = three, current = 0, playing = true, elapsed = 0 })
, model_eq (update playing Previous) (Model { songs = three, current = 0, playing = true, elapsed = 0 })
, model_eq (update paused Previous) (Model { songs = three, current = 2, playing = false, elapsed = 0 })
, model_eq (update playing (Tick { seconds = 5 })) (Model { songs = three, current = 1, playing = true, elapsed = 35 })
, model_eq (update paused (Tick { seconds = 5 })) paused
, model_eq (update playing (Tick { seconds = 150 })) (Model { songs = three, current = 2, playing = true, elapsed = 0 })
, model_eq (run paused [Play, Tick { seconds = 59 }]) (Model { songs = three, current = 0, playing = true, elapsed = 59 })
, model_eq (update empty (Enqueue { title = "Intro", seconds = 60 }))
    (Model { songs = [intro], current = 0, playing = false, elapsed = 0 })
, model_eq (update playing (Enqueue { title = "Outro", seconds = 45 }))
    (Model { songs = [intro, waltz, coda, Song { title = "Outro", seconds = 45 }], current = 1, playing = true, elapsed = 30 })
, model_eq (run empty [Enqueue { title = "Intro", seconds = 60 }, Play, Tick { seconds = 60 }])
    (Model { songs = [intro], current = 0, playing = true, elapsed = 0 })
]
