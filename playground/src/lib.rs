//! The playground's WebAssembly entry points: JSON strings in and out, over rex-compiler
//! and rex-ide.
