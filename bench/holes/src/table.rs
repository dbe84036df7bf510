//! The ablation table: one row per configuration, as text for people and as JSON.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::bench::{TaskResult, Totals};
use crate::config::{rex_fill_flags, Config, Source};

/// One configuration's results.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub name: String,
    pub label: String,
    /// The `rex fill` flags of a model row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rex_fill_flags: Option<String>,
    pub totals: Totals,
    pub pass_at_1_percent: f64,
    pub pass_at_k_percent: f64,
    pub well_typed_percent: f64,
    pub unfinished_percent: f64,
    pub tokens_per_fill: f64,
    pub seconds_per_fill: f64,
    pub tokens_per_second: f64,
    /// The mean prompt in tokens (`Stats::prompt_tokens`) of a model row's tasks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<f64>,
    /// Tests passed by the first fills, summed over the tasks (an MVU app has 14, any
    /// other task one): (passed, tests).
    pub tests_passed: (usize, usize),
    pub tests_passed_percent: f64,
    /// pass@1 per suite (`llms`, `cut`, `mvu`, `large`): (passed, tasks).
    pub by_suite: BTreeMap<String, (usize, usize)>,
    pub tasks: Vec<TaskResult>,
}

impl Row {
    pub fn new(config: &Config, tasks: Vec<TaskResult>) -> Row {
        let totals = Totals::of(&tasks);
        let mut by_suite: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for t in &tasks {
            let suite = t.id.split('/').next().unwrap_or("").to_string();
            let e = by_suite.entry(suite).or_default();
            e.0 += usize::from(t.pass_at_1);
            e.1 += 1;
        }
        Row {
            name: config.name.to_string(),
            label: config.label.to_string(),
            rex_fill_flags: match &config.source {
                Source::Model(o) => Some(rex_fill_flags(o)),
                _ => None,
            },
            pass_at_1_percent: totals.pass_at_1_percent(),
            pass_at_k_percent: totals.pass_at_k_percent(),
            well_typed_percent: totals.well_typed_percent(),
            unfinished_percent: totals.unfinished_percent(),
            tokens_per_fill: totals.tokens_per_fill(),
            seconds_per_fill: totals.seconds_per_fill(),
            tokens_per_second: totals.tokens_per_second(),
            prompt_tokens: match config.source {
                Source::Model(_) => totals.prompt_tokens_per_fill(),
                _ => None,
            },
            tests_passed: (totals.tests_passed, totals.tests),
            tests_passed_percent: totals.tests_passed_percent(),
            totals,
            by_suite,
            tasks,
        }
    }
}

/// The whole run, as `--json` prints it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub engine: String,
    pub model: String,
    pub samples: usize,
    pub seed: u64,
    pub max_tokens: usize,
    pub tasks: usize,
    pub rows: Vec<Row>,
}

/// The table as text.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "engine: {}", report.engine);
    let _ = writeln!(out, "model:  {}", report.model);
    let _ = writeln!(
        out,
        "{} tasks; {} samples per fill, seed {}, at most {} tokens per sample; pass@k with k = {}",
        report.tasks, report.samples, report.seed, report.max_tokens, report.samples
    );
    let _ = writeln!(out);
    let k = format!("pass@{}", report.samples);
    let _ = writeln!(
        out,
        "| {:<44} | {:>7} | {:>7} | {:>18} | {:>10} | {:>10} | {:>13} | {:>11} | {:>7} | {:>8} |",
        "configuration",
        "pass@1",
        k,
        "tests passed",
        "well-typed",
        "unfinished",
        "prompt tokens",
        "tokens/fill",
        "s/fill",
        "tokens/s"
    );
    let rule = |n: usize| "-".repeat(n);
    let _ = writeln!(
        out,
        "|{}|{}:|{}:|{}:|{}:|{}:|{}:|{}:|{}:|{}:|",
        rule(46),
        rule(8),
        rule(8),
        rule(19),
        rule(11),
        rule(11),
        rule(14),
        rule(12),
        rule(8),
        rule(9)
    );
    for r in &report.rows {
        let model = r.rex_fill_flags.is_some();
        let dash = |s: String| if model { s } else { "-".to_string() };
        let (passed, tests) = r.tests_passed;
        let _ = writeln!(
            out,
            "| {:<44} | {:>6.1}% | {:>6.1}% | {:>18} | {:>9.1}% | {:>10} | {:>13} | {:>11} | {:>7.2} | {:>8} |",
            r.label,
            r.pass_at_1_percent,
            r.pass_at_k_percent,
            format!("{passed}/{tests} ({:.1}%)", r.tests_passed_percent),
            r.well_typed_percent,
            dash(format!("{:.1}%", r.unfinished_percent)),
            r.prompt_tokens
                .map_or_else(|| "-".to_string(), |n| format!("{n:.0}")),
            dash(format!("{:.1}", r.tokens_per_fill)),
            r.seconds_per_fill,
            dash(format!("{:.1}", r.tokens_per_second)),
        );
    }
    let suites: Vec<&String> = report
        .rows
        .first()
        .map(|r| r.by_suite.keys().collect())
        .unwrap_or_default();
    if !suites.is_empty() {
        let _ = writeln!(out);
        let head: Vec<String> = suites.iter().map(|s| format!("{s:>10}")).collect();
        let _ = writeln!(out, "pass@1 by suite:  {:<44} {}", "", head.join(" "));
        for r in &report.rows {
            let cells: Vec<String> = suites
                .iter()
                .map(|s| {
                    let (p, n) = r.by_suite.get(*s).copied().unwrap_or((0, 0));
                    format!("{:>10}", format!("{p}/{n}"))
                })
                .collect();
            let _ = writeln!(out, "                  {:<44} {}", r.label, cells.join(" "));
        }
    }
    let flags: Vec<&Row> = report
        .rows
        .iter()
        .filter(|r| r.rex_fill_flags.is_some())
        .collect();
    if !flags.is_empty() {
        let counts: Vec<String> = flags
            .iter()
            .map(|r| {
                format!(
                    "{} {}/{}",
                    r.name, r.totals.ill_typed_finished, r.totals.attempts
                )
            })
            .collect();
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "samples that finished an ill-typed expression: {}",
            counts.join(", ")
        );
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "each model row as `rex fill FILE --samples {} --seed {} --max-tokens {} ...`:",
            report.samples, report.seed, report.max_tokens
        );
        for r in flags {
            let _ = writeln!(
                out,
                "  {:<12} {}",
                r.name,
                r.rex_fill_flags.as_deref().unwrap_or("")
            );
        }
    }
    out
}
