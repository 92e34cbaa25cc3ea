package fingerprint

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/zeebo/blake3"
)

func textHash(s string) [32]byte { return blake3.Sum256([]byte(s)) }

func baseInputs() Inputs {
	return Inputs{
		SemanticsVersion: 3,
		Settings: map[string]string{
			"parser.markdown": "markdown@2",
			"chunker":         "size=800,overlap=100",
			"analyzer":        "standard",
			"embedder":        "openai:text-embedding-3-small:1536",
		},
		Files: []FileHash{
			{Path: "README.md", TextHash: textHash("readme")},
			{Path: "docs/a.md", TextHash: textHash("a")},
			{Path: "src/main.go", TextHash: textHash("main")},
		},
	}
}

func TestComputeFormat(t *testing.T) {
	fp := Compute(baseInputs())
	if !isDigest(fp) {
		t.Fatalf("Compute = %q, want 64 lowercase hex digits", fp)
	}
	if again := Compute(baseInputs()); again != fp {
		t.Errorf("Compute not deterministic: %s then %s", fp, again)
	}
}

// TestComputeGolden pins the encoding: fingerprints are stored in sidecars,
// so any change to them must come with a new domain string. The many-file
// input spans several segments and is hashed with one goroutine (one
// encoder for every segment) and with several.
func TestComputeGolden(t *testing.T) {
	many := baseInputs()
	many.Files = manyFiles(3*segmentFiles + 17)
	tests := []struct {
		name string
		in   Inputs
		want string
	}{
		{"empty", Inputs{}, "3cab142f97ed93915a6a63ff4293f3b5b407b2b1b81933dcea97bd50f527085e"},
		{"small", baseInputs(), "da6968e96bdcd3a89f8cb1cb409b270c0768fa1581f910578ab84927f8cff5c6"},
		{"many", many, "95ae52b9d3f463cab2939c26c060884786f7ce916d315eac82150ff1f7cbe41b"},
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for _, tt := range tests {
			if got := Compute(tt.in); got != tt.want {
				t.Errorf("GOMAXPROCS=%d: Compute(%s) = %s, want %s", procs, tt.name, got, tt.want)
			}
		}
	}
}

func TestComputeChangesWithEveryInput(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Inputs)
	}{
		{"semantics version", func(in *Inputs) { in.SemanticsVersion++ }},
		{"setting value", func(in *Inputs) { in.Settings["chunker"] = "size=801,overlap=100" }},
		{"setting key", func(in *Inputs) {
			v := in.Settings["analyzer"]
			delete(in.Settings, "analyzer")
			in.Settings["analyzer2"] = v
		}},
		{"setting added", func(in *Inputs) { in.Settings["parser.pdf"] = "pdfium@1" }},
		{"setting removed", func(in *Inputs) { delete(in.Settings, "embedder") }},
		{"setting emptied", func(in *Inputs) { in.Settings["embedder"] = "" }},
		{"file path", func(in *Inputs) { in.Files[1].Path = "docs/b.md" }},
		{"file text hash", func(in *Inputs) { in.Files[2].TextHash = textHash("main v2") }},
		{"file added", func(in *Inputs) { in.Files = append(in.Files, FileHash{Path: "z.txt", TextHash: textHash("z")}) }},
		{"file removed", func(in *Inputs) { in.Files = in.Files[:2] }},
		{"no files", func(in *Inputs) { in.Files = nil }},
		{"hashes swapped", func(in *Inputs) {
			in.Files[0].TextHash, in.Files[1].TextHash = in.Files[1].TextHash, in.Files[0].TextHash
		}},
	}
	base := Compute(baseInputs())
	seen := map[string]string{base: "base"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := baseInputs()
			tt.mutate(&in)
			got := Compute(in)
			if prev, ok := seen[got]; ok {
				t.Errorf("fingerprint %s equals the one of %q", got, prev)
			}
			seen[got] = tt.name
		})
	}
}

func TestComputeOrderInsensitive(t *testing.T) {
	want := Compute(baseInputs())

	// Maps built in a different insertion order, many times: Go randomizes
	// iteration, so an order-dependent encoding would show up here.
	for i := range 20 {
		in := baseInputs()
		in.Settings = map[string]string{}
		keys := []string{"embedder", "analyzer", "chunker", "parser.markdown"}
		for j := range keys {
			k := keys[(i+j)%len(keys)]
			in.Settings[k] = baseInputs().Settings[k]
		}
		if got := Compute(in); got != want {
			t.Fatalf("settings order changed the fingerprint: %s != %s", got, want)
		}
	}

	in := baseInputs()
	slices.Reverse(in.Files)
	reversed := slices.Clone(in.Files)
	if got := Compute(in); got != want {
		t.Errorf("unsorted Files changed the fingerprint: %s != %s", got, want)
	}
	if !slices.Equal(in.Files, reversed) {
		t.Error("Compute reordered the caller's Files")
	}
}

func TestComputeUnambiguous(t *testing.T) {
	h := textHash("x")
	tests := []struct {
		name string
		a, b Inputs
	}{
		{
			name: "setting key/value boundary",
			a:    Inputs{Settings: map[string]string{"ab": "c"}},
			b:    Inputs{Settings: map[string]string{"a": "bc"}},
		},
		{
			name: "settings split differently",
			a:    Inputs{Settings: map[string]string{"a": "b", "c": "d"}},
			b:    Inputs{Settings: map[string]string{"a": "bc", "": "d"}},
		},
		{
			name: "file path boundary",
			a:    Inputs{Files: []FileHash{{Path: "ab", TextHash: h}, {Path: "c", TextHash: h}}},
			b:    Inputs{Files: []FileHash{{Path: "a", TextHash: h}, {Path: "bc", TextHash: h}}},
		},
		{
			name: "settings versus files",
			a:    Inputs{Settings: map[string]string{"a": "b"}},
			b:    Inputs{Files: []FileHash{{Path: "a"}}},
		},
		{
			name: "empty setting versus none",
			a:    Inputs{Settings: map[string]string{"": ""}},
			b:    Inputs{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if Compute(tt.a) == Compute(tt.b) {
				t.Errorf("%+v and %+v share a fingerprint", tt.a, tt.b)
			}
		})
	}
}

func TestComputeManyFiles(t *testing.T) {
	n := 3*segmentFiles + 17 // several segments, the last one partial
	base := Inputs{SemanticsVersion: 1, Files: manyFiles(n)}
	want := Compute(base)

	tests := []struct {
		name   string
		mutate func([]FileHash) []FileHash
		same   bool
	}{
		{"swap across a segment boundary", func(f []FileHash) []FileHash {
			f[segmentFiles-1], f[segmentFiles] = f[segmentFiles], f[segmentFiles-1]
			return f
		}, true},
		{"reversed", func(f []FileHash) []FileHash { slices.Reverse(f); return f }, true},
		{"text hash in a late segment", func(f []FileHash) []FileHash {
			f[2*segmentFiles+5].TextHash = textHash("edited")
			return f
		}, false},
		{"last file removed", func(f []FileHash) []FileHash { return f[:len(f)-1] }, false},
		{"exactly one segment fewer", func(f []FileHash) []FileHash { return f[:3*segmentFiles] }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := base
			in.Files = tt.mutate(slices.Clone(base.Files))
			if got := Compute(in); (got == want) != tt.same {
				t.Errorf("Compute = %s, base %s, want equal: %v", got, want, tt.same)
			}
		})
	}
}

// manyFiles returns n sorted files with realistic path lengths.
func manyFiles(n int) []FileHash {
	files := make([]FileHash, n)
	for i := range files {
		files[i] = FileHash{
			Path:     fmt.Sprintf("src/module%03d/package/file_%06d.go", i/100, i),
			TextHash: textHash(fmt.Sprint(i)),
		}
	}
	slices.SortFunc(files, compareFiles)
	return files
}

func BenchmarkCompute(b *testing.B) {
	in := baseInputs()
	in.Files = manyFiles(16000)
	b.ReportAllocs()
	for b.Loop() {
		Compute(in)
	}
}

func BenchmarkComputeUnsorted(b *testing.B) {
	in := baseInputs()
	in.Files = manyFiles(16000)
	slices.Reverse(in.Files)
	b.ReportAllocs()
	for b.Loop() {
		Compute(in)
	}
}
