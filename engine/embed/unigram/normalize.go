package unigram

// meta is SentencePiece's word-boundary mark, U+2581 (▁).
const meta = 0x2581

// normalize maps text through the normalization map, collapses runs of
// spaces, puts a space in front unless one is there, and writes the code
// points as UTF-8 with every space as ▁. It returns the bytes and the byte
// offset where each code point starts, followed by len(bytes).
func (t *Tokenizer) normalize(text string) ([]byte, []int) {
	cps := make([]rune, 0, len(text)+1)
	for i := 0; i < len(text); {
		cp, n := decode(text[i:])
		i += n
		if rep, ok := t.norm[cp]; ok {
			for _, r := range rep {
				cps = appendCollapsed(cps, r)
			}
			continue
		}
		cps = appendCollapsed(cps, cp)
	}
	buf := make([]byte, 0, 4*len(cps)+4)
	starts := make([]int, 0, len(cps)+2)
	if len(cps) == 0 || cps[0] != ' ' {
		starts = append(starts, 0)
		buf = encode(buf, meta)
	}
	for _, cp := range cps {
		starts = append(starts, len(buf))
		if cp == ' ' {
			cp = meta
		}
		buf = encode(buf, cp)
	}
	return buf, append(starts, len(buf))
}

// appendCollapsed appends cp unless it is a space following a space.
func appendCollapsed(cps []rune, cp rune) []rune {
	if cp == ' ' && len(cps) > 0 && cps[len(cps)-1] == ' ' {
		return cps
	}
	return append(cps, cp)
}

// decode reads one code point as e5.c's utf8_decode does: the lead byte
// says the length, continuation bytes are taken unchecked, and a byte that
// leads no sequence (or one cut short) is a code point of its own value.
func decode(s string) (rune, int) {
	c := s[0]
	switch {
	case c < 0x80:
		return rune(c), 1
	case c>>5 == 0x6 && len(s) >= 2:
		return rune(c&0x1F)<<6 | rune(s[1]&0x3F), 2
	case c>>4 == 0xE && len(s) >= 3:
		return rune(c&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	case c>>3 == 0x1E && len(s) >= 4:
		return rune(c&0x07)<<18 | rune(s[1]&0x3F)<<12 | rune(s[2]&0x3F)<<6 | rune(s[3]&0x3F), 4
	}
	return rune(c), 1
}

// encode appends cp in UTF-8 as e5.c's utf8_encode writes it (surrogates
// and code points past U+10FFFF included, as their bit patterns).
func encode(b []byte, cp rune) []byte {
	switch {
	case cp < 0x80:
		return append(b, byte(cp))
	case cp < 0x800:
		return append(b, 0xC0|byte(cp>>6), 0x80|byte(cp&0x3F))
	case cp < 0x10000:
		return append(b, 0xE0|byte(cp>>12), 0x80|byte(cp>>6&0x3F), 0x80|byte(cp&0x3F))
	}
	return append(b, 0xF0|byte(cp>>18), 0x80|byte(cp>>12&0x3F), 0x80|byte(cp>>6&0x3F), 0x80|byte(cp&0x3F))
}
