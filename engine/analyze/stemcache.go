package analyze

// stemCache remembers the Porter stems of ASCII terms already stemmed by
// one Scratch: text repeats its words, and a map lookup costs less than
// the stemmer's eight steps. The stem of a term is the same whatever the
// text around it (stemASCII reads nothing else), so a cached stem is the
// stem. The zero value is ready; it is not safe for concurrent use.
type stemCache struct {
	stems map[string]string
}

// maxCachedStems bounds the terms a cache holds; when it is full it is
// emptied and fills again with the words of the texts that follow (code
// with many one-off identifiers would otherwise grow it without end).
const maxCachedStems = 1 << 14

// stem is stemASCII(term), written over term as stemASCII writes it, and
// the stem as a string (the cache's, shared).
func (c *stemCache) stem(term []byte) ([]byte, string) {
	if s, ok := c.stems[string(term)]; ok {
		return term[:copy(term, s)], s
	}
	if c.stems == nil {
		c.stems = make(map[string]string, 1024)
	} else if len(c.stems) >= maxCachedStems {
		clear(c.stems)
	}
	key := string(term)
	stem := stemASCII(term)
	s := stemString(key, stem)
	c.stems[key] = s
	return stem, s
}

// stemString is stem as a string, sharing key's memory when the stem is a
// prefix of it (Porter mostly cuts a suffix), so that most terms cost the
// cache one allocation.
func stemString(key string, stem []byte) string {
	if len(stem) <= len(key) && key[:len(stem)] == string(stem) {
		return key[:len(stem)]
	}
	return string(stem)
}
