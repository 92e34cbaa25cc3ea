//go:build !race

package analyze

// raceEnabled makes the exhaustive tests smaller under the race detector,
// which slows them tenfold and has nothing to find in them.
const raceEnabled = false
