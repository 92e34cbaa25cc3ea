package agentapi

import (
	"strings"
	"testing"

	"github.com/autorag/autorag/internal/indextest"
)

// TestReadCapsBytes: a read returns at most maxReadBytes of text however
// long its lines (a one-line file of megabytes came back whole), says it
// trimmed, and names where the next read starts; following next pages
// through the file and gives it back byte for byte.
func TestReadCapsBytes(t *testing.T) {
	a := newAPI(t)
	long := strings.Repeat("héron ", 3*maxReadBytes/7) + "end\n"
	indextest.WriteTree(t, a.Root(), map[string]string{"long.txt": "short\n" + long + "tail\n"})
	var got strings.Builder
	req := ReadRequest{Path: "long.txt", Start: 1, End: 3}
	for calls := 0; ; calls++ {
		if calls > 10 {
			t.Fatal("no end after 10 reads")
		}
		r, err := a.Read(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Text) > maxReadBytes {
			t.Fatalf("read %+v: %d bytes of text, over the cap of %d", req, len(r.Text), maxReadBytes)
		}
		got.WriteString(r.Text)
		if r.Next == nil {
			if r.Trimmed {
				t.Fatalf("read %+v: trimmed without a next read", req)
			}
			break
		}
		if !r.Trimmed {
			t.Fatalf("read %+v: a next read without trimmed", req)
		}
		req = ReadRequest{Path: "long.txt", Start: r.Next.Start, Offset: r.Next.Offset, End: 3}
	}
	if want := "short\n" + long + "tail\n"; got.String() != want {
		t.Fatalf("the pages joined: %d bytes, want %d", got.Len(), len(want))
	}
}
