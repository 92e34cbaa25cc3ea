//go:build linux && !race

package mirror

const raceMemory = 1
