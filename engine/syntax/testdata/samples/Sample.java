// A small class for the golden test.
package com.example.cache;

import java.util.Map;

/**
 * An LRU cache.
 */
@ThreadSafe
public class LruCache<K, V> {
    private final Map<K, V> entries;

    /** Creates an empty cache. */
    public LruCache(int capacity) {
        this.entries = new java.util.LinkedHashMap<>(capacity);
    }

    @Override
    public V get(K key) {
        return entries.get(key);
    }

    interface Listener {
        void evicted(Object key);
    }

    enum Policy { LRU, LFU }

    record Entry(Object key, Object value) {}
}
