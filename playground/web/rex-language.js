// Rex syntax highlighting: a line tokenizer that mirrors the compiler's lexer
// (compiler/src/syntax/lexer.rs) closely enough for colouring; the compiler stays the
// judge of what is valid.
import { StreamLanguage } from '@codemirror/language';
import { tags } from '@lezer/highlight';

const KEYWORDS = new Set([
  'fn', 'type', 'class', 'instance', 'import', 'pub', 'let', 'rec', 'in', 'if', 'then',
  'else', 'match', 'when', 'is', 'with', 'where', 'as',
]);

// A `{-` comment runs to the first `-}` (comments do not nest in Rex).
function blockComment(stream, state) {
  while (!stream.eol()) {
    if (stream.match('-}')) {
      state.inComment = false;
      return 'comment';
    }
    stream.next();
  }
  state.inComment = true;
  return 'comment';
}

export const rexLanguage = StreamLanguage.define({
  name: 'rex',
  startState: () => ({ inComment: false }),
  copyState: (state) => ({ inComment: state.inComment }),
  token(stream, state) {
    if (state.inComment) return blockComment(stream, state);
    if (stream.eatSpace()) return null;
    if (stream.match('{-')) return blockComment(stream, state);
    if (stream.match(/^"([^"\\]|\\.)*"?/)) return 'string';
    if (stream.match(/^\?[A-Za-z_][A-Za-z0-9_]*/) || stream.match('?')) return 'hole';
    if (stream.match(/^[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?/) || stream.match(/^[0-9]+/)) {
      return 'number';
    }
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
      const word = stream.current();
      if (KEYWORDS.has(word)) return 'keyword';
      if (word === 'true' || word === 'false') return 'bool';
      if (/^[A-Z]/.test(word)) return 'typeName';
      return 'variableName';
    }
    if (stream.match(/^[!#$%&*+./<=>@^|~:\-]+/) || stream.match('\\') || stream.match('λ') ||
        stream.match('→')) {
      return 'operator';
    }
    stream.next();
    return 'punctuation';
  },
  tokenTable: { hole: tags.special(tags.variableName) },
  languageData: { commentTokens: { block: { open: '{-', close: '-}' } } },
});
