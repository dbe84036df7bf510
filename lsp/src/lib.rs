//! The Rex language server: documents, capabilities and execute commands, adapted onto
//! `rex-ide`. A thin adapter: every answer is computed by `rex-ide`.
