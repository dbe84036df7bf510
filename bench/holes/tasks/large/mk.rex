{- Rides of the bike rental; distances are in kilometres. -}

type Ride = Ride { bike_no: i32, rider: string, distance: f32, returned: bool, checkpoints: List string }

type Tariff = Casual | Member { member_since: i32 } | Corporate { company: string }

fn new_ride : i32 -> string -> Ride = \bike_no rider ->
  Ride { bike_no = bike_no, rider = rider, distance = 0.0, returned = false, checkpoints = [] }

fn describe_ride : Ride -> string = \ride ->
  "ride " + show ride.bike_no + " (" + ride.rider + ")"

fn is_returned_ride : Ride -> bool = \ride -> ride.returned

fn set_ride_rider : string -> Ride -> Ride = \rider ride ->
  { ride with { rider = rider } }

fn bump_ride_distance : Ride -> Ride = \ride ->
  { ride with { distance = ride.distance + 3.5 } }

fn total_distance_of_rides : List Ride -> f32 = \rides ->
  sum (map (\ride -> ride.distance) rides)

fn returned_rides : List Ride -> List Ride = \rides ->
  filter (\ride -> ride.returned) rides

fn find_ride : i32 -> List Ride -> Option Ride = \bike_no rides ->
  match (filter (\ride -> ride.bike_no == bike_no) rides)
    when found::_ -> Some found
    when [] -> None

fn ride_report : List Ride -> string = \rides ->
  foldl (\acc ride -> acc + describe_ride ride + "; ") "" rides

fn ride_before : Ride -> Ride -> bool = \a b ->
  if a.bike_no == b.bike_no then a.rider < b.rider else a.bike_no < b.bike_no

type RideTotals = RideTotals { rides: i32, distance: f32 }

fn ride_totals : List Ride -> RideTotals = \rides ->
  RideTotals { rides = count rides, distance = total_distance_of_rides rides }

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

fn set_account_holder : string -> Account -> Account = \holder account ->
  { account with { holder = holder } }

fn bump_account_balance : Account -> Account = \account ->
  { account with { balance = account.balance + 9 } }

fn total_balance_of_accounts : List Account -> i32 = \accounts ->
  sum (map (\account -> account.balance) accounts)

fn frozen_accounts : List Account -> List Account = \accounts ->
  filter (\account -> account.frozen) accounts

fn count_not_frozen_accounts : List Account -> i32 = \accounts ->
  count (filter (\account -> if account.frozen then false else true) accounts)

fn find_account : i32 -> List Account -> Option Account = \account_no accounts ->
  match (filter (\account -> account.account_no == account_no) accounts)
    when found::_ -> Some found
    when [] -> None

fn add_account_alias : string -> Account -> Account = \alias account ->
  { account with { aliases = alias :: account.aliases } }

fn account_aliases_count : Account -> i32 = \account -> count account.aliases

fn is_savings : AccountKind -> bool = \state ->
  match state
    when Savings {branch} -> true
    when _ -> false

type AccountTotals = AccountTotals { accounts: i32, balance: i32 }

fn account_totals : List Account -> AccountTotals = \accounts ->
  AccountTotals { accounts = count accounts, balance = total_balance_of_accounts accounts }

{- Warehouses; capacity is in pallets. -}

type Warehouse = Warehouse { site_no: i32, region: string, capacity: i32, refrigerated: bool, docks: List string }

type StorageZone = Ambient | Chilled { celsius: i32 } | Hazard { hazard_class: string }

fn new_warehouse : i32 -> string -> Warehouse = \site_no region ->
  Warehouse { site_no = site_no, region = region, capacity = 0, refrigerated = false, docks = [] }

fn describe_warehouse : Warehouse -> string = \warehouse ->
  "warehouse " + show warehouse.site_no + " (" + warehouse.region + ")"

fn is_refrigerated_warehouse : Warehouse -> bool = \warehouse -> warehouse.refrigerated

fn large_warehouse : Warehouse -> bool = \warehouse -> warehouse.capacity > 780

fn set_warehouse_region : string -> Warehouse -> Warehouse = \region warehouse ->
  { warehouse with { region = region } }

fn total_capacity_of_warehouses : List Warehouse -> i32 = \warehouses ->
  sum (map (\warehouse -> warehouse.capacity) warehouses)

fn find_warehouse : i32 -> List Warehouse -> Option Warehouse = \site_no warehouses ->
  match (filter (\warehouse -> warehouse.site_no == site_no) warehouses)
    when found::_ -> Some found
    when [] -> None

fn add_warehouse_dock : string -> Warehouse -> Warehouse = \dock warehouse ->
  { warehouse with { docks = dock :: warehouse.docks } }

fn storage_zone_label : StorageZone -> string = \state ->
  match state
    when Ambient -> "ambient"
    when Chilled {celsius} -> "chilled to " + show celsius
    when Hazard {hazard_class} -> "hazard class " + hazard_class

fn is_chilled : StorageZone -> bool = \state ->
  match state
    when Chilled {celsius} -> true
    when _ -> false

{- Shipments on their way; weights are in kilograms. -}

type Shipment = Shipment { tracking: i32, destination: string, weight: f32, delivered: bool, stops: List string }

type ShipmentStage = Packed | InTransit { hub: string } | HandedOver { signed_by: string }

fn new_shipment : i32 -> string -> Shipment = \tracking destination ->
  Shipment { tracking = tracking, destination = destination, weight = 0.0, delivered = false, stops = [] }

fn describe_shipment : Shipment -> string = \shipment ->
  "shipment " + show shipment.tracking + " (" + shipment.destination + ")"

fn is_delivered_shipment : Shipment -> bool = \shipment -> shipment.delivered

fn set_shipment_destination : string -> Shipment -> Shipment = \destination shipment ->
  { shipment with { destination = destination } }

fn bump_shipment_weight : Shipment -> Shipment = \shipment ->
  { shipment with { weight = shipment.weight + 2.5 } }

fn total_weight_of_shipments : List Shipment -> f32 = \shipments ->
  sum (map (\shipment -> shipment.weight) shipments)

fn count_not_delivered_shipments : List Shipment -> i32 = \shipments ->
  count (filter (\shipment -> if shipment.delivered then false else true) shipments)

fn find_shipment : i32 -> List Shipment -> Option Shipment = \tracking shipments ->
  match (filter (\shipment -> shipment.tracking == tracking) shipments)
    when found::_ -> Some found
    when [] -> None

fn shipment_report : List Shipment -> string = \shipments ->
  foldl (\acc shipment -> acc + describe_shipment shipment + ", ") "" shipments

fn shipment_stops_count : Shipment -> i32 = \shipment -> count shipment.stops

fn is_in_transit : ShipmentStage -> bool = \state ->
  match state
    when InTransit {hub} -> true
    when _ -> false

type ShipmentTotals = ShipmentTotals { shipments: i32, weight: f32 }

fn shipment_totals : List Shipment -> ShipmentTotals = \shipments ->
  ShipmentTotals { shipments = count shipments, weight = total_weight_of_shipments shipments }

{- Restaurants of the food guide. -}

type Restaurant = Restaurant { licence: i32, cuisine: string, tables: i32, open_late: bool, specials: List string }

type Inspection =
  Pending
  | Passed { score: i32 }
  | Failed { reason: string }

fn new_restaurant : i32 -> string -> Restaurant = \licence cuisine ->
  Restaurant { licence = licence, cuisine = cuisine, tables = 0, open_late = false, specials = [] }

fn describe_restaurant : Restaurant -> string = \restaurant ->
  "restaurant " + show restaurant.licence + " (" + restaurant.cuisine + ")"

fn is_open_late_restaurant : Restaurant -> bool = \restaurant -> restaurant.open_late

fn set_restaurant_cuisine : string -> Restaurant -> Restaurant = \cuisine restaurant ->
  { restaurant with { cuisine = cuisine } }

fn total_tables_of_restaurants : List Restaurant -> i32 = \restaurants ->
  sum (map (\restaurant -> restaurant.tables) restaurants)

fn open_late_restaurants : List Restaurant -> List Restaurant = \restaurants ->
  filter (\restaurant -> restaurant.open_late) restaurants

fn find_restaurant : i32 -> List Restaurant -> Option Restaurant = \licence restaurants ->
  match (filter (\restaurant -> restaurant.licence == licence) restaurants)
    when found::_ -> Some found
    when [] -> None

fn add_restaurant_special : string -> Restaurant -> Restaurant = \special restaurant ->
  { restaurant with { specials = special :: restaurant.specials } }

fn is_failed : Inspection -> bool = \state ->
  match state
    when Failed {reason} -> true
    when _ -> false

type RestaurantTotals = RestaurantTotals { restaurants: i32, tables: i32 }

fn restaurant_totals : List Restaurant -> RestaurantTotals = \restaurants ->
  RestaurantTotals { restaurants = count restaurants, tables = total_tables_of_restaurants restaurants }

{- Patients of the ward; temperatures are in degrees Celsius. -}

type Patient = Patient { chart_no: i32, patient_name: string, temperature: f32, admitted: bool, allergies: List string }

type Triage = Routine | Urgent { ward: string } | Critical { bed: i32 }

fn new_patient : i32 -> string -> Patient = \chart_no patient_name ->
  Patient { chart_no = chart_no, patient_name = patient_name, temperature = 0.0, admitted = false, allergies = [] }

fn describe_patient : Patient -> string = \patient ->
  "patient " + show patient.chart_no + " (" + patient.patient_name + ")"

fn is_admitted_patient : Patient -> bool = \patient -> patient.admitted

fn bump_patient_temperature : Patient -> Patient = \patient ->
  { patient with { temperature = patient.temperature + 1.5 } }

fn total_temperature_of_patients : List Patient -> f32 = \patients ->
  sum (map (\patient -> patient.temperature) patients)

fn admitted_patients : List Patient -> List Patient = \patients ->
  filter (\patient -> patient.admitted) patients

fn count_not_admitted_patients : List Patient -> i32 = \patients ->
  count (filter (\patient -> if patient.admitted then false else true) patients)

fn add_patient_allergy : string -> Patient -> Patient = \allergy patient ->
  { patient with { allergies = allergy :: patient.allergies } }

fn patient_allergies_count : Patient -> i32 = \patient -> count patient.allergies

fn patient_before : Patient -> Patient -> bool = \a b ->
  if a.chart_no == b.chart_no then a.patient_name < b.patient_name else a.chart_no < b.chart_no

fn is_urgent : Triage -> bool = \state ->
  match state
    when Urgent {ward} -> true
    when _ -> false

type PatientTotals = PatientTotals { patients: i32, temperature: f32 }

fn patient_totals : List Patient -> PatientTotals = \patients ->
  PatientTotals { patients = count patients, temperature = total_temperature_of_patients patients }

{- The fleet's vehicles; mileage is in kilometres. -}

type Vehicle = Vehicle { plate_no: i32, model_name: string, mileage: i32, electric: bool, owners: List string }

type Fuel =
  Petrol
  | Diesel { cetane: i32 }
  | Battery { kwh: i32 }

fn new_vehicle : i32 -> string -> Vehicle = \plate_no model_name ->
  Vehicle { plate_no = plate_no, model_name = model_name, mileage = 0, electric = false, owners = [] }

fn describe_vehicle : Vehicle -> string = \vehicle ->
  "vehicle " + show vehicle.plate_no + " (" + vehicle.model_name + ")"

fn is_electric_vehicle : Vehicle -> bool = \vehicle -> vehicle.electric

fn small_vehicle : Vehicle -> bool = \vehicle -> vehicle.mileage < 460

fn set_vehicle_model_name : string -> Vehicle -> Vehicle = \model_name vehicle ->
  { vehicle with { model_name = model_name } }

fn bump_vehicle_mileage : Vehicle -> Vehicle = \vehicle ->
  { vehicle with { mileage = vehicle.mileage + 2 } }

fn total_mileage_of_vehicles : List Vehicle -> i32 = \vehicles ->
  sum (map (\vehicle -> vehicle.mileage) vehicles)

fn electric_vehicles : List Vehicle -> List Vehicle = \vehicles ->
  filter (\vehicle -> vehicle.electric) vehicles

fn count_not_electric_vehicles : List Vehicle -> i32 = \vehicles ->
  count (filter (\vehicle -> if vehicle.electric then false else true) vehicles)

fn add_vehicle_owner : string -> Vehicle -> Vehicle = \owner vehicle ->
  { vehicle with { owners = owner :: vehicle.owners } }

fn vehicle_owners_count : Vehicle -> i32 = \vehicle -> count vehicle.owners

fn is_diesel : Fuel -> bool = \state ->
  match state
    when Diesel {cetane} -> true
    when _ -> false

{- Allotment plots; areas are in square metres. -}

type Plot = Plot { plot_no: i32, gardener: string, area: f32, watered: bool, crops: List string }

type Season = Spring | Summer { rainfall: i32 } | Autumn { harvest: i32 }

fn new_plot : i32 -> string -> Plot = \plot_no gardener ->
  Plot { plot_no = plot_no, gardener = gardener, area = 0.0, watered = false, crops = [] }

fn describe_plot : Plot -> string = \plot ->
  "plot " + show plot.plot_no + " (" + plot.gardener + ")"

fn small_plot : Plot -> bool = \plot -> plot.area < 90.0

fn set_plot_gardener : string -> Plot -> Plot = \gardener plot ->
  { plot with { gardener = gardener } }

fn total_area_of_plots : List Plot -> f32 = \plots ->
  sum (map (\plot -> plot.area) plots)

fn watered_plots : List Plot -> List Plot = \plots ->
  filter (\plot -> plot.watered) plots

fn count_not_watered_plots : List Plot -> i32 = \plots ->
  count (filter (\plot -> if plot.watered then false else true) plots)

fn plot_report : List Plot -> string = \plots ->
  foldl (\acc plot -> acc + describe_plot plot + "; ") "" plots

fn add_plot_crop : string -> Plot -> Plot = \crop plot ->
  { plot with { crops = crop :: plot.crops } }

type PlotTotals = PlotTotals { plots: i32, area: f32 }

fn plot_totals : List Plot -> PlotTotals = \plots ->
  PlotTotals { plots = count plots, area = total_area_of_plots plots }

{- Lectures of the term and how many students enrolled. -}

type Lecture = Lecture { room_no: i32, subject: string, enrolled: i32, online: bool, readings: List string }

type LectureSlot =
  Morning
  | Afternoon { starts_at: i32 }
  | Evening { ends_at: i32 }

fn new_lecture : i32 -> string -> Lecture = \room_no subject ->
  Lecture { room_no = room_no, subject = subject, enrolled = 0, online = false, readings = [] }

fn describe_lecture : Lecture -> string = \lecture ->
  "lecture " + show lecture.room_no + " (" + lecture.subject + ")"

fn is_online_lecture : Lecture -> bool = \lecture -> lecture.online

fn bump_lecture_enrolled : Lecture -> Lecture = \lecture ->
  { lecture with { enrolled = lecture.enrolled + 5 } }

fn total_enrolled_of_lectures : List Lecture -> i32 = \lectures ->
  sum (map (\lecture -> lecture.enrolled) lectures)

fn online_lectures : List Lecture -> List Lecture = \lectures ->
  filter (\lecture -> lecture.online) lectures

fn count_not_online_lectures : List Lecture -> i32 = \lectures ->
  count (filter (\lecture -> if lecture.online then false else true) lectures)

fn lecture_report : List Lecture -> string = \lectures ->
  foldl (\acc lecture -> acc + describe_lecture lecture + "; ") "" lectures

fn lecture_readings_count : Lecture -> i32 = \lecture -> count lecture.readings

fn lecture_before : Lecture -> Lecture -> bool = \a b ->
  if a.room_no == b.room_no then a.subject < b.subject else a.room_no < b.room_no

fn lecture_slot_label : LectureSlot -> string = \state ->
  match state
    when Morning -> "in the morning"
    when Afternoon {starts_at} -> "in the afternoon at " + show starts_at
    when Evening {ends_at} -> "in the evening until " + show ends_at

fn is_afternoon : LectureSlot -> bool = \state ->
  match state
    when Afternoon {starts_at} -> true
    when _ -> false

{- Loans of the credit union; principals are in cents. -}

type Loan = Loan { loan_no: i32, borrower: string, principal: i32, approved: bool, guarantors: List string }

type LoanTerm = ShortTerm | LongTerm { years: i32 } | Revolving { cap: i32 }

fn new_loan : i32 -> string -> Loan = \loan_no borrower ->
  Loan { loan_no = loan_no, borrower = borrower, principal = 0, approved = false, guarantors = [] }

fn describe_loan : Loan -> string = \loan ->
  "loan " + show loan.loan_no + " (" + loan.borrower + ")"

fn small_loan : Loan -> bool = \loan -> loan.principal < 180

fn bump_loan_principal : Loan -> Loan = \loan ->
  { loan with { principal = loan.principal + 5 } }

fn approved_loans : List Loan -> List Loan = \loans ->
  filter (\loan -> loan.approved) loans

fn count_not_approved_loans : List Loan -> i32 = \loans ->
  count (filter (\loan -> if loan.approved then false else true) loans)

fn find_loan : i32 -> List Loan -> Option Loan = \loan_no loans ->
  match (filter (\loan -> loan.loan_no == loan_no) loans)
    when found::_ -> Some found
    when [] -> None

fn loan_report : List Loan -> string = \loans ->
  foldl (\acc loan -> acc + describe_loan loan + ", ") "" loans

fn add_loan_guarantor : string -> Loan -> Loan = \guarantor loan ->
  { loan with { guarantors = guarantor :: loan.guarantors } }

fn loan_guarantors_count : Loan -> i32 = \loan -> count loan.guarantors

fn loan_before : Loan -> Loan -> bool = \a b ->
  if a.loan_no == b.loan_no then a.borrower < b.borrower else a.loan_no < b.loan_no

fn loan_term_label : LoanTerm -> string = \state ->
  match state
    when ShortTerm -> "short term"
    when LongTerm {years} -> "long term, years: " + show years
    when Revolving {cap} -> "revolving up to " + show cap

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

fn large_recipe : Recipe -> bool = \recipe -> recipe.servings > 890

fn bump_recipe_servings : Recipe -> Recipe = \recipe ->
  { recipe with { servings = recipe.servings + 9 } }

fn total_servings_of_recipes : List Recipe -> i32 = \recipes ->
  sum (map (\recipe -> recipe.servings) recipes)

fn vegetarian_recipes : List Recipe -> List Recipe = \recipes ->
  filter (\recipe -> recipe.vegetarian) recipes

fn count_not_vegetarian_recipes : List Recipe -> i32 = \recipes ->
  count (filter (\recipe -> if recipe.vegetarian then false else true) recipes)

fn find_recipe : i32 -> List Recipe -> Option Recipe = \recipe_no recipes ->
  match (filter (\recipe -> recipe.recipe_no == recipe_no) recipes)
    when found::_ -> Some found
    when [] -> None

fn add_recipe_step : string -> Recipe -> Recipe = \step recipe ->
  { recipe with { steps = step :: recipe.steps } }

fn course_label : Course -> string = \state ->
  match state
    when Starter -> "starter"
    when MainCourse {oven_degrees} -> "main course at degrees: " + show oven_degrees
    when Dessert {sweetness} -> "dessert, sweetness " + show sweetness

type RecipeTotals = RecipeTotals { recipes: i32, servings: i32 }

fn recipe_totals : List Recipe -> RecipeTotals = \recipes ->
  RecipeTotals { recipes = count recipes, servings = total_servings_of_recipes recipes }

{- Books of the library. -}

type Book = Book { isbn: i32, author: string, pages: i32, borrowed: bool, genres: List string }

type Binding = Hardcover | Paperback { edition: i32 } | Ebook { file_format: string }

fn new_book : i32 -> string -> Book = \isbn author ->
  Book { isbn = isbn, author = author, pages = 0, borrowed = false, genres = [] }

fn describe_book : Book -> string = \book ->
  "book " + show book.isbn + " (" + book.author + ")"

fn is_borrowed_book : Book -> bool = \book -> book.borrowed

fn set_book_author : string -> Book -> Book = \author book ->
  { book with { author = author } }

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

fn is_hardcover : Binding -> bool = \state ->
  match state
    when Hardcover -> true
    when _ -> false

type BookTotals = BookTotals { books: i32, pages: i32 }

fn book_totals : List Book -> BookTotals = \books ->
  BookTotals { books = count books, pages = total_pages_of_books books }

{- Employees and their yearly salaries. -}

type Employee = Employee { badge: i32, full_name: string, salary: i32, remote: bool, skills: List string }

type Contract = Permanent | FixedTerm { months: i32 } | Contractor { agency: string }

fn new_employee : i32 -> string -> Employee = \badge full_name ->
  Employee { badge = badge, full_name = full_name, salary = 0, remote = false, skills = [] }

fn describe_employee : Employee -> string = \employee ->
  "employee " + show employee.badge + " (" + employee.full_name + ")"

fn set_employee_full_name : string -> Employee -> Employee = \full_name employee ->
  { employee with { full_name = full_name } }

fn bump_employee_salary : Employee -> Employee = \employee ->
  { employee with { salary = employee.salary + 9 } }

fn total_salary_of_employees : List Employee -> i32 = \employees ->
  sum (map (\employee -> employee.salary) employees)

fn remote_employees : List Employee -> List Employee = \employees ->
  filter (\employee -> employee.remote) employees

fn count_not_remote_employees : List Employee -> i32 = \employees ->
  count (filter (\employee -> if employee.remote then false else true) employees)

fn employee_report : List Employee -> string = \employees ->
  foldl (\acc employee -> acc + describe_employee employee + ", ") "" employees

fn contract_label : Contract -> string = \state ->
  match state
    when Permanent -> "permanent"
    when FixedTerm {months} -> "fixed term, months: " + show months
    when Contractor {agency} -> "contractor via " + agency

fn is_contractor : Contract -> bool = \state ->
  match state
    when Contractor {agency} -> true
    when _ -> false

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

fn bump_project_budget : Project -> Project = \project ->
  { project with { budget = project.budget + 6 } }

fn total_budget_of_projects : List Project -> i32 = \projects ->
  sum (map (\project -> project.budget) projects)

fn late_projects : List Project -> List Project = \projects ->
  filter (\project -> project.late) projects

fn count_not_late_projects : List Project -> i32 = \projects ->
  count (filter (\project -> if project.late then false else true) projects)

fn find_project : i32 -> List Project -> Option Project = \project_no projects ->
  match (filter (\project -> project.project_no == project_no) projects)
    when found::_ -> Some found
    when [] -> None

fn project_report : List Project -> string = \projects ->
  foldl (\acc project -> acc + describe_project project + ", ") "" projects

fn phase_label : Phase -> string = \state ->
  match state
    when Planning -> "planning"
    when Building {sprint} -> "building, sprint " + show sprint
    when Shipped {version} -> "shipped as " + version

type ProjectTotals = ProjectTotals { projects: i32, budget: i32 }

fn project_totals : List Project -> ProjectTotals = \projects ->
  ProjectTotals { projects = count projects, budget = total_budget_of_projects projects }

fn mk : i32 -> string = \n -> "value"
let x = 1 in
let y : string = ? in
y
