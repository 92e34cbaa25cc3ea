package recorded

import (
	"regexp"
	"sort"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/mirror"
)

// Source builds the embedder whose identity an index recorded (the
// sidecar's "embedder" setting: embed.Identity.String with the index
// version in the model). It fails when it cannot (an unknown provider or
// model).
type Source func(recorded string) (embed.Embedder, error)

// Embedder is the embedder identity the committed index sc records (""
// without an index, "none" for a BM25-only one).
func Embedder(sc *fingerprint.Sidecar) string {
	if sc == nil {
		return ""
	}
	return sc.Settings["embedder"]
}

// indexSuffix is the index version every recorded embedder identity
// carries in its model.
var indexSuffix = regexp.MustCompile(`\+index[0-9]+/`)

// SameEmbedder reports whether two recorded embedder identities name the
// same embedder, whatever index version each was recorded by.
func SameEmbedder(a, b string) bool {
	return indexSuffix.ReplaceAllString(a, "/") == indexSuffix.ReplaceAllString(b, "/")
}

// Changed names, sorted, the settings of now that differ from those
// recorded (or that only one of them holds); embedders are compared with
// SameEmbedder.
func Changed(now, rec map[string]string) []string {
	var out []string
	for k, v := range now {
		if w, ok := rec[k]; !ok || (v != w && !(k == "embedder" && SameEmbedder(v, w))) {
			out = append(out, k)
		}
	}
	for k := range rec {
		if _, ok := now[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// SourcesFingerprint is the fingerprint of the sources man lists under the
// settings the committed index sc records, by an autorag of index semantics
// version: it differs from sc's only when a source changed (or sc was
// written with other index semantics), never because a setting did.
func SourcesFingerprint(man *mirror.Manifest, sc *fingerprint.Sidecar, version int) string {
	files := make([]fingerprint.FileHash, len(man.Entries))
	for i, en := range man.Entries {
		files[i] = fingerprint.FileHash{Path: en.Path, TextHash: en.TextHash}
	}
	return fingerprint.Compute(fingerprint.Inputs{SemanticsVersion: version, Settings: sc.Settings, Files: files})
}
