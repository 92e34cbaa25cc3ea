"""Writes reference.json: token ids from each model's own tokenizer.json (Hugging
Face tokenizers) and the vectors onnxruntime computes for them, for the Go
forward pass to be checked against (reference_test.go).

    python reference.py MODELDIR > reference.json

MODELDIR holds the files `make models` installs (one directory per model).
Needs: pip install onnxruntime onnx numpy tokenizers.

Two references per ONNX model:
  ort      the published int8 file as onnxruntime runs it (weights int8 and,
           through DynamicQuantizeLinear, activations quantized to uint8 per
           tensor at run time);
  ort_f32  the same file rewritten (fp32graph.py) so that the same int8
           weights multiply float32 activations: the arithmetic the Go
           encoder does.
For the safetensors checkpoint, ort_f32 is the MiniLM graph with its float32
weights put in.
"""
import json, os, sys, tempfile
import numpy as np, onnxruntime as ort
from tokenizers import Tokenizer
import fp32graph

ort.set_default_logger_severity(3)

SENTENCES = [
    "How much protein should a person eat per day?",
    "Statins lower LDL cholesterol and reduce cardiovascular risk in adults.",
    "func (c *Cache) Evict() { delete(c.items, c.oldest()) }",
    "Die Katze schläft auf dem warmen Sofa, während es draußen regnet.",
    "a",
    " ".join(["The mitochondrion is the powerhouse of the cell and it produces ATP through oxidative phosphorylation."] * 40),
]

MODELS = [  # name, onnx file, safetensors (optional), pooling, max length, prefix
    ("all-minilm-l6-v2-q", "all-minilm-l6-v2-q/model.onnx", None, "mean", 256, ""),
    ("all-minilm-l6-v2", "all-minilm-l6-v2-q/model.onnx", "all-minilm-l6-v2/model.safetensors", "mean", 256, ""),
    ("bge-small-en-v1.5-q", "bge-small-en-v1.5-q/model.onnx", None, "cls", 512, ""),
    ("e5-small-v2-q", "e5-small-v2-q/model.onnx", None, "mean", 512, "passage: "),
]

def run(sess, ids):
    a = np.array([ids], np.int64)
    return sess.run(None, {"input_ids": a, "attention_mask": np.ones_like(a), "token_type_ids": np.zeros_like(a)})[0][0]

def pool(h, how):
    v = h[0] if how == "cls" else h.mean(0)
    return v / np.linalg.norm(v)

def main(d):
    out = {"sentences": SENTENCES, "models": []}
    tmp = tempfile.mkdtemp()
    for name, onnx_file, st, how, maxlen, prefix in MODELS:
        tdir = os.path.dirname(os.path.join(d, onnx_file))
        tok = Tokenizer.from_file(os.path.join(tdir, "tokenizer.json"))
        tok.no_padding(); tok.enable_truncation(maxlen)
        f32 = os.path.join(tmp, name + ".onnx")
        fp32graph.rewrite(os.path.join(d, onnx_file), f32, os.path.join(d, st) if st else None)
        s32 = ort.InferenceSession(f32, providers=["CPUExecutionProvider"])
        s8 = None if st else ort.InferenceSession(os.path.join(d, onnx_file), providers=["CPUExecutionProvider"])
        m = {"name": name, "pooling": how, "max_len": maxlen, "cases": []}
        for t in SENTENCES:
            ids = tok.encode(prefix + t).ids
            c = {"ids": ids, "ort_f32": [round(float(x), 6) for x in pool(run(s32, ids), how)]}
            if s8 is not None:
                c["ort"] = [round(float(x), 6) for x in pool(run(s8, ids), how)]
            m["cases"].append(c)
        out["models"].append(m)
    json.dump(out, sys.stdout, separators=(",", ":"))

if __name__ == "__main__":
    main(sys.argv[1])
