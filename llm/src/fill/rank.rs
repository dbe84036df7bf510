//! Ranking the fills of one hole: best first by the model's mean log-probability per
//! token, each text once (spacing and parentheses around a single token aside).

use super::RankedFill;

/// Best first by mean log-probability; the same text (spacing aside) once, keeping its
/// best score, a model fill before the candidate it equals.
pub fn rank(mut fills: Vec<RankedFill>) -> Vec<RankedFill> {
    fills.sort_by(|a, b| {
        b.logprob
            .total_cmp(&a.logprob)
            .then((a.source as u8).cmp(&(b.source as u8)))
    });
    let mut out: Vec<RankedFill> = Vec::new();
    for f in fills {
        let key = normalise(&f.text);
        if !out.iter().any(|g| normalise(&g.text) == key) {
            out.push(f);
        }
    }
    out
}

/// The text as tokens, with parentheses around a single token dropped: `mk(x)`,
/// `mk (x)` and `mk x` are one fill.
fn normalise(s: &str) -> String {
    let (tokens, _) = rex_compiler::syntax::lexer::lex(s);
    let mut words: Vec<&str> = tokens
        .iter()
        .map(|t| &s[t.span.start as usize..t.span.end as usize])
        .collect();
    let mut i = 0;
    while i + 2 < words.len() {
        if words[i] == "(" && words[i + 2] == ")" && !matches!(words[i + 1], "(" | ")") {
            words.remove(i + 2);
            words.remove(i);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fill::FillSource;

    fn fill(text: &str, logprob: f64, source: FillSource) -> RankedFill {
        RankedFill {
            text: text.into(),
            logprob,
            source,
            rounds: 0,
        }
    }

    #[test]
    fn ranking_is_by_likelihood_without_duplicates() {
        let ranked = rank(vec![
            fill("mk x", -0.5, FillSource::Candidate),
            fill("mk  x", -0.2, FillSource::Model),
            fill("mk(x)", -0.3, FillSource::Model),
            fill("x", -1.0, FillSource::Candidate),
        ]);
        let texts: Vec<&str> = ranked.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts, ["mk  x", "x"]);
        assert_eq!(ranked[0].source, FillSource::Model);
    }
}
