// Package transformer runs BERT-family sentence encoders (all-MiniLM-L6-v2,
// bge-small-en-v1.5, e5-small-v2) in process, in pure Go: nothing to
// install, no cgo.
//
// # What it computes
//
// Text is tokenized by the model's own tokenizer.json (package wordpiece),
// prefixed as the model card says (e5: "query: "/"passage: "; bge: an
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
// repositories ship them) or safetensors (package weights). Int8 weights
// are dequantized once on load and every product runs in float32: the
// activations are not quantized, which keeps the vectors closer to the
// float32 model than onnxruntime's own int8 run is (onnxruntime also
// quantizes activations per tensor at run time). testdata/reference.json,
// written by testdata/reference.py, holds onnxruntime's vectors on the same
// weights; TestReference requires cosine ≥ 0.999 to them.
//
// Matrix products use an AVX2/FMA kernel (internal/gemm) and softmax and
// GELU an eight-lane exponential (internal/fastmath), with portable Go
// versions for other machines.
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
// maximum length and prefixes into the embedder's model string: any of
// them changing re-embeds through the cache.
//
// It must never import the engine, the CLI or package models: it is given
// file paths and settings (Config).
package transformer
