type Box a = Box a

instance Functor Box where
  map = \f bx ->
    match bx
      when Box x -> Box (f x)

instance Applicative Box <= Functor Box where
  pure = \x -> Box x
  ap = \bf bx ->
    match bf
      when Box f -> map f bx

instance Monad Box <= Applicative Box where
  bind = \f bx ->
    match bx
      when Box x -> f x

bind (\x -> Box (? + 1)) (Box 41)
