{- Books of the library. -}

type Book = Book { isbn: i32, author: string, pages: i32, borrowed: bool, genres: List string }

type Binding = Hardcover | Paperback { edition: i32 } | Ebook { file_format: string }

fn new_book : i32 -> string -> Book = \isbn author ->
  Book { isbn = isbn, author = author, pages = 0, borrowed = false, genres = [] }

fn describe_book : Book -> string = \book ->
  "book " + show book.isbn + " (" + book.author + ")"

fn is_borrowed_book : Book -> bool = \book -> book.borrowed

fn borrowed_books : List Book -> List Book = \books ->
  filter (\book -> book.borrowed) books

fn count_not_borrowed_books : List Book -> i32 = \books ->
  count (filter (\book -> if book.borrowed then false else true) books)

fn find_book : i32 -> List Book -> Option Book = \isbn books ->
  match (filter (\book -> book.isbn == isbn) books)
    when found::_ -> Some found
    when [] -> None

fn book_report : List Book -> string = \books ->
  foldl (\acc book -> acc + describe_book book + ", ") "" books

fn add_book_genre : string -> Book -> Book = \genre book ->
  { book with { genres = genre :: book.genres } }

fn book_genres_count : Book -> i32 = \book -> count book.genres

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

{- Shipments on their way; weights are in kilograms. -}

type Shipment = Shipment { tracking: i32, destination: string, weight: f32, delivered: bool, stops: List string }

type ShipmentStage = Packed | InTransit { hub: string } | HandedOver { signed_by: string }

fn new_shipment : i32 -> string -> Shipment = \tracking destination ->
  Shipment { tracking = tracking, destination = destination, weight = 0.0, delivered = false, stops = [] }

fn describe_shipment : Shipment -> string = \shipment ->
  "shipment " + show shipment.tracking + " (" + shipment.destination + ")"

fn is_delivered_shipment : Shipment -> bool = \shipment -> shipment.delivered

fn total_weight_of_shipments : List Shipment -> f32 = \shipments ->
  sum (map (\shipment -> shipment.weight) shipments)

fn delivered_shipments : List Shipment -> List Shipment = \shipments ->
  filter (\shipment -> shipment.delivered) shipments

fn add_shipment_stop : string -> Shipment -> Shipment = \stop shipment ->
  { shipment with { stops = stop :: shipment.stops } }

fn shipment_stops_count : Shipment -> i32 = \shipment -> count shipment.stops

fn shipment_before : Shipment -> Shipment -> bool = \a b ->
  if a.tracking == b.tracking then a.destination < b.destination else a.tracking < b.tracking

fn shipment_stage_label : ShipmentStage -> string = \state ->
  match state
    when Packed -> "packed"
    when InTransit {hub} -> "in transit at " + hub
    when HandedOver {signed_by} -> "signed by " + signed_by

fn is_handed_over : ShipmentStage -> bool = \state ->
  match state
    when HandedOver {signed_by} -> true
    when _ -> false

type ShipmentTotals = ShipmentTotals { shipments: i32, weight: f32 }

fn shipment_totals : List Shipment -> ShipmentTotals = \shipments ->
  ShipmentTotals { shipments = count shipments, weight = total_weight_of_shipments shipments }

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

fn large_loan : Loan -> bool = \loan -> loan.principal > 340

fn set_loan_borrower : string -> Loan -> Loan = \borrower loan ->
  { loan with { borrower = borrower } }

fn bump_loan_principal : Loan -> Loan = \loan ->
  { loan with { principal = loan.principal + 8 } }

fn total_principal_of_loans : List Loan -> i32 = \loans ->
  sum (map (\loan -> loan.principal) loans)

fn approved_loans : List Loan -> List Loan = \loans ->
  filter (\loan -> loan.approved) loans

fn count_not_approved_loans : List Loan -> i32 = \loans ->
  count (filter (\loan -> if loan.approved then false else true) loans)

fn find_loan : i32 -> List Loan -> Option Loan = \loan_no loans ->
  match (filter (\loan -> loan.loan_no == loan_no) loans)
    when found::_ -> Some found
    when [] -> None

fn add_loan_guarantor : string -> Loan -> Loan = \guarantor loan ->
  { loan with { guarantors = guarantor :: loan.guarantors } }

fn loan_guarantors_count : Loan -> i32 = \loan -> count loan.guarantors

fn loan_term_label : LoanTerm -> string = \state ->
  match state
    when ShortTerm -> "short term"
    when LongTerm {years} -> "long term, years: " + show years
    when Revolving {cap} -> "revolving up to " + show cap

type LoanTotals = LoanTotals { loans: i32, principal: i32 }

fn loan_totals : List Loan -> LoanTotals = \loans ->
  LoanTotals { loans = count loans, principal = total_principal_of_loans loans }

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

fn is_frozen_account : Account -> bool = \account -> account.frozen

fn set_account_holder : string -> Account -> Account = \holder account ->
  { account with { holder = holder } }

fn bump_account_balance : Account -> Account = \account ->
  { account with { balance = account.balance + 8 } }

fn total_balance_of_accounts : List Account -> i32 = \accounts ->
  sum (map (\account -> account.balance) accounts)

fn count_not_frozen_accounts : List Account -> i32 = \accounts ->
  count (filter (\account -> if account.frozen then false else true) accounts)

fn find_account : i32 -> List Account -> Option Account = \account_no accounts ->
  match (filter (\account -> account.account_no == account_no) accounts)
    when found::_ -> Some found
    when [] -> None

fn account_report : List Account -> string = \accounts ->
  foldl (\acc account -> acc + describe_account account + ", ") "" accounts

fn account_aliases_count : Account -> i32 = \account -> count account.aliases

fn is_checking : AccountKind -> bool = \state ->
  match state
    when Checking -> true
    when _ -> false

type AccountTotals = AccountTotals { accounts: i32, balance: i32 }

fn account_totals : List Account -> AccountTotals = \accounts ->
  AccountTotals { accounts = count accounts, balance = total_balance_of_accounts accounts }

{- Patients of the ward; temperatures are in degrees Celsius. -}

type Patient = Patient { chart_no: i32, patient_name: string, temperature: f32, admitted: bool, allergies: List string }

type Triage =
  Routine
  | Urgent { ward: string }
  | Critical { bed: i32 }

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

fn find_patient : i32 -> List Patient -> Option Patient = \chart_no patients ->
  match (filter (\patient -> patient.chart_no == chart_no) patients)
    when found::_ -> Some found
    when [] -> None

fn patient_allergies_count : Patient -> i32 = \patient -> count patient.allergies

fn triage_label : Triage -> string = \state ->
  match state
    when Routine -> "routine"
    when Urgent {ward} -> "urgent, ward " + ward
    when Critical {bed} -> "critical, bed " + show bed

fn is_routine : Triage -> bool = \state ->
  match state
    when Routine -> true
    when _ -> false

type PatientTotals = PatientTotals { patients: i32, temperature: f32 }

fn patient_totals : List Patient -> PatientTotals = \patients ->
  PatientTotals { patients = count patients, temperature = total_temperature_of_patients patients }

{- Projects and their budgets, in thousands. -}

type Project = Project { project_no: i32, lead: string, budget: i32, late: bool, milestones: List string }

type Phase = Planning | Building { sprint: i32 } | Shipped { version: string }

fn new_project : i32 -> string -> Project = \project_no lead ->
  Project { project_no = project_no, lead = lead, budget = 0, late = false, milestones = [] }

fn describe_project : Project -> string = \project ->
  "project " + show project.project_no + " (" + project.lead + ")"

fn set_project_lead : string -> Project -> Project = \lead project ->
  { project with { lead = lead } }

fn bump_project_budget : Project -> Project = \project ->
  { project with { budget = project.budget + 6 } }

fn total_budget_of_projects : List Project -> i32 = \projects ->
  sum (map (\project -> project.budget) projects)

fn late_projects : List Project -> List Project = \projects ->
  filter (\project -> project.late) projects

fn count_not_late_projects : List Project -> i32 = \projects ->
  count (filter (\project -> if project.late then false else true) projects)

fn project_report : List Project -> string = \projects ->
  foldl (\acc project -> acc + describe_project project + ", ") "" projects

fn project_milestones_count : Project -> i32 = \project -> count project.milestones

fn phase_label : Phase -> string = \state ->
  match state
    when Planning -> "planning"
    when Building {sprint} -> "building, sprint " + show sprint
    when Shipped {version} -> "shipped as " + version

fn is_building : Phase -> bool = \state ->
  match state
    when Building {sprint} -> true
    when _ -> false

{- Allotment plots; areas are in square metres. -}

type Plot = Plot { plot_no: i32, gardener: string, area: f32, watered: bool, crops: List string }

type Season =
  Spring
  | Summer { rainfall: i32 }
  | Autumn { harvest: i32 }

fn new_plot : i32 -> string -> Plot = \plot_no gardener ->
  Plot { plot_no = plot_no, gardener = gardener, area = 0.0, watered = false, crops = [] }

fn describe_plot : Plot -> string = \plot ->
  "plot " + show plot.plot_no + " (" + plot.gardener + ")"

fn is_watered_plot : Plot -> bool = \plot -> plot.watered

fn set_plot_gardener : string -> Plot -> Plot = \gardener plot ->
  { plot with { gardener = gardener } }

fn total_area_of_plots : List Plot -> f32 = \plots ->
  sum (map (\plot -> plot.area) plots)

fn watered_plots : List Plot -> List Plot = \plots ->
  filter (\plot -> plot.watered) plots

fn count_not_watered_plots : List Plot -> i32 = \plots ->
  count (filter (\plot -> if plot.watered then false else true) plots)

fn plot_report : List Plot -> string = \plots ->
  foldl (\acc plot -> acc + describe_plot plot + ", ") "" plots

fn add_plot_crop : string -> Plot -> Plot = \crop plot ->
  { plot with { crops = crop :: plot.crops } }

type PlotTotals = PlotTotals { plots: i32, area: f32 }

fn plot_totals : List Plot -> PlotTotals = \plots ->
  PlotTotals { plots = count plots, area = total_area_of_plots plots }

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

fn large_recipe : Recipe -> bool = \recipe -> recipe.servings > 630

fn bump_recipe_servings : Recipe -> Recipe = \recipe ->
  { recipe with { servings = recipe.servings + 3 } }

fn total_servings_of_recipes : List Recipe -> i32 = \recipes ->
  sum (map (\recipe -> recipe.servings) recipes)

fn recipe_report : List Recipe -> string = \recipes ->
  foldl (\acc recipe -> acc + describe_recipe recipe + ", ") "" recipes

fn add_recipe_step : string -> Recipe -> Recipe = \step recipe ->
  { recipe with { steps = step :: recipe.steps } }

fn recipe_before : Recipe -> Recipe -> bool = \a b ->
  if a.recipe_no == b.recipe_no then a.dish < b.dish else a.recipe_no < b.recipe_no

fn is_starter : Course -> bool = \state ->
  match state
    when Starter -> true
    when _ -> false

type RecipeTotals = RecipeTotals { recipes: i32, servings: i32 }

fn recipe_totals : List Recipe -> RecipeTotals = \recipes ->
  RecipeTotals { recipes = count recipes, servings = total_servings_of_recipes recipes }

{- Support tickets; priority 1 is the most urgent. -}

type Ticket = Ticket { code: i32, title: string, priority: i32, closed: bool, labels: List string }

type TicketState = Open | Assigned { assignee: string } | Resolved { minutes: i32 }

fn new_ticket : i32 -> string -> Ticket = \code title ->
  Ticket { code = code, title = title, priority = 0, closed = false, labels = [] }

fn describe_ticket : Ticket -> string = \ticket ->
  "ticket " + show ticket.code + " (" + ticket.title + ")"

fn set_ticket_title : string -> Ticket -> Ticket = \title ticket ->
  { ticket with { title = title } }

fn total_priority_of_tickets : List Ticket -> i32 = \tickets ->
  sum (map (\ticket -> ticket.priority) tickets)

fn closed_tickets : List Ticket -> List Ticket = \tickets ->
  filter (\ticket -> ticket.closed) tickets

fn count_not_closed_tickets : List Ticket -> i32 = \tickets ->
  count (filter (\ticket -> if ticket.closed then false else true) tickets)

fn find_ticket : i32 -> List Ticket -> Option Ticket = \code tickets ->
  match (filter (\ticket -> ticket.code == code) tickets)
    when found::_ -> Some found
    when [] -> None

fn ticket_report : List Ticket -> string = \tickets ->
  foldl (\acc ticket -> acc + describe_ticket ticket + "; ") "" tickets

fn add_ticket_tag : string -> Ticket -> Ticket = \tag ticket ->
  { ticket with { labels = tag :: ticket.labels } }

fn ticket_before : Ticket -> Ticket -> bool = \a b ->
  if a.code == b.code then a.title < b.title else a.code < b.code

fn is_resolved : TicketState -> bool = \state ->
  match state
    when Resolved {minutes} -> true
    when _ -> false

type TicketTotals = TicketTotals { tickets: i32, priority: i32 }

fn ticket_totals : List Ticket -> TicketTotals = \tickets ->
  TicketTotals { tickets = count tickets, priority = total_priority_of_tickets tickets }

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

fn set_lecture_subject : string -> Lecture -> Lecture = \subject lecture ->
  { lecture with { subject = subject } }

fn bump_lecture_enrolled : Lecture -> Lecture = \lecture ->
  { lecture with { enrolled = lecture.enrolled + 5 } }

fn online_lectures : List Lecture -> List Lecture = \lectures ->
  filter (\lecture -> lecture.online) lectures

fn find_lecture : i32 -> List Lecture -> Option Lecture = \room_no lectures ->
  match (filter (\lecture -> lecture.room_no == room_no) lectures)
    when found::_ -> Some found
    when [] -> None

fn lecture_report : List Lecture -> string = \lectures ->
  foldl (\acc lecture -> acc + describe_lecture lecture + ", ") "" lectures

fn add_lecture_reading : string -> Lecture -> Lecture = \reading lecture ->
  { lecture with { readings = reading :: lecture.readings } }

fn lecture_slot_label : LectureSlot -> string = \state ->
  match state
    when Morning -> "in the morning"
    when Afternoon {starts_at} -> "in the afternoon at " + show starts_at
    when Evening {ends_at} -> "in the evening until " + show ends_at

{- Albums in the record shop. -}

type Album = Album { catalog_no: i32, artist: string, tracks: i32, remastered: bool, formats: List string }

type Release = Single | LongPlay { sides: i32 } | Compilation { curator: string }

fn new_album : i32 -> string -> Album = \catalog_no artist ->
  Album { catalog_no = catalog_no, artist = artist, tracks = 0, remastered = false, formats = [] }

fn describe_album : Album -> string = \album ->
  "album " + show album.catalog_no + " (" + album.artist + ")"

fn is_remastered_album : Album -> bool = \album -> album.remastered

fn remastered_albums : List Album -> List Album = \albums ->
  filter (\album -> album.remastered) albums

fn find_album : i32 -> List Album -> Option Album = \catalog_no albums ->
  match (filter (\album -> album.catalog_no == catalog_no) albums)
    when found::_ -> Some found
    when [] -> None

fn album_report : List Album -> string = \albums ->
  foldl (\acc album -> acc + describe_album album + ", ") "" albums

fn add_album_medium : string -> Album -> Album = \medium album ->
  { album with { formats = medium :: album.formats } }

fn album_formats_count : Album -> i32 = \album -> count album.formats

fn album_before : Album -> Album -> bool = \a b ->
  if a.catalog_no == b.catalog_no then a.artist < b.artist else a.catalog_no < b.catalog_no

fn release_label : Release -> string = \state ->
  match state
    when Single -> "single"
    when LongPlay {sides} -> "long play, sides: " + show sides
    when Compilation {curator} -> "compiled by " + curator

{- Meetings in the calendar; durations are in minutes. -}

type Meeting = Meeting { meeting_no: i32, topic: string, duration: i32, recurring: bool, attendees: List string }

type Venue = Remote { link: string } | InPerson { meeting_room: string } | Hybrid

fn new_meeting : i32 -> string -> Meeting = \meeting_no topic ->
  Meeting { meeting_no = meeting_no, topic = topic, duration = 0, recurring = false, attendees = [] }

fn describe_meeting : Meeting -> string = \meeting ->
  "meeting " + show meeting.meeting_no + " (" + meeting.topic + ")"

fn is_recurring_meeting : Meeting -> bool = \meeting -> meeting.recurring

fn total_duration_of_meetings : List Meeting -> i32 = \meetings ->
  sum (map (\meeting -> meeting.duration) meetings)

fn recurring_meetings : List Meeting -> List Meeting = \meetings ->
  filter (\meeting -> meeting.recurring) meetings

fn add_meeting_attendee : string -> Meeting -> Meeting = \attendee meeting ->
  { meeting with { attendees = attendee :: meeting.attendees } }

fn meeting_before : Meeting -> Meeting -> bool = \a b ->
  if a.meeting_no == b.meeting_no then a.topic < b.topic else a.meeting_no < b.meeting_no

fn venue_label : Venue -> string = \state ->
  match state
    when Remote {link} -> "remote at " + link
    when InPerson {meeting_room} -> "in room " + meeting_room
    when Hybrid -> "hybrid"

fn is_remote : Venue -> bool = \state ->
  match state
    when Remote {link} -> true
    when _ -> false

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

fn total_mileage_of_vehicles : List Vehicle -> i32 = \vehicles ->
  sum (map (\vehicle -> vehicle.mileage) vehicles)

fn count_not_electric_vehicles : List Vehicle -> i32 = \vehicles ->
  count (filter (\vehicle -> if vehicle.electric then false else true) vehicles)

fn add_vehicle_owner : string -> Vehicle -> Vehicle = \owner vehicle ->
  { vehicle with { owners = owner :: vehicle.owners } }

fn vehicle_owners_count : Vehicle -> i32 = \vehicle -> count vehicle.owners

fn vehicle_before : Vehicle -> Vehicle -> bool = \a b ->
  if a.plate_no == b.plate_no then a.model_name < b.model_name else a.plate_no < b.plate_no

fn fuel_label : Fuel -> string = \state ->
  match state
    when Petrol -> "petrol"
    when Diesel {cetane} -> "diesel, cetane " + show cetane
    when Battery {kwh} -> "battery, kWh: " + show kwh

fn is_battery : Fuel -> bool = \state ->
  match state
    when Battery {kwh} -> true
    when _ -> false

type VehicleTotals = VehicleTotals { vehicles: i32, mileage: i32 }

fn vehicle_totals : List Vehicle -> VehicleTotals = \vehicles ->
  VehicleTotals { vehicles = count vehicles, mileage = total_mileage_of_vehicles vehicles }

{- Warehouses; capacity is in pallets. -}

type Warehouse = Warehouse { site_no: i32, region: string, capacity: i32, refrigerated: bool, docks: List string }

type StorageZone =
  Ambient
  | Chilled { celsius: i32 }
  | Hazard { hazard_class: string }

fn new_warehouse : i32 -> string -> Warehouse = \site_no region ->
  Warehouse { site_no = site_no, region = region, capacity = 0, refrigerated = false, docks = [] }

fn describe_warehouse : Warehouse -> string = \warehouse ->
  "warehouse " + show warehouse.site_no + " (" + warehouse.region + ")"

fn small_warehouse : Warehouse -> bool = \warehouse -> warehouse.capacity < 690

fn set_warehouse_region : string -> Warehouse -> Warehouse = \region warehouse ->
  { warehouse with { region = region } }

fn refrigerated_warehouses : List Warehouse -> List Warehouse = \warehouses ->
  filter (\warehouse -> warehouse.refrigerated) warehouses

fn find_warehouse : i32 -> List Warehouse -> Option Warehouse = \site_no warehouses ->
  match (filter (\warehouse -> warehouse.site_no == site_no) warehouses)
    when found::_ -> Some found
    when [] -> None

fn warehouse_report : List Warehouse -> string = \warehouses ->
  foldl (\acc warehouse -> acc + describe_warehouse warehouse + ", ") "" warehouses

fn warehouse_docks_count : Warehouse -> i32 = \warehouse -> count warehouse.docks

fn warehouse_before : Warehouse -> Warehouse -> bool = \a b ->
  if a.site_no == b.site_no then a.region < b.region else a.site_no < b.site_no

fn is_chilled : StorageZone -> bool = \state ->
  match state
    when Chilled {celsius} -> true
    when _ -> false

fn parse_ph : string -> Result f32 string = \raw ->
  if raw == "7.3" then Ok 7.3 else Err "bad reading"

fn classify_ph : f32 -> string = \ph ->
  if ph < 6.8 then "acidic"
  else if ph > 7.8 then "alkaline"
  else "stable"

fn qc_label_from_sensor : string -> Result string string = \raw ->
  match (parse_ph raw)
    when Ok ph -> Ok (classify_ph ph)
    when Err e -> Err e

let sensor_reading = "7.3" in
let qc_label : Result string string = ? in
qc_label
