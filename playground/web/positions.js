// Positions as the worker speaks them (0-based line, UTF-16 character) to CodeMirror
// offsets (UTF-16 code units from the document start) and back.

export function toPosition(doc, offset) {
  const line = doc.lineAt(offset);
  return { line: line.number - 1, character: offset - line.from };
}

export function toOffset(doc, { line, character }) {
  if (line >= doc.lines) return doc.length;
  const at = doc.line(line + 1);
  return Math.min(at.from + character, at.to);
}
