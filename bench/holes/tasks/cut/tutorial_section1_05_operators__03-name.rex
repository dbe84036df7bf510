type User = User { name: string }

let u: User = User { name = "Ada" } in ?.name
