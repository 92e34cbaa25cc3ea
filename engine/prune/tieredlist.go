package prune

import "slices"

// The leaves of the tiered walk: splitting a list by a term's codes,
// listing and filtering a combination's documents, and scoring them.

// split groups docs by the codes of term t (parts[c]: the documents of
// code c), at walk position i.
func (s *tiered) split(i int, docs []uint32, t int) [][]uint32 {
	s.work += len(docs)
	var counts [256]int
	hi := 0
	for _, d := range docs {
		c := s.terms[t].code(d)
		counts[c]++
		hi = max(hi, int(c))
	}
	parts := s.parts[i][:0]
	for range hi + 1 {
		parts = append(parts, nil)
	}
	s.parts[i] = parts
	all := s.split1[i][:0]
	if cap(all) < len(docs) {
		all = make([]uint32, 0, 2*len(docs))
		s.split1[i] = all
	}
	for c := range parts {
		parts[c] = all[len(all) : len(all) : len(all)+counts[c]]
		all = all[:len(all)+counts[c]]
	}
	for _, d := range docs {
		c := s.terms[t].code(d)
		parts[c] = append(parts[c], d)
	}
	return parts
}

// list is the documents of the combination chosen: its smallest cell's
// whose codes in the other choices' terms match them, listed at walk
// position i (len(order) at a leaf).
func (s *tiered) list(i int, chosen []choice) []uint32 {
	var small *Cell
	for _, ch := range chosen {
		if ch.cell != nil && (small == nil || len(ch.cell.Docs) < len(small.Docs)) {
			small = ch.cell
		}
	}
	if small == nil {
		return nil // no term chosen: no document
	}
	s.work += len(small.Docs)
	checks := s.checks[:0]
	for _, ch := range chosen {
		if ch.cell == small {
			continue
		}
		c := check{code: s.terms[ch.term].Code}
		if ch.cell != nil {
			c.want = ch.cell.Class
		}
		checks = append(checks, c)
	}
	s.checks = checks
	s.listed[i] = filter(s.listed[i], small.Docs, checks)
	return s.listed[i]
}

// filter is the docs whose codes match every check, in out's storage. The
// loops store every document and keep it only when it matches, without a
// branch on the (unpredictable) match.
func filter(out, docs []uint32, checks []check) []uint32 {
	if cap(out) < len(docs) {
		out = make([]uint32, len(docs), 2*len(docs))
	}
	out = out[:len(docs)]
	n := 0
	switch len(checks) {
	case 0:
		n = copy(out, docs)
	case 1:
		a := checks[0]
		for _, d := range docs {
			out[n] = d
			n += keep(a.at(d) ^ a.want)
		}
	case 2:
		a, b := checks[0], checks[1]
		for _, d := range docs {
			out[n] = d
			n += keep((a.at(d) ^ a.want) | (b.at(d) ^ b.want))
		}
	default:
		for _, d := range docs {
			x := uint8(0)
			for _, c := range checks {
				x |= c.at(d) ^ c.want
			}
			out[n] = d
			n += keep(x)
		}
	}
	return out[:n]
}

// keep is 1 when x is 0, else 0.
func keep(x uint8) int { return int((uint32(x) - 1) >> 31) }

// check is a term's code that a combination's documents have.
type check struct {
	code []uint8
	want uint8
}

// at is the code of document d.
func (c check) at(d uint32) uint8 {
	if int(d) < len(c.code) {
		return c.code[d]
	}
	return 0
}

// leaf scores the documents of one combination of cells.
func (s *tiered) leaf(chosen []choice, docs []uint32) error {
	for _, ch := range chosen {
		if ch.cell == nil {
			continue
		}
		t, c := ch.term, ch.cell
		s.present[t] = true
		if cap(s.weights[t]) < len(docs) {
			s.weights[t] = make([]float64, len(docs), 2*len(docs))
		}
		w := s.weights[t][:len(docs)]
		s.weights[t] = w
		at := 0
		for i, d := range docs {
			at += gallop(c.Docs[at:], d)
			w[i] = s.terms[t].Weight(uint64(c.TF[at]), int(c.DL[at]))
		}
	}
	for d, doc := range docs {
		score := 0.0
		for t, on := range s.present {
			if on {
				score += s.weights[t][d]
			}
		}
		s.top.offer(Hit{Doc: uint64(doc), Score: score})
	}
	clear(s.present)
	return nil
}

// gallop is the index of the first element of a (increasing) at or after
// d, searched from the start: the next document is usually near.
func gallop(a []uint32, d uint32) int {
	hi := 1
	for hi < len(a) && a[hi] < d {
		hi *= 2
	}
	lo := hi / 2
	i, _ := slices.BinarySearch(a[lo:min(hi+1, len(a))], d)
	return lo + i
}
