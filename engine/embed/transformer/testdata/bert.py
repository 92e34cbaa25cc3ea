"""Independent numpy BERT reference: weights from ONNX (dequantized) or safetensors."""
import json, re, struct, numpy as np, onnx
from onnx import numpy_helper

def load_onnx(path):
    m = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    W = {}
    for n in m.graph.node:
        if n.op_type == "MatMulInteger":
            out = n.output[0]
            mm = re.match(r"/(.*)/MatMul_output_0", out)
            key = mm.group(1).replace("/", ".") + ".weight"
            base = n.input[1][: -len("_quantized")]
            q = init[n.input[1]].astype(np.float32); zp = init[base + "_zero_point"].astype(np.float32); sc = init[base + "_scale"]
            W[key] = ((q - zp) * sc).T.copy()  # [out,in] like torch
    for k, v in init.items():
        if k.endswith("_quantized") and k.startswith("embeddings."):
            b = k[: -len("_quantized")]
            W[b.replace("weight", "weight")] = (v.astype(np.float32) - init[b + "_zero_point"].astype(np.float32)) * init[b + "_scale"]
        elif not k.startswith("onnx::") and v.dtype == np.float32 and not k.endswith("_scale"):
            W[k] = v
    return W

def load_st(path):
    b = open(path, "rb").read(); n = struct.unpack("<Q", b[:8])[0]; h = json.loads(b[8:8+n]); W = {}
    for k, v in h.items():
        if k == "__metadata__" or v["dtype"] != "F32": continue
        s, e = v["data_offsets"]; W[k.removeprefix("bert.")] = np.frombuffer(b[8+n+s:8+n+e], np.float32).reshape(v["shape"])
    return W

def ln(x, g, b, eps=1e-12):
    m = x.mean(-1, keepdims=True); v = ((x-m)**2).mean(-1, keepdims=True); return (x-m)/np.sqrt(v+eps)*g+b

def gelu(x):
    return 0.5*x*(1+np.vectorize(__import__("math").erf)(x/np.sqrt(2)).astype(np.float32))

def fq(x):
    x=x.astype(np.float32); mn=np.float32(min(0.0,x.min())); mx=np.float32(max(0.0,x.max())); sc=np.float32((mx-mn)/np.float32(255.0))
    zp=np.clip(np.round(np.float32(-mn)/sc),0,255)
    q=np.clip(np.round(x/sc)+zp,0,255)
    return ((q-zp)*sc).astype(np.float32)

def forward(W, ids, heads=12, quant=False):
    Q = fq if quant else (lambda t: t)
    ids = np.asarray(ids); L = len(ids)
    x = W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][:L] + W["embeddings.token_type_embeddings.weight"][0]
    x = ln(x, W["embeddings.LayerNorm.weight"], W["embeddings.LayerNorm.bias"])
    nl = 1 + max(int(k.split(".")[2]) for k in W if k.startswith("encoder.layer."))
    H = x.shape[1]; d = H // heads
    for i in range(nl):
        p = f"encoder.layer.{i}."
        lin = lambda t, n: Q(t) @ W[p+n+".weight"].T + W[p+n+".bias"]
        q = lin(x, "attention.self.query").reshape(L, heads, d).transpose(1,0,2)
        k = lin(x, "attention.self.key").reshape(L, heads, d).transpose(1,0,2)
        v = lin(x, "attention.self.value").reshape(L, heads, d).transpose(1,0,2)
        s = q @ k.transpose(0,2,1) / np.sqrt(d); s = np.exp(s - s.max(-1, keepdims=True)); s /= s.sum(-1, keepdims=True)
        a = (s @ v).transpose(1,0,2).reshape(L, H)
        x = ln(lin(a, "attention.output.dense") + x, W[p+"attention.output.LayerNorm.weight"], W[p+"attention.output.LayerNorm.bias"])
        h = gelu(lin(x, "intermediate.dense"))
        x = ln(lin(h, "output.dense") + x, W[p+"output.LayerNorm.weight"], W[p+"output.LayerNorm.bias"])
    return x
