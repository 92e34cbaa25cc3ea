// Package plural writes counts with their nouns for people to read:
// "1 file", "3 files".
package plural

import "strconv"

// Count is n with its noun, in the plural (an added s) unless n is 1.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
