package parse

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func isNormal(s string) bool {
	return utf8.ValidString(s) && norm.NFC.IsNormalString(s) && !strings.Contains(s, "\r")
}
