// Package cache provides a fixed-size, least-recently-used cache for
// product and carrier lookups. It is safe for concurrent use.
package cache

import (
	"container/list"
	"sync"
)

// LRU is a cache that holds at most Capacity entries. When a new entry
// would exceed the capacity, the least recently used entry is evicted.
// Get and Put are O(1): a map finds the list element, and the
// doubly-linked list keeps entries ordered from most to least recently used.
type LRU[K comparable, V any] struct {
	mu       sync.Mutex
	capacity int
	ll       *list.List
	items    map[K]*list.Element
	onEvict  func(K, V)

	hits, misses, evictions uint64
}

type entry[K comparable, V any] struct {
	key   K
	value V
}

// Stats is a snapshot of the cache counters.
type Stats struct {
	Len       int
	Hits      uint64
	Misses    uint64
	Evictions uint64
}

// NewLRU returns a cache holding at most capacity entries. onEvict, if not
// nil, is called with each evicted entry while the cache lock is held, so it
// must not call back into the cache.
func NewLRU[K comparable, V any](capacity int, onEvict func(K, V)) *LRU[K, V] {
	if capacity <= 0 {
		panic("cache: capacity must be positive")
	}
	return &LRU[K, V]{
		capacity: capacity,
		ll:       list.New(),
		items:    make(map[K]*list.Element, capacity),
		onEvict:  onEvict,
	}
}

// Get returns the value for key and marks it as most recently used.
func (c *LRU[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.ll.MoveToFront(el)
		c.hits++
		return el.Value.(*entry[K, V]).value, true
	}
	c.misses++
	var zero V
	return zero, false
}

// Put inserts or replaces the value for key, evicting the least recently
// used entry when the cache is full.
func (c *LRU[K, V]) Put(key K, value V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		el.Value.(*entry[K, V]).value = value
		c.ll.MoveToFront(el)
		return
	}
	c.items[key] = c.ll.PushFront(&entry[K, V]{key: key, value: value})
	if c.ll.Len() > c.capacity {
		c.evictOldest()
	}
}

// Remove deletes key from the cache and reports whether it was present.
func (c *LRU[K, V]) Remove(key K) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return false
	}
	c.ll.Remove(el)
	delete(c.items, key)
	return true
}

// Len returns the number of entries in the cache.
func (c *LRU[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}

// Stats returns the current counters.
func (c *LRU[K, V]) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{Len: c.ll.Len(), Hits: c.hits, Misses: c.misses, Evictions: c.evictions}
}

// Purge removes every entry without calling onEvict.
func (c *LRU[K, V]) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ll.Init()
	clear(c.items)
}

func (c *LRU[K, V]) evictOldest() {
	el := c.ll.Back()
	if el == nil {
		return
	}
	c.ll.Remove(el)
	e := el.Value.(*entry[K, V])
	delete(c.items, e.key)
	c.evictions++
	if c.onEvict != nil {
		c.onEvict(e.key, e.value)
	}
}
