// Package jsonl reads JSON-lines files, one JSON value a line, as BEIR
// data sets ship their corpora and queries: the evaluation harness, the
// vector-recall benchmark and the static embedder's distillation read
// them through it.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxLine is the longest line Read accepts, in bytes (a BEIR document is
// rarely over a few hundred KB).
const MaxLine = 64 << 20

// Read decodes each line of the file at path into a T and hands it to fn,
// in order, until fn returns false. Blank lines are skipped. A line that
// does not decode, or is longer than MaxLine, is an error naming the file
// and the line's number.
func Read[T any](path string, fn func(T) bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return read(f, path, MaxLine, fn)
}

// read is Read over r, named name in errors, with lines of up to limit
// bytes.
func read[T any](r io.Reader, name string, limit int, fn func(T) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(limit, 64<<10)), limit)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if !fn(v) {
			return nil
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("%s:%d: line longer than %d bytes: %w", name, n+1, limit, err)
	} else if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
