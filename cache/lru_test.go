package cache

import (
	"fmt"
	"sync"
	"testing"
)

func TestLRU(t *testing.T) {
	l := NewLRU[string, string](10, func(v string) int64 { return int64(len(v)) })
	l.Add("a", "aaa")
	l.Add("b", "bbb")
	l.Add("c", "ccc")
	if _, ok := l.Get("a"); !ok { // a is now the most recent
		t.Fatal("a missing")
	}
	l.Add("d", "ddd") // 12 > 10: evicts b, the least recent
	for k, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if _, ok := l.Get(k); ok != want {
			t.Fatalf("%s present=%v, want %v", k, ok, want)
		}
	}
	if l.Bytes() != 9 || l.Len() != 3 {
		t.Fatalf("Bytes=%d Len=%d, want 9, 3", l.Bytes(), l.Len())
	}
	l.Add("a", "a") // replacing updates the size
	if v, _ := l.Get("a"); v != "a" || l.Bytes() != 7 {
		t.Fatalf("after replace: %q, Bytes=%d", v, l.Bytes())
	}
	l.Add("c", "this is too large") // over the cap: not stored, old value dropped
	if _, ok := l.Get("c"); ok || l.Bytes() != 4 {
		t.Fatalf("oversized value: present=%v Bytes=%d", ok, l.Bytes())
	}
	l.Purge()
	if _, ok := l.Get("a"); ok || l.Len() != 0 || l.Bytes() != 0 {
		t.Fatal("Purge left entries")
	}
	l.Add("e", "eee")
	if v, ok := l.Get("e"); !ok || v != "eee" {
		t.Fatal("Add after Purge failed")
	}
}

func TestLRUCountsEntriesWithoutSize(t *testing.T) {
	l := NewLRU[int, int](3, nil)
	for i := range 10 {
		l.Add(i, i)
	}
	if l.Len() != 3 {
		t.Fatalf("Len = %d, want 3", l.Len())
	}
	for i := 7; i < 10; i++ {
		if v, ok := l.Get(i); !ok || v != i {
			t.Fatalf("Get(%d) = %d, %v", i, v, ok)
		}
	}
}

func TestLRUConcurrent(t *testing.T) {
	l := NewLRU[string, []byte](4096, func(v []byte) int64 { return int64(len(v)) })
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				k := fmt.Sprint((i * (g + 1)) % 300)
				if v, ok := l.Get(k); ok && string(v) != k {
					t.Errorf("Get(%s) = %q", k, v)
					return
				}
				l.Add(k, []byte(k))
				if i%500 == 0 {
					l.Purge()
				}
			}
		})
	}
	wg.Wait()
	if l.Bytes() > 4096 {
		t.Fatalf("Bytes = %d over the cap", l.Bytes())
	}
}
