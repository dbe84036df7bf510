let
  {- We use to_array here to simulate a host function result of type Array i32. -}
  data = ?
in
  match (to_list data)
    when x::xs -> x
    when [] -> -1
