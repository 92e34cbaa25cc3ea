// Package wordpiece is the BERT tokenizer in Go: the BasicTokenizer
// (Hugging Face's BertNormalizer and BertPreTokenizer) followed by greedy
// longest-match-first WordPiece over a vocabulary, giving the same token ids
// as the reference implementation (the `tokenizers` library reading a
// model's tokenizer.json) without special tokens.
//
// Normalization, per character of the text:
//
//   - clean text: NUL, U+FFFD and control characters (categories Cc, Cf,
//     Co and unassigned code points, but not \t \n \r) are removed;
//     whitespace becomes a space;
//   - Chinese characters (the CJK Unified Ideograph blocks) become words of
//     their own;
//   - accents are stripped (canonical decomposition, nonspacing marks
//     dropped), by default whenever the text is lower-cased;
//   - lower-casing (full Unicode mapping).
//
// The normalized text is split on whitespace and around every punctuation
// character (ASCII punctuation and Unicode category P), then each word is
// cut into the longest vocabulary pieces from its start, the pieces after
// the first carrying the "##" prefix. A word longer than 100 characters, or
// with a part no piece matches, becomes the unknown token.
//
// The vocabulary (Vocab) is a byte string with its hash index inside, read
// in place: a vocabulary embedded in a binary costs nothing to open.
// Tokenizing allocates only to grow the caller's slice of ids.
//
// The character classes are the reference's own (tables.go, generated from
// it), so the ids agree with the reference's on every Unicode code point,
// not only where Go's Unicode tables and the reference's older ones agree;
// the tests check a varied text token for token and every code point by
// digest (testdata).
//
// The package knows nothing of embedders or models; it must not import
// other autorag packages.
package wordpiece
