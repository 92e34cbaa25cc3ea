// Package local is the built-in offline embedder: static GloVe 6B 100d word
// vectors (PDDL 1.0; see README.md) combined into one vector per text.
//
// A text's vector is the weighted sum of its words' vectors, minus its
// projection on a fixed common direction, L2-normalized:
//
//   - Tokens are maximal runs of Unicode letters and digits, lower-cased.
//     A token the table lacks is split where its spelling marks word
//     boundaries (camelCase, HTTPServer, sha256; snake_case and dotted.names
//     split already), and each part is looked up on its own. A word still
//     unknown is tried without accents, then without a common English
//     suffix, and last gets a deterministic vector from its character
//     n-grams (fallback.go).
//   - Weights come from the word's GloVe frequency rank, a corpus-independent
//     stand-in for its frequency (Zipf: p(w) ∝ 1/rank). The default is SIF,
//     a/(a+p(w)) with a = 1e-5, which leaves the most frequent words
//     ("the", "of") almost no weight; unknown words weigh like the rarest.
//   - The common direction is fixed in the table (computed by the generator
//     from the vocabulary, not from any corpus), so a text's vector never
//     depends on the other texts: the index can grow incrementally.
//
// The word table is a read-only byte string embedded in the binary and
// probed in place through an open-addressing hash index: New costs a header
// check, the package has no init work, and a lookup does not allocate.
package local
