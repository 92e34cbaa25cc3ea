// Package weights reads the tensors of a BERT-family encoder from the two
// file formats the models ship in, into float32 tensors named as the
// Hugging Face (torch) checkpoint names them ("encoder.layer.0.attention.
// self.query.weight"):
//
//   - safetensors (model.safetensors): an 8-byte header length, a JSON
//     header of name → dtype, shape, byte offsets, then the raw tensors.
//     F32, F16 and BF16 are read.
//   - ONNX (model.onnx, model_quantized.onnx): only the graph's
//     initializers and the nodes that consume them are decoded, with
//     autorag's internal/protowire (the subset of the protobuf module's
//     encoding/protowire it needs, without that module's package inits at
//     every process start). The generated ONNX protobuf package is not
//     published as a Go module of its own, and the graph is never executed
//     here (the encoder is written out in Go), so the few fields needed are
//     read by number. Int8/uint8 tensors quantized by onnxruntime's
//     quantize_dynamic (X_quantized, X_scale, X_zero_point) are
//     dequantized to float32 on load: the weights keep their int8 values,
//     the arithmetic runs in float32.
//
// It must never import anything of autorag beyond its parent's internal
// packages and internal/protowire: it knows files and tensors, not
// embedders.
package weights
