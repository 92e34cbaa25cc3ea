//go:build linux && race

package mirror

// raceMemory scales the memory bounds of the amplification cases: the race
// detector's shadow memory and its slower GC multiply a process's
// footprint (5-10x by its documentation).
const raceMemory = 4
