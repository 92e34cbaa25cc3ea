package record

import (
	"strconv"
	"strings"
)

// ChunkID is the document ID of a chunk: the source path and its ordinal.
// Paths cannot contain NUL, so the ID splits back unambiguously.
func ChunkID(path string, ord int) string { return path + "\x00" + strconv.Itoa(ord) }

// SplitChunkID returns the path and ordinal of a chunk ID.
func SplitChunkID(id string) (string, int) {
	i := strings.LastIndexByte(id, 0)
	if i < 0 {
		return id, 0
	}
	n, _ := strconv.Atoi(id[i+1:])
	return id[:i], n
}

// ChunkPath returns the path of a chunk ID (SplitChunkID without parsing
// the ordinal, for callers that need only the file).
func ChunkPath(id string) string {
	if i := strings.LastIndexByte(id, 0); i >= 0 {
		return id[:i]
	}
	return id
}

// LessChunkID orders chunk IDs by path, then numerically by ordinal.
func LessChunkID(a, b string) bool {
	pa, oa := SplitChunkID(a)
	pb, ob := SplitChunkID(b)
	if pa != pb {
		return pa < pb
	}
	return oa < ob
}

// EntryKey is what the per-file limit counts: the file, or one of its
// attachments.
func EntryKey(path, attachment string) string {
	if attachment == "" {
		return path
	}
	return path + "\x00" + attachment
}
