package awk

import (
	"bytes"
	"strings"
	"testing"
)

// TestPartialSplit covers fields read before the record is fully split
// (getField with the default FS), against gawk's output.
func TestPartialSplit(t *testing.T) {
	const input = "  a b\tc  d \n\n x\ny  z\n1,2 3,4\n"
	for _, c := range []struct{ prog, want string }{
		{`{ print $1; print NF; print $3 }`, "a\n4\nc\n\n0\n\nx\n1\n\ny\n2\n\n1,2\n2\n\n"},
		{`{ x = $2; $5 = "z"; print; print NF }`, "a b c d z\n5\n    z\n5\nx    z\n5\ny z   z\n5\n1,2 3,4   z\n5\n"},
		{`{ print $10; print NF }`, "\n4\n\n0\n\n1\n\n2\n\n2\n"},
		{`{ print $1; FS = ","; print $2; print NF }`, "a\nb\n4\n\n\n0\n x\n\n1\ny  z\n\n1\n1\n2 3\n3\n"},
		{`{ print $2; $0 = "p q r s"; print $3, NF }`, "b\nr 4\n\nr 4\n\nr 4\nz\nr 4\n3,4\nr 4\n"},
		{`{ print $1 } END { print $1, NF }`, "a\n\nx\ny\n1,2\n1,2 2\n"},
		{`{ NF = 2; print $1, $2, $3 }`, "a b \n  \nx  \ny z \n1,2 3,4 \n"},
		{`{ $3 = ""; print $1 "|" $0 }`, "a|a b  d\n|  \nx|x  \ny|y z \n1,2|1,2 3,4 \n"},
		{`BEGIN { RS = "" } { print $2; print NF }`, "b\n4\ny\n5\n"},
		{`{ print $2; print $1; print $4 }`, "b\na\nd\n\n\n\n\nx\n\nz\ny\n\n3,4\n1,2\n\n"},
		{`{ s += $1 } END { print s }`, "1\n"},
	} {
		prog, err := Parse(Source{Name: "test", Text: c.prog})
		if err != nil {
			t.Fatalf("%s: %v", c.prog, err)
		}
		var out bytes.Buffer
		if _, err := Run(prog, &Config{Stdin: strings.NewReader(input), Output: &out}); err != nil {
			t.Fatalf("%s: %v", c.prog, err)
		}
		if out.String() != c.want {
			t.Errorf("%s: got %q, want %q", c.prog, out.String(), c.want)
		}
	}
}
