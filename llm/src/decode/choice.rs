//! Which token is tried next: the model's order (temperature, Gumbel noise, the name
//! bias), and when its first choices all fail, the whole grammar mask in an order that
//! grows a cut-short name and offers the semantic loop's names first.

use rand::rngs::StdRng;
use rand::Rng;

use super::text::{blank, spacing_ok, trailing_word};
use super::{oracle_keeps, Layers, Sample, FIRST_TRIES, MAX_FALLBACK_TRIES};
use crate::engine::{Engine, Token};

/// Log-probability bonus for a token that starts a type-compatible name (a nudge).
pub const NAME_BONUS: f32 = 2.0;

/// The grammar's whole mask in the model's order, offered to the oracle.
pub(super) fn fallback(
    engine: &dyn Engine,
    logits: &[f32],
    allowed: &dyn Fn(Token) -> bool,
    layers: &mut Layers<'_, '_>,
    bytes: &[u8],
    sample: &mut Sample,
) -> Option<Token> {
    // A name cut short goes on as one of the names it can become: those tokens first;
    // blanks last (they change nothing, so they are taken only when nothing else is);
    // otherwise the model's order. Each token's key is computed once.
    let partial = trailing_word(bytes);
    let names: &[String] = match layers.oracle.as_deref() {
        Some(oracle) if !partial.is_empty() => oracle.names(),
        _ => &[],
    };
    // Where a name starts, the semantic loop's type-compatible names (the bias layer's)
    // come next: the model's own wishes have all failed here.
    let starting_name = partial.is_empty() && !layers.names.is_empty();
    let mut keyed: Vec<(bool, bool, bool, f32, Token)> = Vec::new();
    for t in 0..logits.len() as Token {
        if !allowed(t) || engine.is_end(t) {
            continue;
        }
        let piece = engine.token_bytes(t);
        if !spacing_ok(bytes, &piece) {
            continue;
        }
        let grows = !names.is_empty() && grows_name(&partial, &piece, names);
        let known = starting_name && name_bonus(layers.names, &piece) > 0.0;
        keyed.push((blank(&piece), !grows, !known, -logits[t as usize], t));
    }
    keyed.sort_unstable_by(|a, b| {
        (a.0, a.1, a.2)
            .cmp(&(b.0, b.1, b.2))
            .then(a.3.total_cmp(&b.3))
            .then(a.4.cmp(&b.4))
    });
    keyed
        .into_iter()
        .map(|(.., t)| t)
        .take(MAX_FALLBACK_TRIES)
        .find(|&t| oracle_keeps(layers, bytes, engine, t, sample))
}

/// Whether `piece` after the cut-short name `partial` goes on towards one of `names` (or
/// completes one and leaves it).
pub(super) fn grows_name(partial: &str, piece: &[u8], names: &[String]) -> bool {
    let Ok(piece) = std::str::from_utf8(piece) else {
        return false;
    };
    let word = format!("{partial}{piece}");
    names.iter().any(|n| {
        n.starts_with(&word)
            || word
                .strip_prefix(n.as_str())
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// The order in which tokens are tried: by logit over temperature plus Gumbel noise (a
/// sample without replacement), the bias bonus added; greedy when the temperature is 0.
pub(super) fn token_order(
    logits: &[f32],
    names: &[String],
    engine: &dyn Engine,
    bytes: &[u8],
    temperature: f32,
    rng: &mut StdRng,
) -> Vec<Token> {
    // Only the head of the distribution matters for the first tries.
    let mut head: Vec<Token> = (0..logits.len() as Token).collect();
    let k = (FIRST_TRIES * 4).min(head.len());
    if k < head.len() {
        head.select_nth_unstable_by(k, |a, b| {
            logits[*b as usize].total_cmp(&logits[*a as usize])
        });
        head.truncate(k);
    }
    let starting_name = !bytes
        .last()
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
    let mut keyed: Vec<(f32, Token)> = head
        .into_iter()
        .map(|t| {
            let mut key = logits[t as usize];
            if starting_name && !names.is_empty() {
                key += name_bonus(names, &engine.token_bytes(t));
            }
            if temperature > 0.0 {
                let u: f32 = rng.random_range(f32::EPSILON..1.0);
                key = key / temperature - (-u.ln()).ln();
            }
            (key, t)
        })
        .collect();
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
    keyed.into_iter().map(|(_, t)| t).collect()
}

/// The bonus for a token that starts one of `names` (after optional spaces or brackets).
pub(super) fn name_bonus(names: &[String], token: &[u8]) -> f32 {
    let Ok(s) = std::str::from_utf8(token) else {
        return 0.0;
    };
    let word = s.trim_start_matches([' ', '(', '\n']);
    // A lambda where a function is expected (the caller lists `\` then), its binder a
    // plain name if the token starts one (`\_` would make `_x` of the model's `x`).
    if let Some(binder) = word.strip_prefix('\\') {
        let plain = binder.is_empty() || binder.starts_with(|c: char| c.is_ascii_lowercase());
        return if plain && names.iter().any(|n| n == "\\") {
            NAME_BONUS
        } else {
            0.0
        };
    }
    if word.len() < 2 {
        return 0.0;
    }
    if names
        .iter()
        .any(|n| n.starts_with(word) || word.starts_with(n.as_str()))
    {
        NAME_BONUS
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_bonus_rewards_the_start_of_a_known_name() {
        let names = vec!["qc_label_from_sensor".to_string()];
        assert_eq!(name_bonus(&names, b" qc"), NAME_BONUS);
        assert_eq!(name_bonus(&names, b"(qc_label"), NAME_BONUS);
        assert_eq!(name_bonus(&names, b" Ok"), 0.0);
        assert_eq!(name_bonus(&names, b" "), 0.0);
        assert_eq!(name_bonus(&names, b" \\"), 0.0);
        assert_eq!(name_bonus(&["\\".to_string()], b" \\x"), NAME_BONUS);
        assert_eq!(name_bonus(&["\\".to_string()], b"\\"), NAME_BONUS);
        assert_eq!(name_bonus(&["\\".to_string()], b"\\_"), 0.0);
    }
}
