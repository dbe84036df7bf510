//! The generator of the `large` tasks: a program of 600 to 700 lines with one hole near
//! its end, so that the file before the hole is long while what the hole needs is short.
//! Each is one of the `llms` tasks (unchanged: same hole, reference fill and output) after
//! a few hundred lines of realistic but unrelated declarations: record types of a dozen
//! business domains (invoices, shipments, tickets, ...), a type of states with record
//! payloads for each, and functions over them (constructors, descriptions, predicates,
//! updates, folds over lists), drawn from a fixed seed so that `rex-bench generate` writes
//! the same files every time.
//!
//! Every generated function takes or returns one of the generated types, so none has the
//! type of the function the hole needs (`i32 -> string`, `string -> Result ...`): the
//! declarations are noise to the hole, not competing answers.

use std::path::Path;

use crate::judge::{hole_of, judge, output_with_hole};
use crate::task::{load_suite, write_task, Task, TaskMeta};

/// The seed of the committed `large` tasks.
pub const SEED: u64 = 0x5eed_1a26e;

/// The `llms` tasks the large programs end with.
pub const SOURCES: [&str; 3] = ["mk", "parse_int", "ph"];

/// The shortest and longest program, in lines.
pub const LINES: (usize, usize) = (600, 700);

/// One large task.
#[derive(Clone, Debug)]
pub struct Large {
    pub name: String,
    pub program: String,
    pub meta: TaskMeta,
}

/// A small, deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// A variant of a domain's states: its name, its payload's one field (name, and whether it
/// is a `string`, else an `i32`; none: no payload) and how it reads.
type Variant = (&'static str, Option<(&'static str, bool)>, &'static str);

/// A business domain: a record type and a type of its states.
struct Domain {
    /// What the domain's comment says of it.
    about: &'static str,
    ty: &'static str,
    var: &'static str,
    plural: &'static str,
    /// An `i32` that identifies a value.
    key: &'static str,
    /// A `string` that names it.
    label: &'static str,
    /// A quantity, and whether it is an `f32` (else an `i32`).
    measure: &'static str,
    float: bool,
    /// A flag.
    flag: &'static str,
    /// A `List string`, and the name of one of its elements.
    list: &'static str,
    item: &'static str,
    /// The states: a type whose variants carry records.
    state: &'static str,
    variants: [Variant; 3],
}

const DOMAINS: [Domain; 20] = [
    Domain {
        about: "Invoices sent to customers; amounts are in cents.",
        ty: "Invoice",
        var: "invoice",
        plural: "invoices",
        key: "number",
        label: "customer",
        measure: "amount",
        float: false,
        flag: "paid",
        list: "items",
        item: "item",
        state: "InvoiceStatus",
        variants: [
            ("Draft", None, "draft"),
            ("Sent", Some(("sent_on", true)), "sent on "),
            ("Overdue", Some(("days", false)), "days overdue: "),
        ],
    },
    Domain {
        about: "Shipments on their way; weights are in kilograms.",
        ty: "Shipment",
        var: "shipment",
        plural: "shipments",
        key: "tracking",
        label: "destination",
        measure: "weight",
        float: true,
        flag: "delivered",
        list: "stops",
        item: "stop",
        state: "ShipmentStage",
        variants: [
            ("Packed", None, "packed"),
            ("InTransit", Some(("hub", true)), "in transit at "),
            ("HandedOver", Some(("signed_by", true)), "signed by "),
        ],
    },
    Domain {
        about: "Support tickets; priority 1 is the most urgent.",
        ty: "Ticket",
        var: "ticket",
        plural: "tickets",
        key: "code",
        label: "title",
        measure: "priority",
        float: false,
        flag: "closed",
        list: "labels",
        item: "tag",
        state: "TicketState",
        variants: [
            ("Open", None, "open"),
            ("Assigned", Some(("assignee", true)), "assigned to "),
            (
                "Resolved",
                Some(("minutes", false)),
                "resolved in minutes: ",
            ),
        ],
    },
    Domain {
        about: "Bank accounts; balances are in cents.",
        ty: "Account",
        var: "account",
        plural: "accounts",
        key: "account_no",
        label: "holder",
        measure: "balance",
        float: false,
        flag: "frozen",
        list: "aliases",
        item: "alias",
        state: "AccountKind",
        variants: [
            ("Checking", None, "checking"),
            ("Savings", Some(("branch", true)), "savings at "),
            ("Credit", Some(("credit_limit", false)), "credit up to "),
        ],
    },
    Domain {
        about: "Recipes of the canteen's menu.",
        ty: "Recipe",
        var: "recipe",
        plural: "recipes",
        key: "recipe_no",
        label: "dish",
        measure: "servings",
        float: false,
        flag: "vegetarian",
        list: "steps",
        item: "step",
        state: "Course",
        variants: [
            ("Starter", None, "starter"),
            (
                "MainCourse",
                Some(("oven_degrees", false)),
                "main course at degrees: ",
            ),
            ("Dessert", Some(("sweetness", false)), "dessert, sweetness "),
        ],
    },
    Domain {
        about: "Flights of the day, with their free seats.",
        ty: "Flight",
        var: "flight",
        plural: "flights",
        key: "flight_no",
        label: "origin",
        measure: "seats",
        float: false,
        flag: "international",
        list: "crew",
        item: "member",
        state: "FlightPhase",
        variants: [
            ("Boarding", Some(("gate", true)), "boarding at gate "),
            ("Airborne", Some(("altitude", false)), "airborne at feet: "),
            ("Landed", None, "landed"),
        ],
    },
    Domain {
        about: "Lectures of the term and how many students enrolled.",
        ty: "Lecture",
        var: "lecture",
        plural: "lectures",
        key: "room_no",
        label: "subject",
        measure: "enrolled",
        float: false,
        flag: "online",
        list: "readings",
        item: "reading",
        state: "LectureSlot",
        variants: [
            ("Morning", None, "in the morning"),
            (
                "Afternoon",
                Some(("starts_at", false)),
                "in the afternoon at ",
            ),
            ("Evening", Some(("ends_at", false)), "in the evening until "),
        ],
    },
    Domain {
        about: "The fleet's vehicles; mileage is in kilometres.",
        ty: "Vehicle",
        var: "vehicle",
        plural: "vehicles",
        key: "plate_no",
        label: "model_name",
        measure: "mileage",
        float: false,
        flag: "electric",
        list: "owners",
        item: "owner",
        state: "Fuel",
        variants: [
            ("Petrol", None, "petrol"),
            ("Diesel", Some(("cetane", false)), "diesel, cetane "),
            ("Battery", Some(("kwh", false)), "battery, kWh: "),
        ],
    },
    Domain {
        about: "Books of the library.",
        ty: "Book",
        var: "book",
        plural: "books",
        key: "isbn",
        label: "author",
        measure: "pages",
        float: false,
        flag: "borrowed",
        list: "genres",
        item: "genre",
        state: "Binding",
        variants: [
            ("Hardcover", None, "hardcover"),
            ("Paperback", Some(("edition", false)), "paperback, edition "),
            ("Ebook", Some(("file_format", true)), "e-book as "),
        ],
    },
    Domain {
        about: "Patients of the ward; temperatures are in degrees Celsius.",
        ty: "Patient",
        var: "patient",
        plural: "patients",
        key: "chart_no",
        label: "patient_name",
        measure: "temperature",
        float: true,
        flag: "admitted",
        list: "allergies",
        item: "allergy",
        state: "Triage",
        variants: [
            ("Routine", None, "routine"),
            ("Urgent", Some(("ward", true)), "urgent, ward "),
            ("Critical", Some(("bed", false)), "critical, bed "),
        ],
    },
    Domain {
        about: "Orders of the web shop; totals are in cents.",
        ty: "Order",
        var: "order",
        plural: "orders",
        key: "order_no",
        label: "buyer",
        measure: "total",
        float: false,
        flag: "shipped",
        list: "notes",
        item: "note",
        state: "Payment",
        variants: [
            ("Unpaid", None, "unpaid"),
            ("Card", Some(("last_digits", false)), "card ending "),
            ("Voucher", Some(("voucher_code", true)), "voucher "),
        ],
    },
    Domain {
        about: "Employees and their yearly salaries.",
        ty: "Employee",
        var: "employee",
        plural: "employees",
        key: "badge",
        label: "full_name",
        measure: "salary",
        float: false,
        flag: "remote",
        list: "skills",
        item: "skill",
        state: "Contract",
        variants: [
            ("Permanent", None, "permanent"),
            ("FixedTerm", Some(("months", false)), "fixed term, months: "),
            ("Contractor", Some(("agency", true)), "contractor via "),
        ],
    },
    Domain {
        about: "Warehouses; capacity is in pallets.",
        ty: "Warehouse",
        var: "warehouse",
        plural: "warehouses",
        key: "site_no",
        label: "region",
        measure: "capacity",
        float: false,
        flag: "refrigerated",
        list: "docks",
        item: "dock",
        state: "StorageZone",
        variants: [
            ("Ambient", None, "ambient"),
            ("Chilled", Some(("celsius", false)), "chilled to "),
            ("Hazard", Some(("hazard_class", true)), "hazard class "),
        ],
    },
    Domain {
        about: "Albums in the record shop.",
        ty: "Album",
        var: "album",
        plural: "albums",
        key: "catalog_no",
        label: "artist",
        measure: "tracks",
        float: false,
        flag: "remastered",
        list: "formats",
        item: "medium",
        state: "Release",
        variants: [
            ("Single", None, "single"),
            ("LongPlay", Some(("sides", false)), "long play, sides: "),
            ("Compilation", Some(("curator", true)), "compiled by "),
        ],
    },
    Domain {
        about: "Allotment plots; areas are in square metres.",
        ty: "Plot",
        var: "plot",
        plural: "plots",
        key: "plot_no",
        label: "gardener",
        measure: "area",
        float: true,
        flag: "watered",
        list: "crops",
        item: "crop",
        state: "Season",
        variants: [
            ("Spring", None, "spring"),
            ("Summer", Some(("rainfall", false)), "summer, rainfall "),
            ("Autumn", Some(("harvest", false)), "autumn, harvest "),
        ],
    },
    Domain {
        about: "Loans of the credit union; principals are in cents.",
        ty: "Loan",
        var: "loan",
        plural: "loans",
        key: "loan_no",
        label: "borrower",
        measure: "principal",
        float: false,
        flag: "approved",
        list: "guarantors",
        item: "guarantor",
        state: "LoanTerm",
        variants: [
            ("ShortTerm", None, "short term"),
            ("LongTerm", Some(("years", false)), "long term, years: "),
            ("Revolving", Some(("cap", false)), "revolving up to "),
        ],
    },
    Domain {
        about: "Meetings in the calendar; durations are in minutes.",
        ty: "Meeting",
        var: "meeting",
        plural: "meetings",
        key: "meeting_no",
        label: "topic",
        measure: "duration",
        float: false,
        flag: "recurring",
        list: "attendees",
        item: "attendee",
        state: "Venue",
        variants: [
            ("Remote", Some(("link", true)), "remote at "),
            ("InPerson", Some(("meeting_room", true)), "in room "),
            ("Hybrid", None, "hybrid"),
        ],
    },
    Domain {
        about: "Restaurants of the food guide.",
        ty: "Restaurant",
        var: "restaurant",
        plural: "restaurants",
        key: "licence",
        label: "cuisine",
        measure: "tables",
        float: false,
        flag: "open_late",
        list: "specials",
        item: "special",
        state: "Inspection",
        variants: [
            ("Pending", None, "pending"),
            ("Passed", Some(("score", false)), "passed with "),
            ("Failed", Some(("reason", true)), "failed: "),
        ],
    },
    Domain {
        about: "Rides of the bike rental; distances are in kilometres.",
        ty: "Ride",
        var: "ride",
        plural: "rides",
        key: "bike_no",
        label: "rider",
        measure: "distance",
        float: true,
        flag: "returned",
        list: "checkpoints",
        item: "checkpoint",
        state: "Tariff",
        variants: [
            ("Casual", None, "casual"),
            ("Member", Some(("member_since", false)), "member since "),
            ("Corporate", Some(("company", true)), "corporate, "),
        ],
    },
    Domain {
        about: "Projects and their budgets, in thousands.",
        ty: "Project",
        var: "project",
        plural: "projects",
        key: "project_no",
        label: "lead",
        measure: "budget",
        float: false,
        flag: "late",
        list: "milestones",
        item: "milestone",
        state: "Phase",
        variants: [
            ("Planning", None, "planning"),
            ("Building", Some(("sprint", false)), "building, sprint "),
            ("Shipped", Some(("version", true)), "shipped as "),
        ],
    },
];

/// What the generated functions of a domain may be (beyond its types, constructor and
/// description, which every domain has).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Template {
    Flag,
    Threshold,
    Rename,
    Bump,
    Total,
    FilterFlag,
    CountFlag,
    Find,
    Report,
    AddItem,
    ItemCount,
    Before,
    StateLabel,
    StateIs,
    Totals,
}

const TEMPLATES: [Template; 15] = [
    Template::Flag,
    Template::Threshold,
    Template::Rename,
    Template::Bump,
    Template::Total,
    Template::FilterFlag,
    Template::CountFlag,
    Template::Find,
    Template::Report,
    Template::AddItem,
    Template::ItemCount,
    Template::Before,
    Template::StateLabel,
    Template::StateIs,
    Template::Totals,
];

impl Domain {
    fn measure_ty(&self) -> &'static str {
        if self.float {
            "f32"
        } else {
            "i32"
        }
    }

    /// A literal of the measure's type near `n`.
    fn measure_lit(&self, n: i64) -> String {
        if self.float {
            format!("{}.{}", n / 10, n % 10)
        } else {
            n.to_string()
        }
    }

    /// The domain's declarations, `templates` among the optional ones.
    fn declarations(&self, rng: &mut Rng) -> Vec<String> {
        let Domain {
            ty,
            var,
            key,
            label,
            measure,
            flag,
            list,
            state,
            ..
        } = *self;
        let mty = self.measure_ty();
        let mut out = vec![
            format!("{{- {} -}}", self.about),
            format!(
                "type {ty} = {ty} {{ {key}: i32, {label}: string, {measure}: {mty}, {flag}: bool, {list}: List string }}"
            ),
        ];
        let variants: Vec<String> = self
            .variants
            .iter()
            .map(|(name, field, _)| match field {
                None => name.to_string(),
                Some((f, text)) => {
                    format!("{name} {{ {f}: {} }}", if *text { "string" } else { "i32" })
                }
            })
            .collect();
        out.push(if rng.chance(50) {
            format!("type {state} = {}", variants.join(" | "))
        } else {
            format!("type {state} =\n  {}", variants.join("\n  | "))
        });
        let zero = self.measure_lit(0);
        out.push(format!(
            "fn new_{var} : i32 -> string -> {ty} = \\{key} {label} ->\n  {ty} {{ {key} = {key}, {label} = {label}, {measure} = {zero}, {flag} = false, {list} = [] }}"
        ));
        out.push(format!(
            "fn describe_{var} : {ty} -> string = \\{var} ->\n  \"{var} \" + show {var}.{key} + \" (\" + {var}.{label} + \")\""
        ));
        let mut chosen: Vec<Template> = TEMPLATES.to_vec();
        rng.shuffle(&mut chosen);
        let n = rng.range(7, 10) as usize;
        chosen.truncate(n);
        // Keep the order of `TEMPLATES` (a function before the ones that use it).
        chosen.sort_by_key(|t| TEMPLATES.iter().position(|u| u == t));
        if chosen.contains(&Template::Totals) && !chosen.contains(&Template::Total) {
            chosen.insert(0, Template::Total);
            chosen.sort_by_key(|t| TEMPLATES.iter().position(|u| u == t));
        }
        for t in chosen {
            out.push(self.function(t, rng));
        }
        out
    }

    fn function(&self, t: Template, rng: &mut Rng) -> String {
        let Domain {
            ty,
            var,
            plural,
            key,
            label,
            measure,
            flag,
            list,
            item,
            state,
            ..
        } = *self;
        let mty = self.measure_ty();
        match t {
            Template::Flag => format!("fn is_{flag}_{var} : {ty} -> bool = \\{var} -> {var}.{flag}"),
            Template::Threshold => {
                let limit = self.measure_lit(rng.range(5, 90) * 10);
                let (word, op) = if rng.chance(50) {
                    ("large", ">")
                } else {
                    ("small", "<")
                };
                format!(
                    "fn {word}_{var} : {ty} -> bool = \\{var} -> {var}.{measure} {op} {limit}"
                )
            }
            Template::Rename => format!(
                "fn set_{var}_{label} : string -> {ty} -> {ty} = \\{label} {var} ->\n  {{ {var} with {{ {label} = {label} }} }}"
            ),
            Template::Bump => {
                let by = self.measure_lit(rng.range(1, 9) * if self.float { 5 } else { 1 });
                format!(
                    "fn bump_{var}_{measure} : {ty} -> {ty} = \\{var} ->\n  {{ {var} with {{ {measure} = {var}.{measure} + {by} }} }}"
                )
            }
            Template::Total => format!(
                "fn total_{measure}_of_{plural} : List {ty} -> {mty} = \\{plural} ->\n  sum (map (\\{var} -> {var}.{measure}) {plural})"
            ),
            Template::FilterFlag => format!(
                "fn {flag}_{plural} : List {ty} -> List {ty} = \\{plural} ->\n  filter (\\{var} -> {var}.{flag}) {plural}"
            ),
            Template::CountFlag => format!(
                "fn count_not_{flag}_{plural} : List {ty} -> i32 = \\{plural} ->\n  count (filter (\\{var} -> if {var}.{flag} then false else true) {plural})"
            ),
            Template::Find => format!(
                "fn find_{var} : i32 -> List {ty} -> Option {ty} = \\{key} {plural} ->\n  match (filter (\\{var} -> {var}.{key} == {key}) {plural})\n    when found::_ -> Some found\n    when [] -> None"
            ),
            Template::Report => {
                let sep = if rng.chance(50) { "; " } else { ", " };
                format!(
                    "fn {var}_report : List {ty} -> string = \\{plural} ->\n  foldl (\\acc {var} -> acc + describe_{var} {var} + \"{sep}\") \"\" {plural}"
                )
            }
            Template::AddItem => format!(
                "fn add_{var}_{item} : string -> {ty} -> {ty} = \\{item} {var} ->\n  {{ {var} with {{ {list} = {item} :: {var}.{list} }} }}"
            ),
            Template::ItemCount => format!(
                "fn {var}_{list}_count : {ty} -> i32 = \\{var} -> count {var}.{list}"
            ),
            Template::Before => format!(
                "fn {var}_before : {ty} -> {ty} -> bool = \\a b ->\n  if a.{key} == b.{key} then a.{label} < b.{label} else a.{key} < b.{key}"
            ),
            Template::StateLabel => {
                let arms: Vec<String> = self
                    .variants
                    .iter()
                    .map(|(name, field, text)| match field {
                        None => format!("    when {name} -> \"{text}\""),
                        Some((f, true)) => format!("    when {name} {{{f}}} -> \"{text}\" + {f}"),
                        Some((f, false)) => {
                            format!("    when {name} {{{f}}} -> \"{text}\" + show {f}")
                        }
                    })
                    .collect();
                format!(
                    "fn {}_label : {state} -> string = \\state ->\n  match state\n{}",
                    snake(state),
                    arms.join("\n")
                )
            }
            Template::StateIs => {
                let (name, field, _) = self.variants[rng.range(0, 2) as usize];
                let pattern = match field {
                    None => name.to_string(),
                    Some((f, _)) => format!("{name} {{{f}}}"),
                };
                format!(
                    "fn is_{} : {state} -> bool = \\state ->\n  match state\n    when {pattern} -> true\n    when _ -> false",
                    snake(name)
                )
            }
            Template::Totals => format!(
                "type {ty}Totals = {ty}Totals {{ {plural}: i32, {measure}: {mty} }}\n\nfn {var}_totals : List {ty} -> {ty}Totals = \\{plural} ->\n  {ty}Totals {{ {plural} = count {plural}, {measure} = total_{measure}_of_{plural} {plural} }}"
            ),
        }
    }
}

/// `InTransit` as `in_transit`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The generated declarations before a program of `tail_lines` lines, for a program of
/// about `LINES` in all: whole domains, in an order drawn from `seed`, while they fit.
pub fn prefix(seed: u64, tail_lines: usize) -> String {
    let mut rng = Rng(seed);
    let mut order: Vec<&Domain> = DOMAINS.iter().collect();
    rng.shuffle(&mut order);
    let (lo, hi) = (LINES.0 + 10, LINES.1 - 10);
    let mut out = String::new();
    let lines = |s: &str| s.lines().count();
    for d in order {
        let block = d.declarations(&mut rng).join("\n\n") + "\n\n";
        if lines(&out) + lines(&block) + tail_lines > hi {
            continue;
        }
        out.push_str(&block);
        if lines(&out) + tail_lines >= lo {
            break;
        }
    }
    out
}

/// The large tasks, from the `llms` tasks in `tasks` (the task directory), each checked:
/// the program has 600 to 700 lines, no error and one hole, of the source task's type; the
/// reference fill prints the expected output and the open hole does not.
pub fn generate(tasks: &Path, seed: u64) -> Result<Vec<Large>, String> {
    let llms = load_suite(tasks, "llms")?;
    let mut out = Vec::new();
    for (i, name) in SOURCES.iter().enumerate() {
        let source = llms
            .iter()
            .find(|t| t.id == format!("llms/{name}"))
            .ok_or_else(|| format!("no task `llms/{name}`"))?;
        let tail = source.program.lines().count();
        let program = format!(
            "{}{}",
            prefix(seed.wrapping_add(i as u64), tail),
            source.program
        );
        let meta = TaskMeta {
            source: Some(format!("llms/{name}.rex")),
            ..source.meta.clone()
        };
        let large = Large {
            name: name.to_string(),
            program,
            meta,
        };
        if let Err(e) = check(&large) {
            // Keep the failing program to look at.
            let kept = std::env::temp_dir().join(format!("rex-bench-large-{name}.rex"));
            let _ = std::fs::write(&kept, &large.program);
            return Err(format!("{e} (the program is in {})", kept.display()));
        }
        out.push(large);
    }
    Ok(out)
}

/// Whether a large task is what the suite promises (see `generate`).
pub fn check(large: &Large) -> Result<(), String> {
    let name = &large.name;
    let n = large.program.lines().count();
    if !(LINES.0..=LINES.1).contains(&n) {
        return Err(format!(
            "large/{name}: {n} lines, not {}..={}",
            LINES.0, LINES.1
        ));
    }
    let hole = hole_of(&large.program).map_err(|e| format!("large/{name}: {e}"))?;
    if hole.expected_type != large.meta.expected_type {
        return Err(format!(
            "large/{name}: the hole expects `{}`, not `{}`",
            hole.expected_type, large.meta.expected_type
        ));
    }
    let task = Task::single("large", large.program.clone(), large.meta.clone());
    let verdict = judge(&task, &hole, &large.meta.reference);
    if !verdict.passed {
        return Err(format!(
            "large/{name}: the reference fill does not pass: {:?}",
            verdict.output
        ));
    }
    if output_with_hole(&task, &hole).as_deref() == Ok(large.meta.expected.as_str()) {
        return Err(format!(
            "large/{name}: the output does not depend on the hole"
        ));
    }
    Ok(())
}

/// Replaces the tasks in `out` (`*.rex`, `*.json`) with `tasks`.
pub fn write(out: &Path, tasks: &[Large]) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot make `{}`: {e}", out.display()))?;
    for entry in std::fs::read_dir(out).map_err(|e| e.to_string())?.flatten() {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "rex" || e == "json") {
            std::fs::remove_file(&p)
                .map_err(|e| format!("cannot remove `{}`: {e}", p.display()))?;
        }
    }
    for t in tasks {
        write_task(out, &t.name, &t.program, &t.meta)?;
    }
    Ok(())
}
