//! The static retrieval of a hole (`rex_ide::retrieval`): target types, relevant types
//! across modules, scored headers, the enclosing item; and the commands that show it.

mod common;

use common::*;
use rex_compiler::db::{Database, SourceFile};
use rex_ide::context::Context;
use rex_ide::hole_context::hole_context;
use rex_ide::retrieval::{retrieve, Retrieval};

fn at(f: &Fixture) -> Retrieval {
    retrieve(&Context::new(&f.db, f.file, f.offset))
}

/// `main` (with one `<CURSOR>`) in a database that also holds the module files.
fn program(modules: &[(&str, &str)], main: &str) -> (Database, SourceFile, usize) {
    let offset = main.find(CURSOR).expect("a cursor");
    let text = main.replacen(CURSOR, "", 1);
    let mut db = Database::new();
    db.set_modules(
        modules
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect(),
        Vec::new(),
    );
    let file = db.add_file("main.rex", text);
    (db, file, offset)
}

const APP: &str = "pub type Todo = Todo { title: string, done: bool }
pub type Model = Model { todos: List Todo, input: string, next_id: i32 }
pub type Action = SetInput string | AddTodo | Toggle i32
type Hidden = Hidden { secret: i32 }

pub fn init : string -> Model = \\s -> Model { todos = [], input = s, next_id = 0 }

pub fn add_todo : Model -> string -> Model = \\m title ->
  { m with { todos = Todo { title = title, done = false } :: m.todos } }

pub fn titles : Model -> List string = \\m -> map (\\t -> t.title) m.todos
";

#[test]
fn targets_are_arrow_results_and_parts() {
    let f = fixture(
        "type Model = Model { n: i32 }\ntype Action = Inc | Dec\n\
         fn update : Model -> Action -> Model = <CURSOR>?\n",
    );
    assert_eq!(
        at(&f).targets,
        [
            "Model -> Action -> Model",
            "Action -> Model",
            "Model",
            "i32"
        ]
    );
    let f = fixture(
        "type Todo = Todo { title: string }\n\
         let x : (Option Todo, i32) = <CURSOR>? in x\n",
    );
    assert_eq!(
        at(&f).targets,
        ["(Option Todo, i32)", "Option Todo", "i32", "Todo", "string"]
    );
}

#[test]
fn imported_types_come_back_with_their_definitions() {
    let (db, file, offset) = program(
        &[("app.rex", APP)],
        "import app (*)\nfn set_input : Model -> string -> Model = \\m s -> <CURSOR>?\n\n\
         set_input (init \"\") \"x\"\n",
    );
    let c = hole_context(&db, file, offset);
    assert_eq!(c.expected_type.as_deref(), Some("Model"));
    assert_eq!(
        c.relevant_types,
        [
            "{- from app.rex, written Model here -}\n\
             pub type Model = Model { todos: List Todo, input: string, next_id: i32 }",
            "{- from app.rex, written Todo here -}\n\
             pub type Todo = Todo { title: string, done: bool }"
        ]
    );
    assert_eq!(c.in_scope_values, ["s : string", "m : Model"]);
    // A value with no parameters is a header too, and the best one: it is a `Model`.
    assert_eq!(
        c.relevant_headers[..2],
        [
            "init : string -> Model",
            "add_todo : Model -> string -> Model"
        ]
    );
    let text = rex_ide::chatlsp::retrieve_relevant_types(&db, file, offset);
    assert!(text.contains("pub type Todo = Todo"), "{text}");
}

#[test]
fn a_qualified_import_is_written_qualified() {
    let (db, file, offset) = program(
        &[("app.rex", APP)],
        "import app as A\n\n{- Update the model for each action. -}\n\
         fn update : A.Model -> A.Action -> A.Model = <CURSOR>?\n\nupdate (A.init \"\") A.AddTodo\n",
    );
    let r = retrieve(&Context::new(&db, file, offset));
    assert_eq!(
        r.expected.as_deref(),
        Some("A.Model -> A.Action -> A.Model")
    );
    let names: Vec<&str> = r.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["A.Model", "A.Action", "A.Todo"]);
    assert!(r
        .types
        .iter()
        .all(|t| t.module.as_deref() == Some("app.rex")));
    let headers: Vec<&str> = r.headers.iter().map(|h| h.signature.as_str()).collect();
    assert_eq!(
        headers,
        [
            "A.init : string -> A.Model",
            "A.add_todo : A.Model -> string -> A.Model",
            "A.titles : A.Model -> List string"
        ]
    );
    // The enclosing item brings the comment that says what it is for.
    let item = r.enclosing.expect("an item");
    assert!(
        item.source
            .starts_with("{- Update the model for each action. -}\nfn update"),
        "{}",
        item.source
    );
    let expected = rex_ide::chatlsp::expected_type(&db, file, offset);
    assert!(
        expected.contains("`A.Model -> A.Action -> A.Model`"),
        "{expected}"
    );
}

#[test]
fn types_are_followed_by_identity_not_by_name() {
    // The file's own `Model` is not the module's, and a type the hole cannot reach stays
    // out however it is named.
    let (db, file, offset) = program(
        &[("app.rex", APP)],
        "import app as A\ntype Model = Model { count: i32 }\n\
         fn bump : Model -> Model = \\m -> <CURSOR>?\n\nbump (Model { count = 1 })\n",
    );
    let r = retrieve(&Context::new(&db, file, offset));
    let names: Vec<(&str, Option<&str>)> = r
        .types
        .iter()
        .map(|t| (t.name.as_str(), t.module.as_deref()))
        .collect();
    assert_eq!(names, [("Model", None)]);
}

#[test]
fn headers_are_scored_by_fit_then_arguments_at_hand_then_mentions() {
    let f = fixture(
        "type Model = Model { n: i32 }\n\
         fn start : i32 -> Model = \\k -> Model { n = k }\n\
         fn bump : Model -> i32 -> Model = \\m k -> m\n\
         fn grow : Model -> Model = \\m -> m\n\
         fn view : Model -> string = \\m -> \"\"\n\
         fn anything : i32 -> 'a = \\n -> anything n\n\
         fn update : Model -> Model = \\m -> <CURSOR>?\n\nupdate (start 1)\n",
    );
    let r = at(&f);
    let names: Vec<&str> = r.headers.iter().map(|h| h.name.as_str()).collect();
    // `grow` applies to `m`, in scope; `start` and `bump` need an `i32` the hole does not
    // have, `bump` two arguments; `view` only mentions `Model`. `anything` fits everything
    // and says nothing; `update` is the item itself.
    assert_eq!(names, ["grow", "start", "bump", "view"]);
    assert!(r.headers.windows(2).all(|w| w[0].score > w[1].score));
}

#[test]
fn the_enclosing_item_lists_what_it_calls() {
    let f = fixture(
        "fn double : i32 -> i32 = \\x -> x * 2\n\
         fn half : i32 -> i32 = \\x -> x / 2\n\
         fn both : i32 -> i32 = \\x -> double (half x) + <CURSOR>?\n\nboth 3\n",
    );
    let item = at(&f).enclosing.expect("an item");
    assert_eq!(item.calls, ["double : i32 -> i32", "half : i32 -> i32"]);
    assert!(item.source.starts_with("fn both"));
}

#[test]
fn a_big_file_keeps_the_prelude_and_the_nearby_code_in_reach() {
    // More user functions than one candidate search scans: the ones by the hole and the
    // prelude's constructors must still be offered.
    let mut src = String::new();
    for n in 0..700 {
        src.push_str(&format!("fn f{n} : i32 -> i32 = \\x -> x + {n}\n"));
    }
    src.push_str("fn near : string -> Result string string = \\s -> Ok s\n");
    src.push_str("let r : Result string string = <CURSOR>? in r\n");
    let f = fixture(&src);
    let ctx = Context::new(&f.db, f.file, f.offset);
    assert!(ctx.globals.iter().any(|g| g.name == "near"));
    assert!(ctx.globals.iter().any(|g| g.name == "Ok"));
    let r = retrieve(&ctx);
    assert_eq!(r.headers.first().map(|h| h.name.as_str()), Some("near"));
}
