package analyze

// stemCache remembers the Porter stems of ASCII terms already stemmed by
// one Scratch: text repeats its words, and a map lookup costs less than
// the stemmer's eight steps. The stem of a term is the same whatever the
// text around it (stemASCII reads nothing else), so a cached stem is the
// stem. Each distinct stem has a small number, its id, that stays the same
// until the cache is trimmed (between two analyses), so that the stems of
// a stream can be counted in an array. The zero value is ready; it is not
// safe for concurrent use.
type stemCache struct {
	ids    map[string]int32 // term: the id of its stem
	byStem map[string]int32 // stem: its id
	stems  []string         // id: the stem
}

// maxCachedStems bounds the terms a cache holds after trim: a full cache
// is emptied and fills again with the words of the texts that follow (code
// with many one-off identifiers would otherwise grow it without end).
const maxCachedStems = 1 << 14

// stem is stemASCII(term), written over term as stemASCII writes it, and
// the id of the stem.
func (c *stemCache) stem(term []byte) ([]byte, int32) {
	if id, ok := c.ids[string(term)]; ok {
		return term[:copy(term, c.stems[id])], id
	}
	if c.ids == nil {
		c.ids, c.byStem = make(map[string]int32, 1024), make(map[string]int32, 1024)
	}
	key := string(term)
	stem := stemASCII(term)
	s := stemString(key, stem)
	id, ok := c.byStem[s]
	if !ok {
		id = int32(len(c.stems))
		c.stems = append(c.stems, s)
		c.byStem[s] = id
	}
	c.ids[key] = id
	return stem, id
}

// trim empties a full cache; the ids it gave are then void.
func (c *stemCache) trim() {
	if len(c.ids) >= maxCachedStems {
		clear(c.ids)
		clear(c.byStem)
		c.stems = c.stems[:0]
	}
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
