package org.example.cache;

import java.util.HashMap;
import java.util.Map;

/** A bounded cache. */
public class Cache<K, V> {
    private final Map<K, V> entries = new HashMap<>();
    private final int capacity;

    public Cache(int capacity) {
        this.capacity = capacity;
    }

    /** Returns the value of key, or null. */
    public V get(K key) {
        return entries.get(key);
    }

    public void put(K key, V value) {
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(key, value);
    }
}

interface Evictor {
    void evict();
}
