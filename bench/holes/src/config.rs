//! The configurations of the ablation table, each a row. The rows with a model are
//! `FillOptions` (so `rex fill` with the flags `rex_fill_flags` prints reproduces any of
//! them). The ablation rows, `bare` to `file+context`, each add one piece to the row above
//! it; they all put the whole file before the hole (`--prefix file`, what the fill loop did
//! before it learnt to send only the enclosing item), so that they stay comparable with
//! the tables measured before (whose `full` row is `file+context` here). The context rows
//! after them are `rex fill`'s defaults but for what goes into the prompt: `file` (the
//! whole file, no retrieval), `static-types` (the enclosing item and the relevant types)
//! and `full` (`rex fill` as it is: the enclosing item, types and headers); with
//! `file+context` (the whole file, types and headers) they measure what the file prefix
//! and the retrieved context each earn. The rows without a model are the semantic loop's
//! verified candidates alone and the two checks of the task set: `reference` (the fill is
//! the cut text: must pass everything) and `do-nothing` (the first value in scope of the
//! hole's type, or nothing).

use rex_llm::fill::FillOptions;
use rex_llm::prompt::{ContextLevel, PrefixMode};

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
        prefix: PrefixMode::File,
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
    // `rex fill`'s defaults, with the row's budgets.
    let defaults = FillOptions {
        samples,
        max_tokens,
        seed,
        ..FillOptions::default()
    };
    let file = FillOptions {
        prefix: PrefixMode::File,
        context: ContextLevel::None,
        ..defaults.clone()
    };
    let static_types = FillOptions {
        context: ContextLevel::Types,
        ..defaults.clone()
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
            name: "file+context",
            label: "+ candidates ranked in: rex fill, whole file",
            source: Source::Model(merged),
        },
        Config {
            name: "file",
            label: "rex fill, whole file, no retrieval",
            source: Source::Model(file),
        },
        Config {
            name: "static-types",
            label: "rex fill, item + types",
            source: Source::Model(static_types),
        },
        Config {
            name: "full",
            label: "rex fill, item + types + headers (default)",
            source: Source::Model(defaults),
        },
    ]
}

/// The `rex fill` flags that give `opts` (beside `--samples`, `--seed`, `--max-tokens`).
pub fn rex_fill_flags(opts: &FillOptions) -> String {
    let mut flags = vec![
        format!("--prefix {}", opts.prefix.name()),
        format!("--context {}", opts.context.name()),
        format!("--error-rounds {}", opts.error_rounds),
    ];
    if let Some(n) = opts.prompt_budget {
        flags.push(format!("--prompt-budget {n}"));
    }
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

    fn model_rows(rows: &[Config]) -> Vec<(&'static str, &FillOptions)> {
        rows.iter()
            .filter_map(|c| match &c.source {
                Source::Model(o) => Some((c.name, o)),
                _ => None,
            })
            .collect()
    }

    /// What `rex fill` lets a user set besides the budgets.
    fn knobs(
        o: &FillOptions,
    ) -> (
        PrefixMode,
        ContextLevel,
        usize,
        bool,
        bool,
        bool,
        Option<usize>,
    ) {
        (
            o.prefix,
            o.context,
            o.error_rounds,
            o.constrain,
            o.name_bias,
            o.candidates,
            o.prompt_budget,
        )
    }

    #[test]
    fn each_ablation_row_adds_one_thing_to_the_row_above() {
        let rows = all(4, 7, 64);
        let models = model_rows(&rows);
        assert_eq!(models.len(), 11);
        let ablation: Vec<&FillOptions> = models
            .iter()
            .take_while(|(name, _)| *name != "file")
            .map(|(_, o)| *o)
            .collect();
        assert_eq!(ablation.len(), 8);
        for o in &ablation {
            assert_eq!(
                o.prefix,
                PrefixMode::File,
                "the ablation sends the whole file"
            );
        }
        for pair in ablation.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let changes = [
                a.context != b.context,
                a.error_rounds != b.error_rounds,
                a.constrain != b.constrain,
                a.name_bias != b.name_bias,
                a.candidates != b.candidates,
            ];
            assert_eq!(changes.iter().filter(|c| **c).count(), 1, "{a:?} -> {b:?}");
        }
        for (_, o) in &models {
            assert_eq!((o.samples, o.seed, o.max_tokens), (4, 7, 64));
        }
    }

    #[test]
    fn the_context_rows_are_rex_fill_but_for_the_prompt() {
        let rows = all(4, 7, 64);
        let models = model_rows(&rows);
        let row = |name: &str| {
            models
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, o)| knobs(o))
                .unwrap()
        };
        let d = FillOptions::default();
        assert_eq!(row("full"), knobs(&d));
        assert_eq!(d.prefix, PrefixMode::Item);
        assert_eq!(
            row("file+context"),
            knobs(&FillOptions {
                prefix: PrefixMode::File,
                ..d.clone()
            })
        );
        assert_eq!(
            row("file"),
            knobs(&FillOptions {
                prefix: PrefixMode::File,
                context: ContextLevel::None,
                ..d.clone()
            })
        );
        assert_eq!(
            row("static-types"),
            knobs(&FillOptions {
                context: ContextLevel::Types,
                ..d.clone()
            })
        );
    }

    #[test]
    fn the_flags_name_the_prefix() {
        let d = FillOptions::default();
        assert_eq!(
            rex_fill_flags(&d),
            "--prefix item --context types+headers --error-rounds 2"
        );
        let budget = FillOptions {
            prefix: PrefixMode::File,
            prompt_budget: Some(512),
            ..d
        };
        assert!(rex_fill_flags(&budget).starts_with("--prefix file --context"));
        assert!(rex_fill_flags(&budget).contains("--prompt-budget 512"));
    }
}
