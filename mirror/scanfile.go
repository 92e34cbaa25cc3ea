// Reading, hashing and parsing one scan candidate: the per-file work the
// scanner's workers do.

package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/autorag/autorag/mirror/parse"
)

// process reads, hashes and if needed parses and stores one candidate. Only
// a store failure is returned as an error; per-file problems go to o.fail.
func (s *scanner) process(c *candidate, o *outcome) error {
	data, err := s.read(c)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // removed since the walk
	case errors.Is(err, ErrBinary):
		o.fail = reasonBinary
		return nil
	case err != nil:
		o.fail = err.Error()
		return nil
	}
	o.hashed = true
	o.entry = Entry{Path: c.rel, Size: c.size, MtimeNS: c.mtime, RawHash: HashBytes(data), Parser: c.parser}
	if th, parser, ok := s.reusable(c, o.entry.RawHash); ok {
		o.entry.TextHash, o.entry.Parser, o.ok = th, parser, true
		return nil
	}
	var ocr parse.OCR
	if ocrCapable(c.parser) {
		ocr, _ = s.ocr.get()
	}
	doc, pages, err := parseFile(s.ctx, c.rel, data, s.limits, ocr)
	if errors.Is(err, ErrBinary) {
		o.fail = reasonBinary
		return nil
	}
	if err != nil {
		if cerr := s.ctx.Err(); cerr != nil {
			return cerr
		}
		o.fail = "parse: " + strings.TrimPrefix(err.Error(), "parse "+c.rel+": ")
		s.mu.Lock()
		s.fresh[c.rel] = ParseFailure{Size: c.size, MtimeNS: c.mtime, Parser: s.failedParser(c, err), Reason: o.fail}
		s.mu.Unlock()
		return nil
	}
	th, err := s.store.Put(doc)
	if err != nil {
		return fmt.Errorf("scan %s: %w", c.rel, err)
	}
	o.entry.TextHash, o.entry.Parser, o.ok, o.parsed = th, doc.Parser, true, true
	o.ocr = pages
	return nil
}

// reusable finds an existing text for content raw: the file's own previous
// entry, or, for a path the manifest did not have, any previous entry with
// the same bytes and parser (a rename or copy), as long as the store still
// holds that text. An edited file is not looked up by content: building
// that index costs a pass over the whole manifest, and parsing the one file
// again yields the same text anyway.
func (s *scanner) reusable(c *candidate, raw Hash) (Hash, string, bool) {
	e, known := s.prev.Lookup(c.rel)
	if known && e.RawHash == raw && s.accepts(c, e.Parser) && s.store.Has(e.TextHash) {
		return e.TextHash, e.Parser, true
	}
	if known {
		return Hash{}, "", false
	}
	parsers := []string{c.parser}
	if ocrCapable(c.parser) {
		_, variant := s.ocr.get()
		parsers = append(parsers, c.parser+"+"+variant)
	}
	for _, p := range parsers {
		if th, ok := s.byRaw()[rawKey{raw, p}]; ok && s.store.Has(th) {
			return th, p, true
		}
	}
	return Hash{}, "", false
}

func (s *scanner) indexByRaw() map[rawKey]Hash {
	m := make(map[rawKey]Hash, len(s.prev.Entries))
	for _, e := range s.prev.Entries {
		m[rawKey{e.RawHash, e.Parser}] = e.TextHash
	}
	return m
}

// read returns the candidate's bytes. A file whose first bytes show it is
// binary is rejected after reading only those, so binary files that are not
// in the manifest cost little on every scan.
func (s *scanner) read(c *candidate) ([]byte, error) {
	p := c.target
	if p == "" {
		p = c.rel
	}
	f, err := s.tree.openFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err // process drops a file removed since the walk
	}
	if err != nil {
		return nil, fmt.Errorf("read: %s", openErrText(err))
	}
	defer f.Close()
	return s.readFile(f, c.size, c.parser)
}

// openErrText renders an error of tree.openFile for a failure reason.
func openErrText(err error) string {
	switch {
	case errors.Is(err, errSymlinkPath):
		return "became a symlink after the walk (not followed)"
	case errors.Is(err, errNotRegular):
		return "not a regular file"
	}
	return errText(err)
}

// readFile reads the open file f of the given size (as stat'ed) as read
// does; parser is the file's parser (binary formats skip the NUL test).
func (s *scanner) readFile(f *os.File, size int64, parser string) ([]byte, error) {
	buf := make([]byte, 0, min(size, s.max)+1)
	buf, err := readAtMost(f, buf, sniffLen)
	if err == nil && !binaryFormat(parser) && looksBinary(buf) {
		return nil, ErrBinary
	}
	if err == nil && len(buf) == sniffLen {
		buf, err = readAtMost(f, buf, int(s.max)+1)
	}
	if err != nil {
		return nil, fmt.Errorf("read: %s", errText(err))
	}
	if int64(len(buf)) > s.max {
		return nil, errors.New(reasonTooLarge + " (over " + strconv.FormatInt(s.max, 10) + " bytes)")
	}
	return buf, nil
}

// readAtMost reads from r into buf until buf holds n bytes or r is drained.
func readAtMost(r io.Reader, buf []byte, n int) ([]byte, error) {
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(n-len(buf), max(len(buf), 4096)))
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// looksBinary applies Parse's NUL test to the first bytes of a file.
// UTF-16 text (with or without a BOM) is left for Parse to decode.
func looksBinary(head []byte) bool {
	return bytes.IndexByte(head, 0) >= 0 && !parse.LooksUTF16(head)
}
