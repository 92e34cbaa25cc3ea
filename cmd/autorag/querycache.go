package main

import (
	"os"
	"strconv"
	"time"

	"github.com/autorag/autorag/querycache"
)

// queryCacheCap is AUTORAG_QUERY_CACHE_BYTES, default
// querycache.DefaultCapBytes (64 MiB).
func queryCacheCap() (int64, error) {
	v := os.Getenv("AUTORAG_QUERY_CACHE_BYTES")
	if v == "" {
		return querycache.DefaultCapBytes, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, usagef("AUTORAG_QUERY_CACHE_BYTES=%q: want a number of bytes", v)
	}
	return n, nil
}

func since(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
