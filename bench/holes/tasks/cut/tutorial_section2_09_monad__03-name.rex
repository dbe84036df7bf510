let
  ok = Ok 1,
  boom = Err "boom"
in
  ( bind (\x -> Ok (? + 1)) ok
  , bind (\x -> Ok (x + 1)) boom
  )
