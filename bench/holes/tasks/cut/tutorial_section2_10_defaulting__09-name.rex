let z: i32 = ? in z
