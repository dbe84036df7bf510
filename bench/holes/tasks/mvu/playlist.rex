{- A music player's playlist in the model-view-update style. `current` is the index of the
   song being played in `songs`, `elapsed` the seconds played of it. -}

import lib.playlist (*)

{- Play starts playing, unless the playlist is empty; Pause stops. Next moves to the next
   song (after the last comes the first) and Previous to the previous one (before the first
   comes the last); both start the song from 0 seconds. Tick adds seconds to elapsed while
   playing (and does nothing while paused); when elapsed reaches the length of the current
   song, the player moves to the next song at 0 seconds. Enqueue adds a song at the end of
   the playlist. -}
fn update : Model -> Action -> Model = \model action -> ?
