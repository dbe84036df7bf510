{- A music player's playlist in the model-view-update style: its model, actions and
   helpers (the app's `update` is in ../playlist.rex). `current` is the index of the song
   being played in `songs`, `elapsed` the seconds played of it. -}

pub type Song = Song { title: string, seconds: i32 }

pub type Model = Model { songs: List Song, current: i32, playing: bool, elapsed: i32 }

pub type Action =
  Play
  | Pause
  | Next
  | Previous
  | Tick { seconds: i32 }
  | Enqueue { title: string, seconds: i32 }

pub fn song_count : Model -> i32 = \model -> count model.songs

pub fn wrap : i32 -> i32 -> i32 = \n i -> if n == 0 then 0 else ((i % n) + n) % n

pub fn next_index : Model -> i32 = \model -> wrap (song_count model) (model.current + 1)

pub fn previous_index : Model -> i32 = \model -> wrap (song_count model) (model.current - 1)

pub fn length_of_current : Model -> i32 = \model ->
  match (skip model.current model.songs)
    when song::_ -> song.seconds
    when [] -> 0

pub fn enqueue : Song -> List Song -> List Song = \song songs -> foldr Cons [song] songs

pub fn total_seconds : Model -> i32 = \model -> sum (map (\song -> song.seconds) model.songs)

pub fn format_time : i32 -> string = \s -> show s + " s"
