package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/autorag/autorag/engine/rank"
)

// The values of settings: how each kind is read from a flag, the
// environment or the config file, and named in an error.

func parseInt(v string, dst *int) error {
	n, err := strconv.Atoi(v)
	*dst = n
	return err
}

// parsePositive reads a count that must be at least 1.
func parsePositive(v string, dst *int) error {
	if err := parseInt(v, dst); err != nil {
		return err
	}
	if *dst < 1 {
		return fmt.Errorf("must be at least 1, got %d", *dst)
	}
	return nil
}

// sizeUnits are the units parseSize knows, longest first.
var sizeUnits = []struct {
	name string
	n    int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}

// parseSize reads a byte count, "16777216", "16MiB" or "16 MiB".
func parseSize(v string) (int64, error) {
	num, mult := strings.TrimSpace(v), int64(1)
	for _, u := range sizeUnits {
		if len(num) > len(u.name) && strings.EqualFold(num[len(num)-len(u.name):], u.name) {
			num, mult = strings.TrimSpace(num[:len(num)-len(u.name)]), u.n
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a size (bytes, or a number with KiB, MiB, GiB, KB, MB or GB)", v)
	}
	return n * mult, nil
}

// parseBool reads a switch: true/false, on/off, yes/no or 1/0.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false", v)
}

// parsePathWeight reads bm25_path: auto (the setting 0), 0 (off:
// rank.PathWeightOff) or a positive weight.
func parsePathWeight(v string, dst *float64) error {
	if v == "auto" || v == "" {
		*dst = 0
		return nil
	}
	var w float64
	if err := parseFloat(v, &w); err != nil {
		return err
	}
	switch {
	case w < 0:
		return fmt.Errorf("want auto or a weight of at least 0, got %s", v)
	case w == 0:
		w = rank.PathWeightOff
	}
	*dst = w
	return nil
}

func parseFloat(v string, dst *float64) error {
	f, err := strconv.ParseFloat(v, 64)
	*dst = f
	return err
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func kindName(k kind) string {
	switch k {
	case kindInt:
		return "an integer"
	case kindFloat:
		return "a number"
	case kindSize:
		return "a size (bytes, or a number with KiB, MiB, GiB, KB, MB or GB)"
	case kindBool:
		return "true or false"
	case kindAuto:
		return "auto or a number of at least 0"
	}
	return "a string"
}
