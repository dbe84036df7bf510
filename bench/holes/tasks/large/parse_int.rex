{- Albums in the record shop. -}

type Album = Album { catalog_no: i32, artist: string, tracks: i32, remastered: bool, formats: List string }

type Release =
  Single
  | LongPlay { sides: i32 }
  | Compilation { curator: string }

fn new_album : i32 -> string -> Album = \catalog_no artist ->
  Album { catalog_no = catalog_no, artist = artist, tracks = 0, remastered = false, formats = [] }

fn describe_album : Album -> string = \album ->
  "album " + show album.catalog_no + " (" + album.artist + ")"

fn is_remastered_album : Album -> bool = \album -> album.remastered

fn set_album_artist : string -> Album -> Album = \artist album ->
  { album with { artist = artist } }

fn total_tracks_of_albums : List Album -> i32 = \albums ->
  sum (map (\album -> album.tracks) albums)

fn remastered_albums : List Album -> List Album = \albums ->
  filter (\album -> album.remastered) albums

fn find_album : i32 -> List Album -> Option Album = \catalog_no albums ->
  match (filter (\album -> album.catalog_no == catalog_no) albums)
    when found::_ -> Some found
    when [] -> None

fn album_report : List Album -> string = \albums ->
  foldl (\acc album -> acc + describe_album album + ", ") "" albums

fn album_formats_count : Album -> i32 = \album -> count album.formats

fn release_label : Release -> string = \state ->
  match state
    when Single -> "single"
    when LongPlay {sides} -> "long play, sides: " + show sides
    when Compilation {curator} -> "compiled by " + curator

fn is_long_play : Release -> bool = \state ->
  match state
    when LongPlay {sides} -> true
    when _ -> false

{- Recipes of the canteen's menu. -}

type Recipe = Recipe { recipe_no: i32, dish: string, servings: i32, vegetarian: bool, steps: List string }

type Course =
  Starter
  | MainCourse { oven_degrees: i32 }
  | Dessert { sweetness: i32 }

fn new_recipe : i32 -> string -> Recipe = \recipe_no dish ->
  Recipe { recipe_no = recipe_no, dish = dish, servings = 0, vegetarian = false, steps = [] }

fn describe_recipe : Recipe -> string = \recipe ->
  "recipe " + show recipe.recipe_no + " (" + recipe.dish + ")"

fn is_vegetarian_recipe : Recipe -> bool = \recipe -> recipe.vegetarian

fn bump_recipe_servings : Recipe -> Recipe = \recipe ->
  { recipe with { servings = recipe.servings + 1 } }

fn vegetarian_recipes : List Recipe -> List Recipe = \recipes ->
  filter (\recipe -> recipe.vegetarian) recipes

fn recipe_report : List Recipe -> string = \recipes ->
  foldl (\acc recipe -> acc + describe_recipe recipe + "; ") "" recipes

fn add_recipe_step : string -> Recipe -> Recipe = \step recipe ->
  { recipe with { steps = step :: recipe.steps } }

fn recipe_steps_count : Recipe -> i32 = \recipe -> count recipe.steps

fn recipe_before : Recipe -> Recipe -> bool = \a b ->
  if a.recipe_no == b.recipe_no then a.dish < b.dish else a.recipe_no < b.recipe_no

fn course_label : Course -> string = \state ->
  match state
    when Starter -> "starter"
    when MainCourse {oven_degrees} -> "main course at degrees: " + show oven_degrees
    when Dessert {sweetness} -> "dessert, sweetness " + show sweetness

fn is_dessert : Course -> bool = \state ->
  match state
    when Dessert {sweetness} -> true
    when _ -> false

{- Patients of the ward; temperatures are in degrees Celsius. -}

type Patient = Patient { chart_no: i32, patient_name: string, temperature: f32, admitted: bool, allergies: List string }

type Triage = Routine | Urgent { ward: string } | Critical { bed: i32 }

fn new_patient : i32 -> string -> Patient = \chart_no patient_name ->
  Patient { chart_no = chart_no, patient_name = patient_name, temperature = 0.0, admitted = false, allergies = [] }

fn describe_patient : Patient -> string = \patient ->
  "patient " + show patient.chart_no + " (" + patient.patient_name + ")"

fn is_admitted_patient : Patient -> bool = \patient -> patient.admitted

fn total_temperature_of_patients : List Patient -> f32 = \patients ->
  sum (map (\patient -> patient.temperature) patients)

fn admitted_patients : List Patient -> List Patient = \patients ->
  filter (\patient -> patient.admitted) patients

fn count_not_admitted_patients : List Patient -> i32 = \patients ->
  count (filter (\patient -> if patient.admitted then false else true) patients)

fn patient_report : List Patient -> string = \patients ->
  foldl (\acc patient -> acc + describe_patient patient + ", ") "" patients

fn add_patient_allergy : string -> Patient -> Patient = \allergy patient ->
  { patient with { allergies = allergy :: patient.allergies } }

fn patient_allergies_count : Patient -> i32 = \patient -> count patient.allergies

fn patient_before : Patient -> Patient -> bool = \a b ->
  if a.chart_no == b.chart_no then a.patient_name < b.patient_name else a.chart_no < b.chart_no

fn is_routine : Triage -> bool = \state ->
  match state
    when Routine -> true
    when _ -> false

type PatientTotals = PatientTotals { patients: i32, temperature: f32 }

fn patient_totals : List Patient -> PatientTotals = \patients ->
  PatientTotals { patients = count patients, temperature = total_temperature_of_patients patients }

{- Invoices sent to customers; amounts are in cents. -}

type Invoice = Invoice { number: i32, customer: string, amount: i32, paid: bool, items: List string }

type InvoiceStatus = Draft | Sent { sent_on: string } | Overdue { days: i32 }

fn new_invoice : i32 -> string -> Invoice = \number customer ->
  Invoice { number = number, customer = customer, amount = 0, paid = false, items = [] }

fn describe_invoice : Invoice -> string = \invoice ->
  "invoice " + show invoice.number + " (" + invoice.customer + ")"

fn is_paid_invoice : Invoice -> bool = \invoice -> invoice.paid

fn large_invoice : Invoice -> bool = \invoice -> invoice.amount > 670

fn set_invoice_customer : string -> Invoice -> Invoice = \customer invoice ->
  { invoice with { customer = customer } }

fn total_amount_of_invoices : List Invoice -> i32 = \invoices ->
  sum (map (\invoice -> invoice.amount) invoices)

fn count_not_paid_invoices : List Invoice -> i32 = \invoices ->
  count (filter (\invoice -> if invoice.paid then false else true) invoices)

fn find_invoice : i32 -> List Invoice -> Option Invoice = \number invoices ->
  match (filter (\invoice -> invoice.number == number) invoices)
    when found::_ -> Some found
    when [] -> None

type InvoiceTotals = InvoiceTotals { invoices: i32, amount: i32 }

fn invoice_totals : List Invoice -> InvoiceTotals = \invoices ->
  InvoiceTotals { invoices = count invoices, amount = total_amount_of_invoices invoices }

{- Meetings in the calendar; durations are in minutes. -}

type Meeting = Meeting { meeting_no: i32, topic: string, duration: i32, recurring: bool, attendees: List string }

type Venue =
  Remote { link: string }
  | InPerson { meeting_room: string }
  | Hybrid

fn new_meeting : i32 -> string -> Meeting = \meeting_no topic ->
  Meeting { meeting_no = meeting_no, topic = topic, duration = 0, recurring = false, attendees = [] }

fn describe_meeting : Meeting -> string = \meeting ->
  "meeting " + show meeting.meeting_no + " (" + meeting.topic + ")"

fn is_recurring_meeting : Meeting -> bool = \meeting -> meeting.recurring

fn bump_meeting_duration : Meeting -> Meeting = \meeting ->
  { meeting with { duration = meeting.duration + 7 } }

fn total_duration_of_meetings : List Meeting -> i32 = \meetings ->
  sum (map (\meeting -> meeting.duration) meetings)

fn meeting_report : List Meeting -> string = \meetings ->
  foldl (\acc meeting -> acc + describe_meeting meeting + ", ") "" meetings

fn add_meeting_attendee : string -> Meeting -> Meeting = \attendee meeting ->
  { meeting with { attendees = attendee :: meeting.attendees } }

fn meeting_attendees_count : Meeting -> i32 = \meeting -> count meeting.attendees

fn venue_label : Venue -> string = \state ->
  match state
    when Remote {link} -> "remote at " + link
    when InPerson {meeting_room} -> "in room " + meeting_room
    when Hybrid -> "hybrid"

type MeetingTotals = MeetingTotals { meetings: i32, duration: i32 }

fn meeting_totals : List Meeting -> MeetingTotals = \meetings ->
  MeetingTotals { meetings = count meetings, duration = total_duration_of_meetings meetings }

{- The fleet's vehicles; mileage is in kilometres. -}

type Vehicle = Vehicle { plate_no: i32, model_name: string, mileage: i32, electric: bool, owners: List string }

type Fuel = Petrol | Diesel { cetane: i32 } | Battery { kwh: i32 }

fn new_vehicle : i32 -> string -> Vehicle = \plate_no model_name ->
  Vehicle { plate_no = plate_no, model_name = model_name, mileage = 0, electric = false, owners = [] }

fn describe_vehicle : Vehicle -> string = \vehicle ->
  "vehicle " + show vehicle.plate_no + " (" + vehicle.model_name + ")"

fn is_electric_vehicle : Vehicle -> bool = \vehicle -> vehicle.electric

fn set_vehicle_model_name : string -> Vehicle -> Vehicle = \model_name vehicle ->
  { vehicle with { model_name = model_name } }

fn total_mileage_of_vehicles : List Vehicle -> i32 = \vehicles ->
  sum (map (\vehicle -> vehicle.mileage) vehicles)

fn count_not_electric_vehicles : List Vehicle -> i32 = \vehicles ->
  count (filter (\vehicle -> if vehicle.electric then false else true) vehicles)

fn find_vehicle : i32 -> List Vehicle -> Option Vehicle = \plate_no vehicles ->
  match (filter (\vehicle -> vehicle.plate_no == plate_no) vehicles)
    when found::_ -> Some found
    when [] -> None

fn vehicle_report : List Vehicle -> string = \vehicles ->
  foldl (\acc vehicle -> acc + describe_vehicle vehicle + "; ") "" vehicles

fn add_vehicle_owner : string -> Vehicle -> Vehicle = \owner vehicle ->
  { vehicle with { owners = owner :: vehicle.owners } }

fn vehicle_owners_count : Vehicle -> i32 = \vehicle -> count vehicle.owners

fn vehicle_before : Vehicle -> Vehicle -> bool = \a b ->
  if a.plate_no == b.plate_no then a.model_name < b.model_name else a.plate_no < b.plate_no

fn is_petrol : Fuel -> bool = \state ->
  match state
    when Petrol -> true
    when _ -> false

{- Warehouses; capacity is in pallets. -}

type Warehouse = Warehouse { site_no: i32, region: string, capacity: i32, refrigerated: bool, docks: List string }

type StorageZone = Ambient | Chilled { celsius: i32 } | Hazard { hazard_class: string }

fn new_warehouse : i32 -> string -> Warehouse = \site_no region ->
  Warehouse { site_no = site_no, region = region, capacity = 0, refrigerated = false, docks = [] }

fn describe_warehouse : Warehouse -> string = \warehouse ->
  "warehouse " + show warehouse.site_no + " (" + warehouse.region + ")"

fn is_refrigerated_warehouse : Warehouse -> bool = \warehouse -> warehouse.refrigerated

fn large_warehouse : Warehouse -> bool = \warehouse -> warehouse.capacity > 880

fn set_warehouse_region : string -> Warehouse -> Warehouse = \region warehouse ->
  { warehouse with { region = region } }

fn bump_warehouse_capacity : Warehouse -> Warehouse = \warehouse ->
  { warehouse with { capacity = warehouse.capacity + 7 } }

fn find_warehouse : i32 -> List Warehouse -> Option Warehouse = \site_no warehouses ->
  match (filter (\warehouse -> warehouse.site_no == site_no) warehouses)
    when found::_ -> Some found
    when [] -> None

fn warehouse_report : List Warehouse -> string = \warehouses ->
  foldl (\acc warehouse -> acc + describe_warehouse warehouse + "; ") "" warehouses

fn add_warehouse_dock : string -> Warehouse -> Warehouse = \dock warehouse ->
  { warehouse with { docks = dock :: warehouse.docks } }

fn warehouse_before : Warehouse -> Warehouse -> bool = \a b ->
  if a.site_no == b.site_no then a.region < b.region else a.site_no < b.site_no

{- Books of the library. -}

type Book = Book { isbn: i32, author: string, pages: i32, borrowed: bool, genres: List string }

type Binding = Hardcover | Paperback { edition: i32 } | Ebook { file_format: string }

fn new_book : i32 -> string -> Book = \isbn author ->
  Book { isbn = isbn, author = author, pages = 0, borrowed = false, genres = [] }

fn describe_book : Book -> string = \book ->
  "book " + show book.isbn + " (" + book.author + ")"

fn set_book_author : string -> Book -> Book = \author book ->
  { book with { author = author } }

fn bump_book_pages : Book -> Book = \book ->
  { book with { pages = book.pages + 3 } }

fn total_pages_of_books : List Book -> i32 = \books ->
  sum (map (\book -> book.pages) books)

fn borrowed_books : List Book -> List Book = \books ->
  filter (\book -> book.borrowed) books

fn count_not_borrowed_books : List Book -> i32 = \books ->
  count (filter (\book -> if book.borrowed then false else true) books)

fn add_book_genre : string -> Book -> Book = \genre book ->
  { book with { genres = genre :: book.genres } }

fn book_before : Book -> Book -> bool = \a b ->
  if a.isbn == b.isbn then a.author < b.author else a.isbn < b.isbn

fn binding_label : Binding -> string = \state ->
  match state
    when Hardcover -> "hardcover"
    when Paperback {edition} -> "paperback, edition " + show edition
    when Ebook {file_format} -> "e-book as " + file_format

type BookTotals = BookTotals { books: i32, pages: i32 }

fn book_totals : List Book -> BookTotals = \books ->
  BookTotals { books = count books, pages = total_pages_of_books books }

{- Employees and their yearly salaries. -}

type Employee = Employee { badge: i32, full_name: string, salary: i32, remote: bool, skills: List string }

type Contract =
  Permanent
  | FixedTerm { months: i32 }
  | Contractor { agency: string }

fn new_employee : i32 -> string -> Employee = \badge full_name ->
  Employee { badge = badge, full_name = full_name, salary = 0, remote = false, skills = [] }

fn describe_employee : Employee -> string = \employee ->
  "employee " + show employee.badge + " (" + employee.full_name + ")"

fn is_remote_employee : Employee -> bool = \employee -> employee.remote

fn small_employee : Employee -> bool = \employee -> employee.salary < 900

fn bump_employee_salary : Employee -> Employee = \employee ->
  { employee with { salary = employee.salary + 6 } }

fn total_salary_of_employees : List Employee -> i32 = \employees ->
  sum (map (\employee -> employee.salary) employees)

fn remote_employees : List Employee -> List Employee = \employees ->
  filter (\employee -> employee.remote) employees

fn find_employee : i32 -> List Employee -> Option Employee = \badge employees ->
  match (filter (\employee -> employee.badge == badge) employees)
    when found::_ -> Some found
    when [] -> None

fn employee_skills_count : Employee -> i32 = \employee -> count employee.skills

fn employee_before : Employee -> Employee -> bool = \a b ->
  if a.badge == b.badge then a.full_name < b.full_name else a.badge < b.badge

fn contract_label : Contract -> string = \state ->
  match state
    when Permanent -> "permanent"
    when FixedTerm {months} -> "fixed term, months: " + show months
    when Contractor {agency} -> "contractor via " + agency

type EmployeeTotals = EmployeeTotals { employees: i32, salary: i32 }

fn employee_totals : List Employee -> EmployeeTotals = \employees ->
  EmployeeTotals { employees = count employees, salary = total_salary_of_employees employees }

{- Rides of the bike rental; distances are in kilometres. -}

type Ride = Ride { bike_no: i32, rider: string, distance: f32, returned: bool, checkpoints: List string }

type Tariff =
  Casual
  | Member { member_since: i32 }
  | Corporate { company: string }

fn new_ride : i32 -> string -> Ride = \bike_no rider ->
  Ride { bike_no = bike_no, rider = rider, distance = 0.0, returned = false, checkpoints = [] }

fn describe_ride : Ride -> string = \ride ->
  "ride " + show ride.bike_no + " (" + ride.rider + ")"

fn is_returned_ride : Ride -> bool = \ride -> ride.returned

fn set_ride_rider : string -> Ride -> Ride = \rider ride ->
  { ride with { rider = rider } }

fn total_distance_of_rides : List Ride -> f32 = \rides ->
  sum (map (\ride -> ride.distance) rides)

fn returned_rides : List Ride -> List Ride = \rides ->
  filter (\ride -> ride.returned) rides

fn count_not_returned_rides : List Ride -> i32 = \rides ->
  count (filter (\ride -> if ride.returned then false else true) rides)

fn find_ride : i32 -> List Ride -> Option Ride = \bike_no rides ->
  match (filter (\ride -> ride.bike_no == bike_no) rides)
    when found::_ -> Some found
    when [] -> None

fn ride_report : List Ride -> string = \rides ->
  foldl (\acc ride -> acc + describe_ride ride + ", ") "" rides

fn add_ride_checkpoint : string -> Ride -> Ride = \checkpoint ride ->
  { ride with { checkpoints = checkpoint :: ride.checkpoints } }

fn ride_checkpoints_count : Ride -> i32 = \ride -> count ride.checkpoints

{- Lectures of the term and how many students enrolled. -}

type Lecture = Lecture { room_no: i32, subject: string, enrolled: i32, online: bool, readings: List string }

type LectureSlot = Morning | Afternoon { starts_at: i32 } | Evening { ends_at: i32 }

fn new_lecture : i32 -> string -> Lecture = \room_no subject ->
  Lecture { room_no = room_no, subject = subject, enrolled = 0, online = false, readings = [] }

fn describe_lecture : Lecture -> string = \lecture ->
  "lecture " + show lecture.room_no + " (" + lecture.subject + ")"

fn total_enrolled_of_lectures : List Lecture -> i32 = \lectures ->
  sum (map (\lecture -> lecture.enrolled) lectures)

fn online_lectures : List Lecture -> List Lecture = \lectures ->
  filter (\lecture -> lecture.online) lectures

fn count_not_online_lectures : List Lecture -> i32 = \lectures ->
  count (filter (\lecture -> if lecture.online then false else true) lectures)

fn lecture_report : List Lecture -> string = \lectures ->
  foldl (\acc lecture -> acc + describe_lecture lecture + ", ") "" lectures

fn add_lecture_reading : string -> Lecture -> Lecture = \reading lecture ->
  { lecture with { readings = reading :: lecture.readings } }

fn lecture_readings_count : Lecture -> i32 = \lecture -> count lecture.readings

type LectureTotals = LectureTotals { lectures: i32, enrolled: i32 }

fn lecture_totals : List Lecture -> LectureTotals = \lectures ->
  LectureTotals { lectures = count lectures, enrolled = total_enrolled_of_lectures lectures }

{- Bank accounts; balances are in cents. -}

type Account = Account { account_no: i32, holder: string, balance: i32, frozen: bool, aliases: List string }

type AccountKind =
  Checking
  | Savings { branch: string }
  | Credit { credit_limit: i32 }

fn new_account : i32 -> string -> Account = \account_no holder ->
  Account { account_no = account_no, holder = holder, balance = 0, frozen = false, aliases = [] }

fn describe_account : Account -> string = \account ->
  "account " + show account.account_no + " (" + account.holder + ")"

fn large_account : Account -> bool = \account -> account.balance > 200

fn total_balance_of_accounts : List Account -> i32 = \accounts ->
  sum (map (\account -> account.balance) accounts)

fn frozen_accounts : List Account -> List Account = \accounts ->
  filter (\account -> account.frozen) accounts

fn count_not_frozen_accounts : List Account -> i32 = \accounts ->
  count (filter (\account -> if account.frozen then false else true) accounts)

fn account_report : List Account -> string = \accounts ->
  foldl (\acc account -> acc + describe_account account + "; ") "" accounts

fn add_account_alias : string -> Account -> Account = \alias account ->
  { account with { aliases = alias :: account.aliases } }

fn account_aliases_count : Account -> i32 = \account -> count account.aliases

fn account_before : Account -> Account -> bool = \a b ->
  if a.account_no == b.account_no then a.holder < b.holder else a.account_no < b.account_no

fn account_kind_label : AccountKind -> string = \state ->
  match state
    when Checking -> "checking"
    when Savings {branch} -> "savings at " + branch
    when Credit {credit_limit} -> "credit up to " + show credit_limit

type AccountTotals = AccountTotals { accounts: i32, balance: i32 }

fn account_totals : List Account -> AccountTotals = \accounts ->
  AccountTotals { accounts = count accounts, balance = total_balance_of_accounts accounts }

{- Restaurants of the food guide. -}

type Restaurant = Restaurant { licence: i32, cuisine: string, tables: i32, open_late: bool, specials: List string }

type Inspection = Pending | Passed { score: i32 } | Failed { reason: string }

fn new_restaurant : i32 -> string -> Restaurant = \licence cuisine ->
  Restaurant { licence = licence, cuisine = cuisine, tables = 0, open_late = false, specials = [] }

fn describe_restaurant : Restaurant -> string = \restaurant ->
  "restaurant " + show restaurant.licence + " (" + restaurant.cuisine + ")"

fn set_restaurant_cuisine : string -> Restaurant -> Restaurant = \cuisine restaurant ->
  { restaurant with { cuisine = cuisine } }

fn total_tables_of_restaurants : List Restaurant -> i32 = \restaurants ->
  sum (map (\restaurant -> restaurant.tables) restaurants)

fn count_not_open_late_restaurants : List Restaurant -> i32 = \restaurants ->
  count (filter (\restaurant -> if restaurant.open_late then false else true) restaurants)

fn restaurant_specials_count : Restaurant -> i32 = \restaurant -> count restaurant.specials

fn restaurant_before : Restaurant -> Restaurant -> bool = \a b ->
  if a.licence == b.licence then a.cuisine < b.cuisine else a.licence < b.licence

fn inspection_label : Inspection -> string = \state ->
  match state
    when Pending -> "pending"
    when Passed {score} -> "passed with " + show score
    when Failed {reason} -> "failed: " + reason

fn is_pending : Inspection -> bool = \state ->
  match state
    when Pending -> true
    when _ -> false

type RestaurantTotals = RestaurantTotals { restaurants: i32, tables: i32 }

fn restaurant_totals : List Restaurant -> RestaurantTotals = \restaurants ->
  RestaurantTotals { restaurants = count restaurants, tables = total_tables_of_restaurants restaurants }

{- Loans of the credit union; principals are in cents. -}

type Loan = Loan { loan_no: i32, borrower: string, principal: i32, approved: bool, guarantors: List string }

type LoanTerm =
  ShortTerm
  | LongTerm { years: i32 }
  | Revolving { cap: i32 }

fn new_loan : i32 -> string -> Loan = \loan_no borrower ->
  Loan { loan_no = loan_no, borrower = borrower, principal = 0, approved = false, guarantors = [] }

fn describe_loan : Loan -> string = \loan ->
  "loan " + show loan.loan_no + " (" + loan.borrower + ")"

fn small_loan : Loan -> bool = \loan -> loan.principal < 80

fn set_loan_borrower : string -> Loan -> Loan = \borrower loan ->
  { loan with { borrower = borrower } }

fn bump_loan_principal : Loan -> Loan = \loan ->
  { loan with { principal = loan.principal + 8 } }

fn total_principal_of_loans : List Loan -> i32 = \loans ->
  sum (map (\loan -> loan.principal) loans)

fn approved_loans : List Loan -> List Loan = \loans ->
  filter (\loan -> loan.approved) loans

fn find_loan : i32 -> List Loan -> Option Loan = \loan_no loans ->
  match (filter (\loan -> loan.loan_no == loan_no) loans)
    when found::_ -> Some found
    when [] -> None

fn add_loan_guarantor : string -> Loan -> Loan = \guarantor loan ->
  { loan with { guarantors = guarantor :: loan.guarantors } }

fn loan_guarantors_count : Loan -> i32 = \loan -> count loan.guarantors

fn is_long_term : LoanTerm -> bool = \state ->
  match state
    when LongTerm {years} -> true
    when _ -> false

type LoanTotals = LoanTotals { loans: i32, principal: i32 }

fn loan_totals : List Loan -> LoanTotals = \loans ->
  LoanTotals { loans = count loans, principal = total_principal_of_loans loans }

{- Projects and their budgets, in thousands. -}

type Project = Project { project_no: i32, lead: string, budget: i32, late: bool, milestones: List string }

type Phase =
  Planning
  | Building { sprint: i32 }
  | Shipped { version: string }

fn new_project : i32 -> string -> Project = \project_no lead ->
  Project { project_no = project_no, lead = lead, budget = 0, late = false, milestones = [] }

fn describe_project : Project -> string = \project ->
  "project " + show project.project_no + " (" + project.lead + ")"

fn large_project : Project -> bool = \project -> project.budget > 570

fn set_project_lead : string -> Project -> Project = \lead project ->
  { project with { lead = lead } }

fn total_budget_of_projects : List Project -> i32 = \projects ->
  sum (map (\project -> project.budget) projects)

fn count_not_late_projects : List Project -> i32 = \projects ->
  count (filter (\project -> if project.late then false else true) projects)

fn find_project : i32 -> List Project -> Option Project = \project_no projects ->
  match (filter (\project -> project.project_no == project_no) projects)
    when found::_ -> Some found
    when [] -> None

fn project_report : List Project -> string = \projects ->
  foldl (\acc project -> acc + describe_project project + "; ") "" projects

fn project_before : Project -> Project -> bool = \a b ->
  if a.project_no == b.project_no then a.lead < b.lead else a.project_no < b.project_no

fn is_building : Phase -> bool = \state ->
  match state
    when Building {sprint} -> true
    when _ -> false

type ProjectTotals = ProjectTotals { projects: i32, budget: i32 }

fn project_totals : List Project -> ProjectTotals = \projects ->
  ProjectTotals { projects = count projects, budget = total_budget_of_projects projects }

fn parse_i32 : string -> Result i32 string = \s ->
  if s == "42" then Ok 42 else Err "bad-int"

fn plus1 : i32 -> i32 = \n -> n + 1

let input = "42" in
let out : Result i32 string = ? in
out
