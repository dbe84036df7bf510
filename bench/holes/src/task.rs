//! A benchmark task and how the committed ones are read. A task is `NAME.rex`, the program
//! with one hole as the model sees it, `NAME.json`, what is known about it (the reference
//! fill, the hole's type, the output the filled program must print), and for the MVU apps
//! `NAME.tests.rex`, the tests appended after filling: they are never part of the text the
//! fill loop reads, so they are not shown to the model. The modules a program imports
//! (the MVU apps' `lib/NAME.rex`) are read with it, relative to its file, as `rex fill`
//! reads them; the loader takes only the `.rex` files directly in a suite's directory as
//! tasks, so a module in a subdirectory is never mistaken for one.

use std::path::{Path, PathBuf};

use rex_compiler::db::{Database, SourceFile};
use serde::{Deserialize, Serialize};

/// The suites, in the order their tasks are interleaved.
pub const SUITES: [&str; 4] = ["llms", "cut", "mvu", "large"];

/// What was cut out (or left out) to make the hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A variable.
    Name,
    /// A function application.
    Application,
    /// A parenthesised expression, parentheses included.
    Group,
    Lambda,
    /// The body of a `match` arm.
    ArmBody,
    /// The body of an MVU app's `update`.
    Update,
    /// A hole as the LLMS guide writes it.
    Guide,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Name => "name",
            Kind::Application => "application",
            Kind::Group => "group",
            Kind::Lambda => "lambda",
            Kind::ArmBody => "arm-body",
            Kind::Update => "update",
            Kind::Guide => "guide",
        }
    }
}

/// `NAME.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskMeta {
    pub kind: Kind,
    /// The conformance program the task was cut from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The fill that makes the program print `expected` (for cut tasks, the cut text).
    pub reference: String,
    /// The hole's expected type, as the checker prints it.
    pub expected_type: String,
    /// Exactly what the filled program prints (`rex run`'s stdout, final newline dropped).
    pub expected: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// `suite/NAME`.
    pub id: String,
    pub suite: String,
    /// The program's path relative to the task directory (`mvu/todo.rex`): its name in the
    /// compiler's database, so that its imports resolve to `modules` as `rex fill` resolves
    /// them beside the file.
    pub path: String,
    /// The program with its hole, as the fill loop sees it.
    pub program: String,
    /// Appended after the hole is filled (the MVU apps' tests), never shown.
    pub epilogue: Option<String>,
    /// The module files the program imports, (path relative to the task directory, text).
    pub modules: Vec<(String, String)>,
    pub meta: TaskMeta,
}

/// A compiler database holding `modules` and the program `text` at `path` (the file that is
/// checked, filled or run).
pub fn database(path: &str, text: &str, modules: &[(String, String)]) -> (Database, SourceFile) {
    let mut db = Database::new();
    if !modules.is_empty() {
        db.set_modules(modules.to_vec(), Vec::new());
    }
    let file = db.add_file(path, text.to_string());
    (db, file)
}

impl Task {
    /// A task of one program without modules or epilogue (the generators' candidates).
    pub fn single(suite: &str, program: String, meta: TaskMeta) -> Task {
        Task {
            id: String::new(),
            suite: suite.to_string(),
            path: "task.rex".to_string(),
            program,
            epilogue: None,
            modules: Vec::new(),
            meta,
        }
    }

    /// A database holding the task's modules and `text` (the program, filled or not) under
    /// the program's path.
    pub fn database(&self, text: &str) -> (Database, SourceFile) {
        database(&self.path, text, &self.modules)
    }

    /// The tests a fill can pass: the elements of the expected output when the task has
    /// tests (an MVU app's list of booleans), else one.
    pub fn tests(&self) -> usize {
        match (&self.epilogue, bool_list(&self.meta.expected)) {
            (Some(_), Some(list)) if !list.is_empty() => list.len(),
            _ => 1,
        }
    }

    /// The tests passed by a fill whose program printed `output` (`None`: it did not
    /// type-check or run). An app's output is its list of test results: the `true`s count
    /// (none when the list is not one of as many booleans as the expected one); any other
    /// task passes its one test when it prints exactly the expected output.
    pub fn tests_passed(&self, output: Option<&str>) -> usize {
        let Some(output) = output else {
            return 0;
        };
        let total = self.tests();
        if self.epilogue.is_some() && total > 1 {
            match bool_list(output) {
                Some(list) if list.len() == total => list.iter().filter(|b| **b).count(),
                _ => 0,
            }
        } else {
            usize::from(output == self.meta.expected)
        }
    }

    /// The program the judge runs: the shown part with `fill` written over the hole's
    /// bytes `hole`, then the epilogue.
    pub fn filled(&self, hole: (usize, usize), fill: &str) -> String {
        let mut text = format!(
            "{}{}{}",
            &self.program[..hole.0],
            fill,
            &self.program[hole.1..]
        );
        if let Some(e) = &self.epilogue {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(e);
        }
        text
    }
}

/// `[true, false, ...]` as booleans; `None` when `text` is not such a list.
pub fn bool_list(text: &str) -> Option<Vec<bool>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    if inner.is_empty() {
        return Some(Vec::new());
    }
    inner
        .split(',')
        .map(|b| match b.trim() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        })
        .collect()
}

/// Where the committed tasks are.
pub fn tasks_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tasks")
}

/// Every task under `dir`, the suites interleaved (one of each in turn, so that the first
/// N of the list, `--limit N`, samples every suite), each suite in name order.
pub fn load_all(dir: &Path) -> Result<Vec<Task>, String> {
    let mut suites: Vec<Vec<Task>> = Vec::new();
    for suite in SUITES {
        suites.push(load_suite(dir, suite)?);
    }
    let mut out = Vec::new();
    let longest = suites.iter().map(Vec::len).max().unwrap_or(0);
    for i in 0..longest {
        for s in &suites {
            if let Some(t) = s.get(i) {
                out.push(t.clone());
            }
        }
    }
    Ok(out)
}

/// The tasks of one suite (`dir/suite/*.rex` but the `.tests.rex` epilogues; the modules
/// they import, in subdirectories such as `dir/suite/lib/`, are read with them).
pub fn load_suite(dir: &Path, suite: &str) -> Result<Vec<Task>, String> {
    let sdir = dir.join(suite);
    let entries = match std::fs::read_dir(&sdir) {
        Ok(d) => d,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read `{}`: {e}", sdir.display())),
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".rex").map(str::to_string))
        .filter(|n| !n.ends_with(".tests"))
        .filter(|n| sdir.join(format!("{n}.rex")).is_file())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let read = |file: String| {
                let p = sdir.join(&file);
                std::fs::read_to_string(&p)
                    .map_err(|e| format!("cannot read `{}`: {e}", p.display()))
            };
            let program = read(format!("{name}.rex"))?;
            let meta_text = read(format!("{name}.json"))?;
            let meta: TaskMeta = serde_json::from_str(&meta_text)
                .map_err(|e| format!("{suite}/{name}.json: {e}"))?;
            let tests = sdir.join(format!("{name}.tests.rex"));
            let epilogue = tests
                .is_file()
                .then(|| read(format!("{name}.tests.rex")))
                .transpose()?;
            let path = if suite.is_empty() {
                format!("{name}.rex")
            } else {
                format!("{suite}/{name}.rex")
            };
            let mut sources = vec![(path.clone(), program.clone())];
            sources.extend(epilogue.iter().map(|e| (path.clone(), e.clone())));
            let modules = load_modules(dir, &sources);
            Ok(Task {
                id: format!("{suite}/{name}"),
                suite: suite.to_string(),
                path,
                program,
                epilogue,
                modules,
                meta,
            })
        })
        .collect()
}

/// Every module file that `sources` (paths relative to `dir`) import, read from under
/// `dir` with the compiler's walk over the imports (the way `rex fill` reads them beside the
/// file), as (path relative to `dir`, text). An import that cannot be read is left out:
/// the checker reports it.
pub fn load_modules(dir: &Path, sources: &[(String, String)]) -> Vec<(String, String)> {
    rex_compiler::modules::load(sources, &[], &mut |path: &str| {
        rex_ide::files::read_regular_file(&dir.join(path).display().to_string())
    })
}

/// Writes a task's files (the generator's output).
pub fn write_task(dir: &Path, name: &str, program: &str, meta: &TaskMeta) -> Result<(), String> {
    let write = |file: String, text: &str| {
        let p = dir.join(file);
        std::fs::write(&p, text).map_err(|e| format!("cannot write `{}`: {e}", p.display()))
    };
    write(format!("{name}.rex"), program)?;
    let json = serde_json::to_string_pretty(meta).map_err(|e| e.to_string())?;
    write(format!("{name}.json"), &format!("{json}\n"))
}
