"""Writes the reference token ids the Go tests compare against.

    pip install tokenizers==0.23.3
    cd engine/embed/wordpiece && python3 testdata/reference.py

text.golden: for each line of text.txt (split on \\n only), the ids the
reference tokenizer gives it without special tokens, space-separated.
codepoints.sha256: the SHA-256 of the lines "<hex code point> <ids>\\n",
for every code point c but the surrogates, of the text a+c+"b "+c+" q"+c.
"""
import hashlib
import sys

from tokenizers import Tokenizer

tok = Tokenizer.from_file("testdata/potion-base-8M.tokenizer.json")

lines = open("testdata/text.txt", encoding="utf-8", newline="").read().split("\n")[:-1]
with open("testdata/text.golden", "w") as out:
    for enc in tok.encode_batch(lines, add_special_tokens=False):
        out.write(" ".join(map(str, enc.ids)) + "\n")

cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
h = hashlib.sha256()
dump = open(sys.argv[1], "w") if len(sys.argv) > 1 else None  # for finding a difference
for i in range(0, len(cps), 50000):
    batch = cps[i : i + 50000]
    texts = ["a" + chr(c) + "b " + chr(c) + " q" + chr(c) for c in batch]
    for c, enc in zip(batch, tok.encode_batch(texts, add_special_tokens=False)):
        line = "%x %s\n" % (c, " ".join(map(str, enc.ids)))
        h.update(line.encode())
        if dump:
            dump.write(line)
open("testdata/codepoints.sha256", "w").write(h.hexdigest() + "\n")
