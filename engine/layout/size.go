package layout

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// Size is what an index takes on disk, beside the source it indexes
// (status and refresh report it).
type Size struct {
	// SourceBytes are the indexed files' bytes as they are on disk (the
	// manifest's sizes; ignored, failed and skipped files are not counted).
	SourceBytes int64 `json:"source_bytes"`
	// IndexBytes are the committed generation's files (the sidecar's
	// artifacts): what a query reads. IndexParts splits them by part:
	// "bleve" (postings, dictionaries, stored chunk text and metadata),
	// "vectors" (the vector index), "files" (the file table). A Weaviate
	// index keeps its postings and vectors in the cluster: only the local
	// parts are counted.
	IndexBytes int64            `json:"index_bytes"`
	IndexParts map[string]int64 `json:"index_parts"`
	// MirrorBytes are mirror/: the normalized text of every source (what
	// refresh diffs and read serves) and the manifest.
	MirrorBytes int64 `json:"mirror_bytes"`
	// CacheBytes are cache/: embeddings (content-addressed) and query
	// vectors; bounded, safe to delete.
	CacheBytes int64 `json:"cache_bytes"`
	// TotalBytes are all of .autorag, older generations not yet collected
	// included.
	TotalBytes int64 `json:"total_bytes"`
	// IndexPerSource is IndexBytes / SourceBytes, TotalPerSource
	// TotalBytes / SourceBytes (0 with no source).
	IndexPerSource float64 `json:"index_per_source"`
	TotalPerSource float64 `json:"total_per_source"`
}

// SizeOf measures the index sc commits, over source bytes of source.
func (l Layout) SizeOf(sc *fingerprint.Sidecar, source int64) *Size {
	s := &Size{SourceBytes: source, IndexParts: map[string]int64{}}
	for _, a := range sc.Artifacts {
		s.IndexBytes += a.Size
		s.IndexParts[artifactPart(a.Path)] += a.Size
	}
	s.MirrorBytes, s.CacheBytes, s.TotalBytes = l.dirBytes()
	if source > 0 {
		s.IndexPerSource = float64(s.IndexBytes) / float64(source)
		s.TotalPerSource = float64(s.TotalBytes) / float64(source)
	}
	return s
}

// artifactPart is the part of the index an artifact belongs to: the first
// name under index/<generation>/ ("bleve", "vectors"), "files" for the
// file table (files.bin, files.idx, files.log).
func artifactPart(path string) string {
	parts := strings.Split(path, "/")
	if len(parts) < 3 {
		return path
	}
	if name := parts[2]; len(parts) > 3 || !strings.HasPrefix(name, "files.") {
		return name
	}
	return "files"
}

// dirBytes is the size of the regular files under .autorag, in all and
// under its mirror and cache folders, in one walk (a refresh reports it).
func (l Layout) dirBytes() (mirror, cache, total int64) {
	mdir, cdir := l.MirrorDir()+string(filepath.Separator), l.CacheDir()+string(filepath.Separator)
	_ = filepath.WalkDir(l.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		total += info.Size()
		switch {
		case strings.HasPrefix(p, mdir):
			mirror += info.Size()
		case strings.HasPrefix(p, cdir):
			cache += info.Size()
		}
		return nil
	})
	return mirror, cache, total
}
