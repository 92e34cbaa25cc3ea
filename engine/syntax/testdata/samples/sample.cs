// A small file for the golden test.
using System;

namespace Example.Cache
{
    /// <summary>An LRU cache.</summary>
    [Serializable]
    public class LruCache<TKey, TValue>
    {
        private readonly int capacity;

        public LruCache(int capacity)
        {
            this.capacity = capacity;
        }

        /// <summary>Gets a value.</summary>
        public TValue Get(TKey key) => default;

        public int Count { get; }
    }

    public interface IStore
    {
        void Put(string key);
    }

    public record Entry(string Key, int Value);

    public enum Policy { Lru, Lfu }

    public delegate void Evicted(string key);

    public struct Stats
    {
        public int Hits;
    }
}
