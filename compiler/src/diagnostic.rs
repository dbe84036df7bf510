//! Diagnostics: values, never panics. Each carries a stable code, a category and structured
//! data that tools (quick fixes, agents) read instead of parsing the message.

use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    Syntax,
    Name,
    Type,
    Module,
    Hole,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Syntax => "syntax",
            Category::Name => "name",
            Category::Type => "type",
            Category::Module => "module",
            Category::Hole => "hole",
        }
    }
}

/// Stable diagnostic codes. The numeric code never changes meaning once published.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// A token the grammar cannot accept here.
    UnexpectedToken,
    /// The input ended where more was expected.
    UnexpectedEof,
    /// A character that starts no token.
    InvalidCharacter,
    /// A string literal without its closing quote.
    UnterminatedString,
    /// A `{-` comment without its closing `-}`.
    UnterminatedComment,
    /// An unknown escape sequence in a string literal.
    InvalidEscape,
    /// Brackets or expressions nested beyond the parser's limit.
    NestingTooDeep,
    /// A numeric literal that does not fit any type.
    LiteralOutOfRange,
    /// More than one top-level result expression, or one that is not last.
    MisplacedExpression,
    UnknownName,
    UnknownType,
    UnknownClass,
    UnknownConstructor,
    DuplicateDefinition,
    TypeMismatch,
    NotAFunction,
    ConstructorArity,
    MissingInstance,
    AmbiguousType,
    NonExhaustiveMatch,
    FieldNotAvailable,
    InfiniteType,
    OverlappingInstances,
    KindArity,
    InstanceMethod,
    SignatureNotFunction,
    RecursionLimit,
    ModuleNotFound,
    MissingExport,
    ImportConflict,
    UnknownModule,
    /// A module file with a top-level expression (modules are declaration-only).
    ModuleExpression,
    /// Warning: a `match` arm that earlier arms make unreachable.
    RedundantArm,
    /// Information: a typed hole and its expected type.
    HoleInfo,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::UnexpectedToken => "E0101",
            Code::UnexpectedEof => "E0102",
            Code::InvalidCharacter => "E0103",
            Code::UnterminatedString => "E0104",
            Code::UnterminatedComment => "E0105",
            Code::InvalidEscape => "E0106",
            Code::NestingTooDeep => "E0107",
            Code::LiteralOutOfRange => "E0108",
            Code::MisplacedExpression => "E0109",
            Code::UnknownName => "E0201",
            Code::UnknownType => "E0202",
            Code::UnknownClass => "E0203",
            Code::UnknownConstructor => "E0204",
            Code::DuplicateDefinition => "E0205",
            Code::TypeMismatch => "E0301",
            Code::NotAFunction => "E0302",
            Code::ConstructorArity => "E0303",
            Code::MissingInstance => "E0304",
            Code::AmbiguousType => "E0305",
            Code::NonExhaustiveMatch => "E0306",
            Code::FieldNotAvailable => "E0307",
            Code::InfiniteType => "E0308",
            Code::OverlappingInstances => "E0309",
            Code::KindArity => "E0310",
            Code::InstanceMethod => "E0311",
            Code::SignatureNotFunction => "E0312",
            Code::RecursionLimit => "E0313",
            Code::ModuleNotFound => "E0401",
            Code::MissingExport => "E0402",
            Code::ImportConflict => "E0403",
            Code::UnknownModule => "E0404",
            Code::ModuleExpression => "E0405",
            Code::RedundantArm => "W0301",
            Code::HoleInfo => "I0001",
        }
    }

    pub fn category(self) -> Category {
        let code = self.as_str();
        match &code[..3] {
            "I00" => Category::Hole,
            "E01" => Category::Syntax,
            "E02" => Category::Name,
            "E03" | "W03" => Category::Type,
            _ => Category::Module,
        }
    }
}

/// Structured facts about a diagnostic, for tools. Serialised as an object tagged by
/// `kind` (`{"kind": "typeMismatch", "expected": "i32", "found": "string"}`), field names in
/// camelCase; spans are byte offsets, which front ends convert to their own positions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum DiagnosticData {
    None,
    /// The parser met `found` where one of `expected` (token descriptions) could stand.
    UnexpectedToken {
        found: String,
        expected: Vec<String>,
        /// The exact text of each keyword or symbol among `expected` (`->`, `in`), for
        /// tools that insert one; names, literals and operators are not listed.
        expected_tokens: Vec<String>,
        /// Byte spans of the tokens the parser skipped to recover.
        skipped: Vec<Span>,
    },
    /// The parser reached the end of an item while `expected` was still needed.
    UnexpectedEof {
        expected: Vec<String>,
        /// As in `UnexpectedToken`.
        expected_tokens: Vec<String>,
    },
    NestingTooDeep {
        limit: usize,
    },
    /// A name that is not in scope, with near-miss names that are.
    UnknownName {
        name: String,
        candidates: Vec<String>,
    },
    /// `expected` and `found` are printed types.
    TypeMismatch {
        expected: String,
        found: String,
    },
    NotAFunction {
        found: String,
    },
    MissingInstance {
        class: String,
        types: Vec<String>,
    },
    AmbiguousType {
        constraint: String,
    },
    /// Constructors a `match` does not cover.
    NonExhaustiveMatch {
        missing: Vec<String>,
    },
    FieldNotAvailable {
        field: String,
        #[serde(rename = "type")]
        ty: String,
    },
    ConstructorArity {
        name: String,
        expected: usize,
        found: usize,
    },
    /// An integer literal that does not fit the type it was given, and that type's range.
    LiteralOutOfRange {
        #[serde(rename = "type")]
        ty: String,
        min: String,
        max: String,
    },
    Module {
        path: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub category: Category,
    pub message: String,
    pub span: Span,
    pub notes: Vec<String>,
    pub data: DiagnosticData,
}

impl Diagnostic {
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            category: code.category(),
            message: message.into(),
            span,
            notes: Vec::new(),
            data: DiagnosticData::None,
        }
    }

    pub fn with_data(mut self, data: DiagnosticData) -> Diagnostic {
        self.data = data;
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The diagnostic with every span it carries moved by `delta` bytes (from item- or
    /// piece-relative to absolute).
    pub fn shifted(mut self, delta: i64) -> Diagnostic {
        self.span = self.span.shift(delta);
        if let DiagnosticData::UnexpectedToken { skipped, .. } = &mut self.data {
            for s in skipped {
                *s = s.shift(delta);
            }
        }
        self
    }
}
