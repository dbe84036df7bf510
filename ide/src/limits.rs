//! Every bound of the semantic-assistance pipelines, in one place. Scope size and candidate
//! search are the two things an adversarial (or merely large) program can inflate, so each
//! list an assist builds or returns is capped here; a capped list is cut, never an error.

/// The user's global schemes (functions and constructors of the file and its modules)
/// that one candidate search looks at, besides the prelude's (about a hundred, always
/// looked at). A program that declares more sees those nearest the position considered.
pub const MAX_SCANNED_SCHEMES: usize = 512;

/// In-scope values reported at a position and used as arguments, innermost first.
pub const MAX_IN_SCOPE_VALUES: usize = 64;

/// Entries of each candidate list (functions producing / accepting a type, adapters,
/// call forms).
pub const MAX_CANDIDATES: usize = 32;

/// Hole-fill candidates generated before verification (each costs one item re-check).
pub const MAX_FILL_CANDIDATES_TRIED: usize = 48;

/// Verified hole-fill candidates returned.
pub const MAX_FILL_CANDIDATES: usize = 12;

/// In-scope values tried for one parameter when a candidate call is built.
pub const MAX_ARGUMENT_CHOICES: usize = 3;

/// Parameters a function may have for a full call form to be built for it.
pub const MAX_CALL_ARITY: usize = 4;

/// Holes reported by a hole report (`rex.holesExpectedTypes`, `holes` of a loop step).
pub const MAX_HOLES: usize = 256;

/// Diagnostics reported around a position.
pub const MAX_LOCAL_DIAGNOSTICS: usize = 64;

/// Quick fixes offered at one position.
pub const MAX_QUICK_FIXES: usize = 24;

/// Hole-fill quick fixes offered for one hole (the best verified candidates).
pub const MAX_FILL_FIXES_PER_HOLE: usize = 3;

/// Near-miss names tried for one unknown name.
pub const MAX_NAME_REPLACEMENTS: usize = 5;

/// Types tried when annotating an ambiguous expression.
pub const MAX_ANNOTATION_TYPES: usize = 8;

/// Line ends tried when looking for the place of a missing `in`.
pub const MAX_MISSING_IN_SITES: usize = 8;

/// Bulk repair: the step bounds a request's `maxSteps` is clamped to.
pub const MIN_BULK_STEPS: u64 = 1;
pub const MAX_BULK_STEPS: u64 = 20;
/// Bulk repair: steps when the request names none.
pub const DEFAULT_BULK_STEPS: u64 = 3;

/// Bulk repair, aggressive strategy: consecutive steps that leave the diagnostic count
/// unchanged before the run stops with `noImprovement`.
pub const MAX_NO_IMPROVEMENT_STREAK: u64 = 2;

/// Text size (bytes) above which no assist re-checks edited copies of the document.
pub const MAX_VERIFIED_TEXT_BYTES: usize = 4 << 20;

/// Completion items returned at a position (the list is then marked incomplete).
pub const MAX_COMPLETIONS: usize = 200;

/// Completion: how many arguments a function may take for its result to count as a fit.
pub const MAX_FIT_ARGS: usize = 6;

/// Headers (values producing a target type) in a hole's context.
pub const MAX_HEADERS: usize = 12;

/// Type definitions in a hole's context (the prompt's token budget may drop more).
pub const MAX_TYPES: usize = 16;

/// Target types of an expected type (itself, arrow results, tuple, record and payload
/// parts), and how many steps inside it they are looked for.
pub const MAX_TARGET_TYPES: usize = 8;
pub const MAX_TARGET_DEPTH: usize = 3;

/// Lines a relevant header's definition may have for the prompt to show it whole.
pub const MAX_DEFINITION_LINES: usize = 6;

/// Arguments a relevant header may take before its result fits a target type.
pub const MAX_HEADER_ARGS: usize = 2;

/// Signatures of the functions the enclosing item calls, in a hole's context.
pub const MAX_CALLED_SIGNATURES: usize = 12;

/// In-scope values a hole's hover lists.
pub const MAX_HOVER_CONTEXT: usize = 12;

/// Enclosing expressions a wrapping quick fix tries when wrapping the marked one does not
/// help (the checker marks an operand when the operation's result type is what was
/// expected: `n + 1` where `Option i32` is wanted marks `n`).
pub const MAX_WRAP_ANCESTORS: usize = 3;
