package recorded

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/mirror"
)

func TestSameEmbedderAcrossIndexVersions(t *testing.T) {
	a := "transformer/all-minilm-l6-v2-q@main+sha256:afdb6f1a0e45b715+mean+256+v2+index14/384"
	for _, c := range []struct {
		b    string
		want bool
	}{
		{a, true},
		{"transformer/all-minilm-l6-v2-q@main+sha256:afdb6f1a0e45b715+mean+256+v2+index13/384", true},
		{"transformer/bge-small-en-v1.5-q@main+sha256:0123456789abcdef+cls+512+v2+index14/384", false},
		{"local/potion-base-8M@bf8b0566-q8-v4+index14/256", false},
		{"none", false},
	} {
		if got := SameEmbedder(a, c.b); got != c.want {
			t.Errorf("SameEmbedder(%q, %q) = %v, want %v", a, c.b, got, c.want)
		}
	}
}

func TestChangedNamesWhatARefreshWouldApply(t *testing.T) {
	rec := map[string]string{"chunker": "2400/240", "embedder": "local/potion@x+index13/256", "maxfile": "1", "backend": "weaviate"}
	now := map[string]string{"chunker": "800/80", "embedder": "local/potion@x+index14/256", "maxfile": "1", "analyzer": "multi"}
	if diff := cmp.Diff([]string{"analyzer", "backend", "chunker"}, Changed(now, rec)); diff != "" {
		t.Errorf("Changed (-want +got):\n%s", diff)
	}
	if got := Changed(rec, rec); got != nil {
		t.Errorf("Changed of equal settings: %v", got)
	}
}

// The sources' fingerprint under the recorded settings is the one the
// sidecar holds when nothing changed, whatever is configured.
func TestSourcesFingerprintIgnoresSettings(t *testing.T) {
	h1 := mirror.HashBytes([]byte("one"))
	man := &mirror.Manifest{Entries: []mirror.Entry{{Path: "a.md", TextHash: h1}}}
	settings := map[string]string{"embedder": "transformer/m@r+index14/384", "chunker": "2400/240"}
	sc := &fingerprint.Sidecar{Settings: settings, Fingerprint: fingerprint.Compute(fingerprint.Inputs{
		SemanticsVersion: 14, Settings: settings, Files: []fingerprint.FileHash{{Path: "a.md", TextHash: h1}}})}
	if got := SourcesFingerprint(man, sc, 14); got != sc.Fingerprint {
		t.Errorf("unchanged sources: %s, want the sidecar's %s", got, sc.Fingerprint)
	}
	man.Entries[0].TextHash = mirror.HashBytes([]byte("two"))
	if got := SourcesFingerprint(man, sc, 14); got == sc.Fingerprint {
		t.Error("a changed source kept the fingerprint")
	}
}
