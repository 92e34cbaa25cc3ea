package fingerprint

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func digestOf(s string) string { return strings.Repeat(s, 64/len(s)) }

func sampleSidecar() *Sidecar {
	return &Sidecar{
		Format:           FormatVersion,
		SemanticsVersion: 3,
		Fingerprint:      digestOf("ab"),
		Generation:       "000000012",
		Settings:         map[string]string{"chunker": "size=800,overlap=100", "embedder": "none"},
		Counts:           Counts{Files: 10, Chunks: 42, Tokens: 12345},
		Artifacts: []Artifact{
			{Path: "index/000000012/bleve/store/00000000002a.zap", Size: 4096, BLAKE3: digestOf("0f")},
			{Path: "index/000000012/chunks.bin", Size: 0, BLAKE3: digestOf("1")},
		},
		Refresh: Refresh{
			Outcome: "updated", At: time.Date(2026, 11, 25, 10, 30, 0, 123456789, time.UTC),
			TookMS: 12.5, Added: 1, Modified: 2, Deleted: 3, Renamed: 4, Failed: 5,
		},
	}
}

func TestSidecarRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fingerprint.json")
	want := sampleSidecar()
	if err := WriteSidecar(p, want); err != nil {
		t.Fatalf("WriteSidecar: %v", err)
	}
	got, err := ReadSidecar(p)
	if err != nil {
		t.Fatalf("ReadSidecar: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestSidecarJSONFieldNames(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fingerprint.json")
	if err := WriteSidecar(p, sampleSidecar()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"format": 1`, `"semantics_version"`, `"took_ms"`, `"renamed": 4`, `"blake3"`, `"tokens": 12345`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("sidecar JSON lacks %s:\n%s", key, data)
		}
	}
}

func TestWriteSidecarDefaultsFormat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fingerprint.json")
	s := sampleSidecar()
	s.Format = 0
	if err := WriteSidecar(p, s); err != nil {
		t.Fatal(err)
	}
	if s.Format != 0 {
		t.Error("WriteSidecar modified its argument")
	}
	got, err := ReadSidecar(p)
	if err != nil {
		t.Fatal(err)
	}
	if got.Format != FormatVersion {
		t.Errorf("format = %d, want %d", got.Format, FormatVersion)
	}
}

func TestWriteSidecarRefusesInvalid(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Sidecar)
	}{
		{"bad fingerprint", func(s *Sidecar) { s.Fingerprint = "xyz" }},
		{"empty generation", func(s *Sidecar) { s.Generation = "" }},
		{"escaping artifact", func(s *Sidecar) { s.Artifacts[0].Path = "../outside" }},
		{"absolute artifact", func(s *Sidecar) { s.Artifacts[0].Path = "/etc/passwd" }},
		{"uppercase digest", func(s *Sidecar) { s.Artifacts[0].BLAKE3 = digestOf("AB") }},
		{"future format", func(s *Sidecar) { s.Format = FormatVersion + 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "fingerprint.json")
			s := sampleSidecar()
			tt.mutate(s)
			if err := WriteSidecar(p, s); err == nil {
				t.Fatal("WriteSidecar accepted an invalid sidecar")
			}
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("sidecar written despite the error: %v", err)
			}
		})
	}
}

func TestReadSidecarMissing(t *testing.T) {
	_, err := ReadSidecar(filepath.Join(t.TempDir(), "fingerprint.json"))
	if !errors.Is(err, ErrNoSidecar) {
		t.Fatalf("err = %v, want ErrNoSidecar", err)
	}
}

func TestReadSidecarBad(t *testing.T) {
	valid := `"semantics_version":1,"fingerprint":"` + digestOf("a") + `","generation":"1"`
	tests := []struct {
		name    string
		content string
		want    error
	}{
		{"empty", "", ErrCorruptSidecar},
		{"truncated", `{"format":1,"fingerp`, ErrCorruptSidecar},
		{"not an object", `[1,2,3]`, ErrCorruptSidecar},
		{"trailing garbage", `{"format":1,` + valid + `} xx`, ErrCorruptSidecar},
		{"wrong type", `{"format":"1"}`, ErrCorruptSidecar},
		{"no format", `{` + valid + `}`, ErrSidecarFormat},
		{"future format", `{"format":2,` + valid + `}`, ErrSidecarFormat},
		{"bad fingerprint", `{"format":1,"fingerprint":"zz","generation":"1"}`, ErrCorruptSidecar},
		{"escaping artifact", `{"format":1,` + valid + `,"artifacts":[{"path":"../../etc/passwd","size":1,"blake3":"` + digestOf("a") + `"}]}`, ErrCorruptSidecar},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "fingerprint.json")
			if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadSidecar(p)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if errors.Is(err, ErrNoSidecar) {
				t.Errorf("corrupt sidecar reported as missing: %v", err)
			}
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestReadSidecarValidMinimal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fingerprint.json")
	content := `{"format":1,"fingerprint":"` + digestOf("c") + `","generation":"7"}`
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSidecar(p)
	if err != nil {
		t.Fatalf("ReadSidecar: %v", err)
	}
	if s.Generation != "7" || len(s.Artifacts) != 0 {
		t.Errorf("got %+v", s)
	}
}
