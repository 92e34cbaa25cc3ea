package cache

import "testing"

func TestLRUEvictsLeastRecentlyUsed(t *testing.T) {
	var evicted []string
	c := NewLRU[string, int](2, func(k string, _ int) { evicted = append(evicted, k) })
	c.Put("a", 1)
	c.Put("b", 2)
	if _, ok := c.Get("a"); !ok { // a is now most recently used
		t.Fatal("a missing")
	}
	c.Put("c", 3) // evicts b
	if _, ok := c.Get("b"); ok {
		t.Error("b should have been evicted")
	}
	if len(evicted) != 1 || evicted[0] != "b" {
		t.Errorf("evicted = %v, want [b]", evicted)
	}
	if got := c.Stats(); got.Evictions != 1 || got.Len != 2 {
		t.Errorf("stats = %+v", got)
	}
}

func TestLRUPutReplaces(t *testing.T) {
	c := NewLRU[int, string](1, nil)
	c.Put(1, "one")
	c.Put(1, "uno")
	if v, _ := c.Get(1); v != "uno" {
		t.Errorf("Get(1) = %q, want uno", v)
	}
	if c.Len() != 1 {
		t.Errorf("Len = %d, want 1", c.Len())
	}
}
