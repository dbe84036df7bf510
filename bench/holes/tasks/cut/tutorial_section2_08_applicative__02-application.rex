let x: Option i32 = ? in x
