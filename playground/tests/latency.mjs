// Keystroke-to-diagnostics latency on a long program: type one character at a time inside
// a function body and read, from the page, the time from the edit to the applied
// diagnostics of that edit. Prints figures; asserts nothing about them.

/// A program of `lines` lines: functions of four lines and a blank, comments to pad, a result.
export function longProgram(lines) {
  const fns = Math.max(1, Math.floor((lines - 1) / 5));
  const out = [];
  for (let i = 0; i < fns; i++) {
    out.push(
      `fn f${i} : i32 -> i32 = \\n ->`,
      `  let a = n + ${i} in`,
      `  let b = a * 2 in`,
      i === 0 ? '  if b > 10 then b - 1 else a + b' : `  if b > 10 then f${i - 1} (b - 1) else a + b`,
      '',
    );
  }
  out.push(`f${fns - 1} 3`);
  while (out.length < lines) out.unshift(`{- padding line ${lines - out.length} -}`);
  return `${out.join('\n')}\n`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export async function measureKeystrokeLatency(page, { lines, keystrokes, analysed }) {
  const text = longProgram(lines);
  await page.evaluate((t) => window.rexPlayground.setProgram(t), text);
  await analysed(page);
  // Type `+ x` and its deletions in the middle of the program: an unknown name appears
  // and disappears, so every keystroke changes what the diagnostics say.
  const anchor = text.indexOf('let b = a * 2', Math.floor(text.length / 2)) + 'let b = a * 2'.length;
  await page.evaluate((at) => {
    const v = window.rexPlayground.view;
    v.focus();
    v.dispatch({ selection: { anchor: at } });
  }, anchor);
  const keys = [];
  while (keys.length < keystrokes) keys.push(' ', '+', ' ', 'x', 'Backspace', 'Backspace', 'Backspace', 'Backspace');
  keys.length = keystrokes;
  const samples = [];
  const analysis = [];
  for (const key of keys) {
    await page.keyboard.press(key);
    await analysed(page);
    const last = await page.evaluate(() => window.rexPlayground.timings.at(-1));
    samples.push(last.ms);
    analysis.push(last.analysisMs);
  }
  const lineCount = text.split('\n').length - 1;
  console.log(`keystroke to diagnostics on ${lineCount} lines: median ${median(samples).toFixed(1)} ms, ` +
    `max ${Math.max(...samples).toFixed(1)} ms over ${samples.length} keystrokes ` +
    `(analysis in the worker: median ${median(analysis).toFixed(1)} ms)`);
}
