package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// maxPathList bounds what --paths-from reads.
const maxPathList = 64 << 20

// targetPaths gathers the paths of a targeted refresh from the arguments,
// every --paths flag and --paths-from; nil (no path source given) means a
// full refresh, an empty list (an empty --paths-from, as from a git hook
// with nothing changed) a refresh of nothing.
func targetPaths(cmd *cobra.Command, f *refreshFlags, args []string, stdin io.Reader) ([]string, error) {
	var paths []string
	given := len(args) > 0 || cmd.Flags().Changed("paths") || f.pathsFrom != ""
	paths = append(paths, args...)
	paths = append(paths, f.paths...)
	if f.pathsFrom != "" {
		listed, err := readPathList(f.pathsFrom, stdin)
		if err != nil {
			return nil, usagef("--paths-from %s: %w", f.pathsFrom, err)
		}
		paths = append(paths, listed...)
	}
	if !given {
		return nil, nil
	}
	for _, p := range paths {
		if p == "" {
			return nil, usagef("--paths: an empty path")
		}
	}
	if paths == nil {
		paths = []string{}
	}
	return paths, nil
}

// readPathList reads a list of paths: NUL-separated when the input holds a
// NUL (git's -z, find's -print0), else one a line (a trailing CR and blank
// lines dropped). Nothing is unquoted or split on commas.
func readPathList(name string, stdin io.Reader) ([]string, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxPathList+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxPathList {
		return nil, errTooManyPaths
	}
	sep := []byte("\n")
	if bytes.IndexByte(b, 0) >= 0 {
		sep = []byte{0}
	}
	var out []string
	for _, p := range bytes.Split(b, sep) {
		if sep[0] == '\n' {
			p = bytes.TrimSuffix(p, []byte("\r"))
		}
		if len(p) > 0 {
			out = append(out, string(p))
		}
	}
	return out, nil
}

var errTooManyPaths = fmt.Errorf("the list is over %d MiB", maxPathList>>20)
