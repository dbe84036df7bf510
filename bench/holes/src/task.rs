//! A benchmark task and how the committed ones are read. A task is `NAME.rex`, the program
//! with one hole as the model sees it, `NAME.json`, what is known about it (the reference
//! fill, the hole's type, the output the filled program must print), and for the MVU apps
//! `NAME.tests.rex`, the tests appended after filling: they are never part of the text the
//! fill loop reads, so they are not shown to the model.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The three suites, in the order their tasks are interleaved.
pub const SUITES: [&str; 3] = ["llms", "cut", "mvu"];

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
    /// The program with its hole, as the fill loop sees it.
    pub program: String,
    /// Appended after the hole is filled (the MVU apps' tests), never shown.
    pub epilogue: Option<String>,
    pub meta: TaskMeta,
}

impl Task {
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

/// The tasks of one suite (`dir/suite/*.rex` but the `.tests.rex` epilogues).
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
            Ok(Task {
                id: format!("{suite}/{name}"),
                suite: suite.to_string(),
                program,
                epilogue,
                meta,
            })
        })
        .collect()
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
