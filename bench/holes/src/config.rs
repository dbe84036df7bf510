//! The configurations of the ablation table, each a row. The rows with a model are
//! `FillOptions` (so `rex fill` with the flags `rex_fill_flags` prints reproduces any of
//! them); each adds one piece to the row above it. The rows without a model are the
//! semantic loop's verified candidates alone and the two checks of the task set:
//! `reference` (the fill is the cut text: must pass everything) and `do-nothing` (the
//! first value in scope of the hole's type, or nothing).

use rex_llm::fill::FillOptions;
use rex_llm::prompt::ContextLevel;

/// Where a row's fills come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// The task's reference fill.
    Reference,
    /// The first local (then top-level) name that type-checks at the hole, or nothing.
    DoNothing,
    /// The semantic loop's verified candidates, in its order.
    Candidates,
    /// The fill loop with these options.
    Model(FillOptions),
}

#[derive(Clone, Debug)]
pub struct Config {
    /// The row's name, as `--config` takes it.
    pub name: &'static str,
    /// What the row adds, for the table.
    pub label: &'static str,
    pub source: Source,
}

impl Config {
    pub fn uses_model(&self) -> bool {
        matches!(self.source, Source::Model(_))
    }
}

/// The rows, in the table's order, for `samples` samples and `seed`. `max_tokens` is the
/// token budget of one sample.
pub fn all(samples: usize, seed: u64, max_tokens: usize) -> Vec<Config> {
    // The model alone: no static context, no error rounds, no constraints, no help from
    // the semantic loop. Each row below adds one thing to the row above it.
    let bare = FillOptions {
        samples,
        error_rounds: 0,
        context: ContextLevel::None,
        constrain: false,
        max_tokens,
        seed,
        name_bias: false,
        candidates: false,
        ..FillOptions::default()
    };
    let typed = FillOptions {
        context: ContextLevel::ExpectedType,
        ..bare.clone()
    };
    let types = FillOptions {
        context: ContextLevel::Types,
        ..typed.clone()
    };
    let headers = FillOptions {
        context: ContextLevel::TypesHeaders,
        ..types.clone()
    };
    let rounds = FillOptions {
        error_rounds: 2,
        ..headers.clone()
    };
    let constrained = FillOptions {
        constrain: true,
        ..rounds.clone()
    };
    let biased = FillOptions {
        name_bias: true,
        ..constrained.clone()
    };
    let merged = FillOptions {
        candidates: true,
        ..biased.clone()
    };
    vec![
        Config {
            name: "reference",
            label: "check: reference fill (the cut text)",
            source: Source::Reference,
        },
        Config {
            name: "do-nothing",
            label: "check: first in-scope value or nothing",
            source: Source::DoNothing,
        },
        Config {
            name: "candidates",
            label: "semantic loop's candidates (no model)",
            source: Source::Candidates,
        },
        Config {
            name: "bare",
            label: "model, no context",
            source: Source::Model(bare),
        },
        Config {
            name: "type",
            label: "+ expected type",
            source: Source::Model(typed),
        },
        Config {
            name: "types",
            label: "+ relevant types",
            source: Source::Model(types),
        },
        Config {
            name: "headers",
            label: "+ relevant headers",
            source: Source::Model(headers),
        },
        Config {
            name: "rounds",
            label: "+ error rounds (2)",
            source: Source::Model(rounds),
        },
        Config {
            name: "constrained",
            label: "+ constrained decoding",
            source: Source::Model(constrained),
        },
        Config {
            name: "biased",
            label: "+ candidate biasing",
            source: Source::Model(biased),
        },
        Config {
            name: "full",
            label: "+ candidates ranked in (rex fill)",
            source: Source::Model(merged),
        },
    ]
}

/// The `rex fill` flags that give `opts` (beside `--samples`, `--seed`, `--max-tokens`).
pub fn rex_fill_flags(opts: &FillOptions) -> String {
    let mut flags = vec![
        format!("--context {}", opts.context.name()),
        format!("--error-rounds {}", opts.error_rounds),
    ];
    if !opts.constrain {
        flags.push("--no-constrain".into());
    }
    if !opts.name_bias {
        flags.push("--no-name-bias".into());
    }
    if !opts.candidates {
        flags.push("--no-candidates".into());
    }
    flags.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_model_row_adds_one_thing_to_the_row_above() {
        let rows = all(4, 7, 64);
        let models: Vec<&FillOptions> = rows
            .iter()
            .filter_map(|c| match &c.source {
                Source::Model(o) => Some(o),
                _ => None,
            })
            .collect();
        assert_eq!(models.len(), 8);
        for pair in models.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let changes = [
                a.context != b.context,
                a.error_rounds != b.error_rounds,
                a.constrain != b.constrain,
                a.name_bias != b.name_bias,
                a.candidates != b.candidates,
            ];
            assert_eq!(changes.iter().filter(|c| **c).count(), 1, "{a:?} -> {b:?}");
            assert_eq!((a.samples, a.seed, a.max_tokens), (4, 7, 64));
        }
        // The last row is what `rex fill` does by default, but for the budget flags.
        let last = models.last().unwrap();
        let d = FillOptions::default();
        assert_eq!(
            (
                last.context,
                last.error_rounds,
                last.constrain,
                last.name_bias,
                last.candidates
            ),
            (
                d.context,
                d.error_rounds,
                d.constrain,
                d.name_bias,
                d.candidates
            )
        );
    }
}
