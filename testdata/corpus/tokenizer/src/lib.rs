//! Tokenizer for product titles and descriptions.
//!
//! Text is normalized to NFKD, combining marks are stripped (so "Café" and
//! "cafe" match), words are found with Unicode word boundaries (UAX #29), and
//! SKU-like tokens such as `HB-2041-XL` are kept whole *and* split into parts.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

/// A token and the byte range of the original word it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// Options controlling tokenization.
#[derive(Debug, Clone)]
pub struct Options {
    /// Tokens shorter than this (in chars) are dropped.
    pub min_len: usize,
    /// Words removed from the output.
    pub stop_words: &'static [&'static str],
    /// Emit the parts of hyphenated SKUs in addition to the whole SKU.
    pub split_skus: bool,
}

pub const ENGLISH_STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on",
    "or", "the", "to", "with",
];

impl Default for Options {
    fn default() -> Self {
        Options { min_len: 1, stop_words: ENGLISH_STOP_WORDS, split_skus: true }
    }
}

/// Folds a word: NFKD normalization, combining marks removed, lowercase.
pub fn fold(word: &str) -> String {
    word.nfkd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase).collect()
}

fn looks_like_sku(word: &str) -> bool {
    word.contains('-')
        && word.chars().any(|c| c.is_ascii_digit())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Splits text into tokens.
pub fn tokenize(text: &str, opts: &Options) -> Vec<Token> {
    let mut out = Vec::new();
    // Split on whitespace first so that SKUs survive as one unit; word
    // boundaries inside each chunk then separate punctuation from words.
    for (chunk_start, chunk) in whitespace_chunks(text) {
        let trimmed = chunk.trim_matches(|c: char| !c.is_alphanumeric());
        if opts.split_skus && looks_like_sku(trimmed) {
            let offset = chunk_start + chunk.find(trimmed).unwrap_or(0);
            push(&mut out, opts, trimmed, offset);
            let mut part_start = offset;
            for part in trimmed.split('-') {
                push(&mut out, opts, part, part_start);
                part_start += part.len() + 1;
            }
            continue;
        }
        for (i, word) in chunk.unicode_word_indices() {
            push(&mut out, opts, word, chunk_start + i);
        }
    }
    out
}

fn push(out: &mut Vec<Token>, opts: &Options, word: &str, start: usize) {
    let folded = fold(word);
    if folded.chars().count() < opts.min_len || opts.stop_words.contains(&folded.as_str()) {
        return;
    }
    out.push(Token { text: folded, start, end: start + word.len() });
}

fn whitespace_chunks(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str) -> Vec<String> {
        tokenize(input, &Options::default()).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn folds_accents_and_case() {
        assert_eq!(texts("Café CRÈME brûlée"), ["cafe", "creme", "brulee"]);
    }

    #[test]
    fn keeps_and_splits_skus() {
        assert_eq!(texts("Jacket HB-2041-XL."), ["jacket", "hb-2041-xl", "hb", "2041", "xl"]);
    }

    #[test]
    fn drops_stop_words() {
        assert_eq!(texts("the best of the rest"), ["best", "rest"]);
    }

    #[test]
    fn offsets_point_into_input() {
        let input = "  wool  Socks";
        for t in tokenize(input, &Options::default()) {
            assert_eq!(fold(&input[t.start..t.end]), t.text);
        }
    }
}
