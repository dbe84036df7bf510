bind (\x -> Some (? + 1)) (Some 41)
