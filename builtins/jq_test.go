package builtins

import (
	"strings"
	"testing"
)

func TestJq(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		args  []string
		stdin string
		want  string
		st    int
	}{
		{"identity keeps key order", nil, []string{"-c", "."}, `{"b":1,"a":{"z":1,"y":2}}`, `{"b":1,"a":{"z":1,"y":2}}` + "\n", 0},
		{"object literal order", nil, []string{"-c", "{z: 1, a: 2, m: 3}"}, "null", `{"z":1,"a":2,"m":3}` + "\n", 0},
		{"values in key order", nil, []string{"-c", "[.[]]"}, `{"b":1,"a":2}`, "[1,2]\n", 0},
		{"keys_unsorted", nil, []string{"-c", "keys_unsorted, keys"}, `{"b":1,"a":2}`, "[\"b\",\"a\"]\n[\"a\",\"b\"]\n", 0},
		{"sort keys", nil, []string{"-S", "-c", "."}, `{"b":1,"a":2}`, `{"a":2,"b":1}` + "\n", 0},
		{"numbers like jq 1.6", nil, []string{"-c", "."}, `[1.0, 1e1000, 1e17, 0.00001, 100]`, "[1,1.7976931348623157e+308,1e+17,1e-05,100]\n", 0},
		{"raw output", nil, []string{"-r", ".[]"}, `["a","b\tc"]`, "a\nb\tc\n", 0},
		{"join output", nil, []string{"-j", ".[]"}, `["a",1]`, "a1", 0},
		{"ascii", nil, []string{"-a", "."}, `"é😀"`, `"\u00e9\ud83d\ude00"` + "\n", 0},
		{"tab", nil, []string{"--tab", "."}, `{"a":[1]}`, "{\n\t\"a\": [\n\t\t1\n\t]\n}\n", 0},
		{"indent 1", nil, []string{"--indent", "1", "."}, `{"a":1}`, "{\n \"a\": 1\n}\n", 0},
		{"slurp", nil, []string{"-c", "-s", "."}, "1 2 3", "[1,2,3]\n", 0},
		{"raw input", nil, []string{"-R", "."}, "x\ny\n", "\"x\"\n\"y\"\n", 0},
		{"null input", nil, []string{"-n", "1+1"}, "", "2\n", 0},
		{"exit status false", nil, []string{"-e", "."}, "false", "false\n", 1},
		{"exit status no output", nil, []string{"-e", "empty"}, "1", "", 4},
		{"error status", nil, []string{".a"}, "1", "", 5},
		{"compile error", nil, []string{".a |||"}, "1", "", 3},
		{"parse error", nil, []string{"."}, "{", "", 4},
		{"arg", nil, []string{"-n", "-c", "--arg", "x", "v", "--argjson", "y", "[1]", "[$x, $y]"}, "", "[\"v\",[1]]\n", 0},
		{"args", nil, []string{"-n", "-c", "$ARGS.positional", "--args", "a", "b"}, "", "[\"a\",\"b\"]\n", 0},
		{"env is the sandbox's", nil, []string{"-n", "-r", "env.USER, $ENV.HOME"}, "", "sandbox\n/home/sandbox\n", 0},
		{"input", nil, []string{"-c", "[., input]"}, "1 2", "[1,2]\n", 0},
		{"inputs", nil, []string{"-n", "-c", "[inputs]"}, "1 2 3", "[1,2,3]\n", 0},
		{"files", map[string]string{"a.json": `{"x":1}`, "b.json": `{"x":2}`}, []string{".x", "a.json", "b.json"}, "", "1\n2\n", 0},
		{"missing file", nil, []string{".", "nope.json"}, "", "", 2},
		{"from file", map[string]string{"p.jq": ".x + 1"}, []string{"-f", "p.jq"}, `{"x":1}`, "2\n", 0},
		{"rawfile", map[string]string{"r.txt": "hi\n"}, []string{"-n", "--rawfile", "r", "r.txt", "$r"}, "", "\"hi\\n\"\n", 0},
		{"slurpfile", map[string]string{"s.json": "1 2"}, []string{"-n", "-c", "--slurpfile", "s", "s.json", "$s"}, "", "[1,2]\n", 0},
		{"halt_error", nil, []string{"-n", `"bye\n" | halt_error(3)`}, "", "", 3},
		{"now uses the sandbox clock", nil, []string{"-n", "now | todate"}, "", "\"2024-01-02T03:04:05Z\"\n", 0},
		{"no host modules", nil, []string{"-n", `import "foo" as f; 1`}, "", "", 3},
		{"bad indent", nil, []string{"--indent", "8", "."}, "1", "", 2},
		{"unknown option", nil, []string{"--bogus", "."}, "1", "", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t, tc.files)
			r := run(t, env, tc.stdin, append([]string{"jq"}, tc.args...)...)
			if r.Stdout != tc.want || r.Status != tc.st {
				t.Errorf("jq %v: got %+v, want %q status %d", tc.args, r, tc.want, tc.st)
			}
			switch r.Status {
			case 0:
				if r.Stderr != "" {
					t.Errorf("stderr %q with status 0", r.Stderr)
				}
			case 2, 4, 5:
				if r.Stderr == "" && !strings.Contains(strings.Join(tc.args, " "), "-e") {
					t.Errorf("no message with status %d", r.Status)
				}
			}
		})
	}
}

func TestJqStreamsLargeInput(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString(`{"b":1,"a":[1,2,{"c":"x"}]}` + "\n")
	}
	env := testEnv(t, nil)
	r := run(t, env, b.String(), "jq", "-c", ".")
	if r.Stdout != b.String() {
		t.Errorf("round trip of %d objects differs", 20000)
	}
}
