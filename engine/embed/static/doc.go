// Package static is the built-in offline embedder: potion-base-8M, a
// model2vec static model (MIT; see README.md), whose table is embedded in
// the binary.
//
// A text's vector is the mean of its tokens' rows, L2-normalized, as
// model2vec computes it:
//
//   - The text is cut into WordPiece tokens by the BERT uncased tokenizer
//     the model was distilled with (package wordpiece, checked token for
//     token against the reference); unknown tokens are dropped.
//   - Each token has one 256-d row, stored as int8 with a per-row scale.
//     The rows carry their own weight (the model applied Zipf weighting
//     when it was distilled), so no weighting is computed here.
//   - Unlike model2vec's encode, which stops at 512 tokens, every token of
//     the text counts: chunks are short, and their tail is text too.
//
// The table is a read-only byte string in the binary, read in place (see
// internal/tab): New costs a header check and building no map, and a
// lookup reads the rows it needs. A text with no known token gets the zero
// vector.
//
// The package must not import the engine.
package static
