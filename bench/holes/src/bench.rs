//! Running one configuration over the tasks: the fills of each task's hole, in the row's
//! order, judged by running the filled program, and the row's totals.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rex_ide::catalog::Origin;
use rex_ide::context::Context;
use rex_ide::fill::fills_at;
use rex_llm::decode::End;
use rex_llm::fill::{FillSource, Filler};
use serde::Serialize;

use crate::config::{Config, Source};
use crate::judge::{judge, task_hole, Hole};
use crate::task::{Kind, Task};

/// What one configuration did with one task.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskResult {
    pub id: String,
    pub kind: Option<Kind>,
    /// The fills, best first (the first `k` are judged).
    pub fills: Vec<String>,
    /// Whether each judged fill passed.
    pub passed: Vec<bool>,
    /// For the model rows, every fill of the ranking with its score, source and verdict
    /// (to study the ranking).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranking: Vec<RankedVerdict>,
    pub pass_at_1: bool,
    pub pass_at_k: bool,
    /// The task's tests (an MVU app's 14, one for any other task) ...
    pub tests: usize,
    /// ... and how many the first fill passes (none when it does not type-check or run).
    pub tests_passed: usize,
    /// Fills proposed (the model's decoded samples; one for the rows without a model).
    pub attempts: usize,
    pub well_typed_attempts: usize,
    /// Samples that did not finish an expression (out of tokens, or no token could go on).
    pub unfinished_attempts: usize,
    /// Samples that finished an expression that does not type-check.
    pub ill_typed_finished: usize,
    /// Tokens decoded.
    pub tokens: usize,
    pub seconds: f64,
    /// Seconds spent decoding (for tokens/s).
    pub decode_seconds: f64,
    /// For the model rows, the first round's prompt in tokens (`Stats::prompt_tokens`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<usize>,
    /// Prompt tokens evaluated over every round (0 for a prompt already in the cache).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefilled_tokens: Option<usize>,
    /// The static context's parts in the prompt.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub context_parts: Vec<String>,
    /// Parts left out to fit the prompt budget.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// Why the task could not be run, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One fill of a model row's ranking, judged.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankedVerdict {
    pub text: String,
    pub logprob: f64,
    pub source: FillSource,
    pub passed: bool,
}

/// A row's totals over its tasks.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub tasks: usize,
    pub pass_at_1: usize,
    pub pass_at_k: usize,
    pub attempts: usize,
    pub well_typed_attempts: usize,
    pub unfinished_attempts: usize,
    pub ill_typed_finished: usize,
    pub tokens: usize,
    pub seconds: f64,
    pub decode_seconds: f64,
    pub tests: usize,
    pub tests_passed: usize,
    /// Prompt tokens, summed over the tasks that made a prompt ...
    pub prompt_tokens: usize,
    /// ... and how many those are.
    pub prompted: usize,
}

impl Totals {
    pub fn add(&mut self, r: &TaskResult) {
        self.tasks += 1;
        self.pass_at_1 += usize::from(r.pass_at_1);
        self.pass_at_k += usize::from(r.pass_at_k);
        self.attempts += r.attempts;
        self.well_typed_attempts += r.well_typed_attempts;
        self.unfinished_attempts += r.unfinished_attempts;
        self.ill_typed_finished += r.ill_typed_finished;
        self.tokens += r.tokens;
        self.seconds += r.seconds;
        self.decode_seconds += r.decode_seconds;
        self.tests += r.tests;
        self.tests_passed += r.tests_passed;
        if let Some(n) = r.prompt_tokens {
            self.prompt_tokens += n;
            self.prompted += 1;
        }
    }

    pub fn of<'a>(results: impl IntoIterator<Item = &'a TaskResult>) -> Totals {
        let mut t = Totals::default();
        for r in results {
            t.add(r);
        }
        t
    }

    fn share(n: usize, of: usize) -> f64 {
        if of == 0 {
            0.0
        } else {
            100.0 * n as f64 / of as f64
        }
    }

    pub fn pass_at_1_percent(&self) -> f64 {
        Totals::share(self.pass_at_1, self.tasks)
    }
    pub fn pass_at_k_percent(&self) -> f64 {
        Totals::share(self.pass_at_k, self.tasks)
    }
    pub fn well_typed_percent(&self) -> f64 {
        Totals::share(self.well_typed_attempts, self.attempts)
    }
    pub fn unfinished_percent(&self) -> f64 {
        Totals::share(self.unfinished_attempts, self.attempts)
    }
    pub fn tokens_per_fill(&self) -> f64 {
        self.tokens as f64 / self.tasks.max(1) as f64
    }
    pub fn seconds_per_fill(&self) -> f64 {
        self.seconds / self.tasks.max(1) as f64
    }
    pub fn tests_passed_percent(&self) -> f64 {
        Totals::share(self.tests_passed, self.tests)
    }
    /// The mean prompt, in tokens, of the tasks that made one (`None` when none did).
    pub fn prompt_tokens_per_fill(&self) -> Option<f64> {
        (self.prompted > 0).then(|| self.prompt_tokens as f64 / self.prompted as f64)
    }
    pub fn tokens_per_second(&self) -> f64 {
        if self.decode_seconds > 0.0 {
            self.tokens as f64 / self.decode_seconds
        } else {
            0.0
        }
    }
}

/// Runs `config` on `task`, judging the first `k` fills. `filler` is needed by the model
/// rows only.
pub fn run_task(config: &Config, task: &Task, k: usize, filler: Option<&mut Filler>) -> TaskResult {
    let mut result = TaskResult {
        id: task.id.clone(),
        kind: Some(task.meta.kind),
        tests: task.tests(),
        ..TaskResult::default()
    };
    let hole = match task_hole(task) {
        Ok(h) => h,
        Err(e) => {
            result.error = Some(e);
            return result;
        }
    };
    let started = Instant::now();
    match &config.source {
        Source::Reference => {
            result.fills = vec![task.meta.reference.clone()];
        }
        Source::DoNothing => {
            result.fills = do_nothing(task, &hole).into_iter().collect();
        }
        Source::Candidates => {
            let (db, file) = task.database(&task.program);
            let ctx = Context::new(&db, file, hole.span.0);
            result.fills = fills_at(&ctx)
                .into_iter()
                .map(|f| f.candidate.replacement)
                .collect();
        }
        Source::Model(opts) => {
            let Some(filler) = filler else {
                result.error = Some("no model loaded".into());
                return result;
            };
            let (db, file) = task.database(&task.program);
            let cancel = AtomicBool::new(false);
            match filler.fill_at(&db, file, hole.position, opts, &mut |_| {}, &cancel) {
                Ok(r) => {
                    result.fills = r.fills.iter().map(|f| f.text.clone()).collect();
                    result.ranking = r
                        .fills
                        .iter()
                        .map(|f| RankedVerdict {
                            text: f.text.clone(),
                            logprob: f.logprob,
                            source: f.source,
                            passed: judge(task, &hole, &f.text).passed,
                        })
                        .collect();
                    result.attempts = r.attempts.len();
                    result.well_typed_attempts = r.attempts.iter().filter(|a| a.well_typed).count();
                    result.unfinished_attempts = r
                        .attempts
                        .iter()
                        .filter(|a| matches!(a.end, End::MaxTokens | End::DeadEnd | End::Repeating))
                        .count();
                    result.ill_typed_finished = r
                        .attempts
                        .iter()
                        .filter(|a| a.end == End::Finished && !a.well_typed)
                        .count();
                    result.tokens = r.stats.tokens;
                    result.prompt_tokens = Some(r.stats.prompt_tokens);
                    result.prefilled_tokens = Some(r.stats.prefilled_tokens);
                    result.context_parts = r.stats.context_parts.clone();
                    result.dropped = r.stats.dropped.clone();
                    if r.stats.tokens_per_second > 0.0 {
                        result.decode_seconds = r.stats.tokens as f64 / r.stats.tokens_per_second;
                    }
                }
                Err(e) => result.error = Some(e.to_string()),
            }
        }
    }
    result.seconds = started.elapsed().as_secs_f64();
    let verdicts: Vec<_> = result
        .fills
        .iter()
        .take(k.max(1))
        .map(|f| judge(task, &hole, f))
        .collect();
    if !config.uses_model() {
        // One proposal per task: the first fill, or none (which is not well typed).
        result.attempts = 1;
        result.well_typed_attempts = usize::from(verdicts.first().is_some_and(|v| v.well_typed));
    }
    result.passed = verdicts.iter().map(|v| v.passed).collect();
    result.pass_at_1 = result.passed.first().copied().unwrap_or(false);
    result.pass_at_k = result.passed.iter().any(|p| *p);
    result.tests_passed = verdicts.first().map_or(0, |v| {
        let output = v.output.as_deref().ok().filter(|_| v.well_typed);
        task.tests_passed(output)
    });
    result
}

/// The do-nothing fill: the first name in scope at the hole, innermost local first, then
/// the program's own top-level names, with which the program type-checks.
fn do_nothing(task: &Task, hole: &Hole) -> Option<String> {
    let (db, file) = task.database(&task.program);
    let ctx = Context::new(&db, file, hole.span.0);
    let locals = ctx.locals.iter().map(|l| l.name.clone());
    let globals = ctx
        .globals
        .iter()
        .filter(|g| matches!(g.origin, Origin::UserFunction | Origin::UserConstructor))
        .map(|g| g.name.clone());
    locals
        .chain(globals)
        .find(|name| judge(task, hole, name).well_typed)
}
