{- A music player's playlist in the model-view-update style. `current` is the index of the
   song being played in `songs`, `elapsed` the seconds played of it. -}

type Song = Song { title: string, seconds: i32 }

type Model = Model { songs: List Song, current: i32, playing: bool, elapsed: i32 }

type Action =
  Play
  | Pause
  | Next
  | Previous
  | Tick { seconds: i32 }
  | Enqueue { title: string, seconds: i32 }

fn song_count : Model -> i32 = \model -> count model.songs

fn wrap : i32 -> i32 -> i32 = \n i -> if n == 0 then 0 else ((i % n) + n) % n

fn next_index : Model -> i32 = \model -> wrap (song_count model) (model.current + 1)

fn previous_index : Model -> i32 = \model -> wrap (song_count model) (model.current - 1)

fn length_of_current : Model -> i32 = \model ->
  match (skip model.current model.songs)
    when song::_ -> song.seconds
    when [] -> 0

fn enqueue : Song -> List Song -> List Song = \song songs -> foldr Cons [song] songs

fn total_seconds : Model -> i32 = \model -> sum (map (\song -> song.seconds) model.songs)

fn format_time : i32 -> string = \s -> show s + " s"

{- Play starts playing, unless the playlist is empty; Pause stops. Next moves to the next
   song (after the last comes the first) and Previous to the previous one (before the first
   comes the last); both start the song from 0 seconds. Tick adds seconds to elapsed while
   playing (and does nothing while paused); when elapsed reaches the length of the current
   song, the player moves to the next song at 0 seconds. Enqueue adds a song at the end of
   the playlist. -}
fn update : Model -> Action -> Model = \model action -> ?
