package cache

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const fpA = "a3f1c0ffee0000000000000000000000000000000000000000000000000000aa"
const fpB = "b3f1c0ffee0000000000000000000000000000000000000000000000000000bb"

// testValue is a value derived from its key, of a size that varies with it.
func testValue(i int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("value-%d;", i)), 5+i%40)
}

func testKey(i int) [32]byte { return QueryKey("test", fmt.Sprint(i)) }

func mustPut(t testing.TB, q *Queries, fp string, key [32]byte, v []byte) {
	t.Helper()
	if err := q.Put(fp, key, v); err != nil {
		t.Fatalf("Put: %v", err)
	}
}

func TestQueryKeyUnambiguous(t *testing.T) {
	keys := map[[32]byte]string{}
	for _, parts := range [][]string{{}, {""}, {"", ""}, {"ab", "c"}, {"a", "bc"}, {"abc"}, {"a", "b", "c"}} {
		k := QueryKey(parts...)
		if prev, ok := keys[k]; ok {
			t.Fatalf("QueryKey(%q) == QueryKey(%s)", parts, prev)
		}
		keys[k] = fmt.Sprintf("%q", parts)
	}
	a, b := "x", "y"
	if first, again := QueryKey(a, b), QueryKey(a, b); first != again {
		t.Fatal("QueryKey is not deterministic")
	}
}

func TestQueriesGetPut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "query")
	q := OpenQueries(dir, 1<<20)
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("OpenQueries created the directory")
	}
	if _, ok := q.Get(fpA, testKey(1)); ok {
		t.Fatal("empty cache served a value")
	}
	mustPut(t, q, fpA, testKey(1), []byte("one"))
	mustPut(t, q, fpA, testKey(2), nil)
	if v, ok := q.Get(fpA, testKey(1)); !ok || string(v) != "one" {
		t.Fatalf("Get = %q, %v", v, ok)
	}
	if v, ok := q.Get(fpA, testKey(2)); !ok || len(v) != 0 {
		t.Fatalf("Get empty value = %q, %v", v, ok)
	}
	mustPut(t, q, fpA, testKey(1), []byte("uno"))
	if v, ok := q.Get(fpA, testKey(1)); !ok || string(v) != "uno" {
		t.Fatalf("Get after replace = %q, %v", v, ok)
	}
	if _, ok := q.Get(fpB, testKey(1)); ok {
		t.Fatal("served under another fingerprint")
	}
	// A second handle (another process) sees the same entries.
	if v, ok := OpenQueries(dir, 1<<20).Get(fpA, testKey(1)); !ok || string(v) != "uno" {
		t.Fatalf("Get from another handle = %q, %v", v, ok)
	}
	// A value larger than the cap is not stored, and that is not an error.
	small := OpenQueries(dir, 100)
	mustPut(t, small, fpA, testKey(3), make([]byte, 200))
	if _, ok := small.Get(fpA, testKey(3)); ok {
		t.Fatal("value over the cap was stored")
	}
}

// TestQueriesBadEntriesNeverServed damages the entry file of key 1 in each
// way a crash, a disk or a person could, and checks Get refuses and removes it.
func TestQueriesBadEntriesNeverServed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, q *Queries, path string)
	}{
		{"empty", func(t *testing.T, _ *Queries, p string) { writeFile(t, p, nil) }},
		{"truncated header", func(t *testing.T, _ *Queries, p string) { truncateBy(t, p, -20) }},
		{"truncated value", func(t *testing.T, _ *Queries, p string) { truncateBy(t, p, 10) }},
		{"missing checksum byte", func(t *testing.T, _ *Queries, p string) { truncateBy(t, p, 1) }},
		{"extended", func(t *testing.T, _ *Queries, p string) { appendFile(t, p, []byte{0}) }},
		{"garbage", func(t *testing.T, _ *Queries, p string) { writeFile(t, p, bytes.Repeat([]byte("garbage!"), 40)) }},
		{"flipped value byte", func(t *testing.T, _ *Queries, p string) { flipByte(t, p, entryHdrLen+int64(len(fpA))+3) }},
		{"flipped key byte", func(t *testing.T, _ *Queries, p string) { flipByte(t, p, 9) }},
		{"entry of another key copied over", func(t *testing.T, q *Queries, p string) {
			b, err := os.ReadFile(q.entryPath(fpA, testKey(2)))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, p, b)
		}},
		{"same key of another fingerprint copied over", func(t *testing.T, q *Queries, p string) {
			mustPut(t, q, fpB, testKey(1), testValue(1))
			b, err := os.ReadFile(q.entryPath(fpB, testKey(1)))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, p, b)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := OpenQueries(t.TempDir(), 1<<20)
			mustPut(t, q, fpA, testKey(1), testValue(1))
			mustPut(t, q, fpA, testKey(2), testValue(2))
			p := q.entryPath(fpA, testKey(1))
			tc.damage(t, q, p)
			if v, ok := q.Get(fpA, testKey(1)); ok {
				t.Fatalf("damaged entry served: %q", v)
			}
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Fatalf("damaged entry kept: %v", err)
			}
			if v, ok := q.Get(fpA, testKey(2)); !ok || !bytes.Equal(v, testValue(2)) {
				t.Fatal("undamaged entry lost")
			}
			mustPut(t, q, fpA, testKey(1), testValue(1))
			if v, ok := q.Get(fpA, testKey(1)); !ok || !bytes.Equal(v, testValue(1)) {
				t.Fatal("entry not served after being Put again")
			}
		})
	}
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, p string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// truncateBy cuts n bytes off the end of p; a negative n keeps only -n bytes.
func truncateBy(t *testing.T, p string, n int64) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	size := fi.Size() - n
	if n < 0 {
		size = -n
	}
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
}

// cacheBytes sums the sizes of entry files, and of all regular files, under dir.
func cacheBytes(t testing.TB, dir string) (entries, all int64, temps int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		all += fi.Size()
		if strings.HasSuffix(p, entryExt) {
			entries += fi.Size()
		}
		if strings.HasPrefix(d.Name(), tempPattern[:len(tempPattern)-1]) {
			temps++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return entries, all, temps
}

// TestQueriesCapHolds checks the bound Put guarantees: after every Put the
// entry files total at most the cap, and all files at most the cap plus the
// 28-byte usage file (the lock file is empty).
func TestQueriesCapHolds(t *testing.T) {
	dir := t.TempDir()
	const capBytes = 200 << 10
	q := OpenQueries(dir, capBytes)
	var maxEntries, maxAll int64
	for i := range 10000 {
		mustPut(t, q, fpA, testKey(i), testValue(i))
		if i%97 == 0 || i > 9900 {
			e, a, _ := cacheBytes(t, dir)
			maxEntries, maxAll = max(maxEntries, e), max(maxAll, a)
			if e > capBytes || a > capBytes+usageLen {
				t.Fatalf("after %d Puts: entries %d bytes, all files %d bytes; cap %d", i+1, e, a, capBytes)
			}
		}
		if v, ok := q.Get(fpA, testKey(i)); !ok || !bytes.Equal(v, testValue(i)) {
			t.Fatalf("entry %d not served right after its Put", i)
		}
	}
	t.Logf("cap %d: largest total seen %d bytes of entries, %d bytes of files", capBytes, maxEntries, maxAll)
	// A damaged usage account is rebuilt by a scan; the bound holds.
	writeFile(t, filepath.Join(dir, usageName), []byte("junk"))
	for i := 10000; i < 10500; i++ {
		mustPut(t, q, fpA, testKey(i), testValue(i))
	}
	if e, _, _ := cacheBytes(t, dir); e > capBytes {
		t.Fatalf("entries %d bytes after usage damage; cap %d", e, capBytes)
	}
}

func TestQueriesEvictsLeastRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	v := bytes.Repeat([]byte("x"), 1000)
	e := int64(entryHdrLen + len(fpA) + len(v) + 4)
	q := OpenQueries(dir, 3*e+e/2) // room for three entries
	for i := range 3 {
		mustPut(t, q, fpA, testKey(i), v)
		// Entry 0 is the oldest, 2 the newest.
		old := time.Now().Add(-time.Duration(3-i) * time.Hour)
		if err := os.Chtimes(q.entryPath(fpA, testKey(i)), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := q.Get(fpA, testKey(0)); !ok { // 0 becomes the most recent
		t.Fatal("miss")
	}
	mustPut(t, q, fpA, testKey(3), v) // evicts exactly one: the least recent, 1
	for i, want := range []bool{true, false, true, true} {
		if _, ok := q.Get(fpA, testKey(i)); ok != want {
			t.Fatalf("entry %d present=%v, want %v", i, ok, want)
		}
	}
}

func TestQueriesDropOtherFingerprintsAndClear(t *testing.T) {
	dir := t.TempDir()
	q := OpenQueries(dir, 1<<20)
	for i := range 10 {
		mustPut(t, q, fpA, testKey(i), testValue(i))
		mustPut(t, q, fpB, testKey(i), testValue(i))
	}
	if err := q.DropOtherFingerprints(fpB); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if _, ok := q.Get(fpA, testKey(i)); ok {
			t.Fatalf("entry %d of the dropped fingerprint served", i)
		}
		if v, ok := q.Get(fpB, testKey(i)); !ok || !bytes.Equal(v, testValue(i)) {
			t.Fatalf("entry %d of the kept fingerprint lost", i)
		}
	}
	if _, err := os.Stat(q.fpDir(fpA)); !os.IsNotExist(err) {
		t.Fatalf("dropped fingerprint directory remains: %v", err)
	}
	mustPut(t, q, fpB, testKey(99), testValue(99)) // the usage account is rebuilt
	if err := q.Clear(); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if _, ok := q.Get(fpB, testKey(i)); ok {
			t.Fatal("served after Clear")
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != lockName {
		t.Fatalf("after Clear the directory holds %v, want only the lock file", ents)
	}
	if err := OpenQueries(filepath.Join(dir, "never"), 1).Clear(); err != nil {
		t.Fatalf("Clear of a missing cache: %v", err)
	}
}
