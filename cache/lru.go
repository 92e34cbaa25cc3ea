package cache

import "sync"

// LRU is an in-process cache bounded by the total size of its values, for
// long-running modes (watch, a server) that answer many queries from one
// process. The least recently used entries are evicted first. It is safe
// for concurrent use; Get takes one mutex and moves one list node.
type LRU[K comparable, V any] struct {
	mu    sync.Mutex
	cap   int64
	used  int64
	size  func(V) int64
	items map[K]*lruNode[K, V]
	head  lruNode[K, V] // sentinel: head.next is the most recent, head.prev the least
}

type lruNode[K comparable, V any] struct {
	key        K
	val        V
	size       int64
	prev, next *lruNode[K, V]
}

// NewLRU returns an LRU holding values whose sizes, as reported by size,
// sum to at most capBytes. A nil size counts every value as 1.
func NewLRU[K comparable, V any](capBytes int64, size func(V) int64) *LRU[K, V] {
	if size == nil {
		size = func(V) int64 { return 1 }
	}
	l := &LRU[K, V]{cap: capBytes, size: size, items: map[K]*lruNode[K, V]{}}
	l.head.next, l.head.prev = &l.head, &l.head
	return l
}

// Get returns the value for k and marks it most recently used.
func (l *LRU[K, V]) Get(k K) (V, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, ok := l.items[k]
	if !ok {
		var zero V
		return zero, false
	}
	l.unlink(n)
	l.pushFront(n)
	return n.val, true
}

// Add stores v for k as the most recently used entry, replacing any value
// k had, and evicts least recently used entries until the total fits. A
// value larger than the whole capacity is not stored (and k's old value is
// dropped).
func (l *LRU[K, V]) Add(k K, v V) {
	sz := max(l.size(v), 0)
	l.mu.Lock()
	defer l.mu.Unlock()
	if n, ok := l.items[k]; ok {
		l.remove(n)
	}
	if sz > l.cap {
		return
	}
	n := &lruNode[K, V]{key: k, val: v, size: sz}
	l.items[k] = n
	l.pushFront(n)
	l.used += sz
	for l.used > l.cap {
		l.remove(l.head.prev)
	}
}

// Purge removes every entry.
func (l *LRU[K, V]) Purge() {
	l.mu.Lock()
	defer l.mu.Unlock()
	clear(l.items)
	l.head.next, l.head.prev = &l.head, &l.head
	l.used = 0
}

// Len returns the number of entries.
func (l *LRU[K, V]) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items)
}

// Bytes returns the total size of the entries.
func (l *LRU[K, V]) Bytes() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.used
}

func (l *LRU[K, V]) remove(n *lruNode[K, V]) {
	l.unlink(n)
	delete(l.items, n.key)
	l.used -= n.size
}

func (l *LRU[K, V]) unlink(n *lruNode[K, V]) {
	n.prev.next, n.next.prev = n.next, n.prev
	n.prev, n.next = nil, nil
}

func (l *LRU[K, V]) pushFront(n *lruNode[K, V]) {
	n.prev, n.next = &l.head, l.head.next
	l.head.next.prev = n
	l.head.next = n
}
