package main

// hints say what to do next after each kind of failure; a usage error's
// own message says it (and cobra's errors come with the usage text).
var hints = map[string]string{
	"busy":        "another process is refreshing; run again when it is done, or pass --wait 1m to wait for it",
	"interrupted": "nothing was committed and the last committed index is still served; run the command again",
	"lock_path":   "remove or rename what is at .autorag/refresh.lock (it must be a regular file), then run again",
	"damaged":     "run `autorag refresh`: it checks the committed index and rebuilds it from the sources (nothing else can serve queries until then)",
	"failed":      "the last committed index is untouched and still served; fix the cause above and run again (`autorag index verify` checks the index, `autorag index rebuild` rebuilds it)",
}
