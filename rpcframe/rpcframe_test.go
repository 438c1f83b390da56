package rpcframe

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

type reply struct {
	ID    json.RawMessage `json:"id"`
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func TestGuard(t *testing.T) {
	const max = 200
	good := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	big := `{"jsonrpc":"2.0","id":"big-7","method":"tools/call","params":{"x":"` + strings.Repeat("a", 100000) + `"}}`
	bigNoID := `{"jsonrpc":"2.0","method":"tools/call","params":{"x":"` + strings.Repeat("a", 10000) + `"},"id":9}`
	for _, tc := range []struct {
		name   string
		in     string
		out    string // the messages that get through
		codes  []int
		ids    []string
		inMsgs []string
	}{
		{"good", good + "\n", good + "\n", nil, nil, nil},
		{"crlf and blank lines", "\n\r\n" + good + "\r\n", good + "\n", nil, nil, nil},
		{"no final newline", good, good + "\n", nil, nil, nil},
		{"not JSON", "hello\n" + good + "\n", good + "\n", []int{CodeParseError}, []string{"null"}, []string{"Parse error"}},
		{"truncated object", `{"jsonrpc":"2.0","id":3,"method":"pi` + "\n" + good + "\n", good + "\n",
			[]int{CodeParseError}, []string{"null"}, nil},
		{"two values on a line", good + " " + good + "\n" + good + "\n", good + "\n", []int{CodeParseError}, []string{"null"}, nil},
		{"not a message", `{"id":4,"foo":1}` + "\n" + `"str"` + "\n" + good + "\n", good + "\n",
			[]int{CodeInvalidRequest, CodeInvalidRequest}, []string{"4", "null"}, []string{"Invalid Request"}},
		{"batch", "[" + good + "]\n" + good + "\n", good + "\n", []int{CodeInvalidRequest}, []string{"null"}, []string{"batches"}},
		{"oversized", big + "\n" + good + "\n", good + "\n", []int{CodeInvalidRequest}, []string{`"big-7"`}, []string{"more than 200 bytes"}},
		{"oversized, id late", bigNoID + "\n" + good + "\n", good + "\n", []int{CodeInvalidRequest}, []string{"null"}, nil},
		{"oversized at the end", big, "", []int{CodeInvalidRequest}, []string{`"big-7"`}, nil},
		{"binary", "\x00\xff\xfe\n" + good + "\n", good + "\n", []int{CodeParseError}, []string{"null"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			g := New(strings.NewReader(tc.in), &out, max)
			got, err := io.ReadAll(io.LimitReader(g, 1<<20))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.out {
				t.Errorf("passed %q, want %q", got, tc.out)
			}
			var replies []reply
			for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				if line == "" {
					continue
				}
				var r reply
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatalf("reply %q: %v", line, err)
				}
				replies = append(replies, r)
			}
			if len(replies) != len(tc.codes) {
				t.Fatalf("replies %s, want codes %v", out.String(), tc.codes)
			}
			for i, r := range replies {
				if r.Error.Code != tc.codes[i] || string(r.ID) != tc.ids[i] {
					t.Errorf("reply %d: %s, want code %d id %s", i, out.String(), tc.codes[i], tc.ids[i])
				}
				if i < len(tc.inMsgs) && !strings.Contains(r.Error.Message, tc.inMsgs[i]) {
					t.Errorf("reply %d: %q does not say %q", i, r.Error.Message, tc.inMsgs[i])
				}
			}
		})
	}
}

// An oversized frame is skipped with bounded memory: a 16 MiB line
// costs no 16 MiB buffer.
func TestGuardSkipsInBoundedMemory(t *testing.T) {
	line := io.MultiReader(strings.NewReader(`{"id":1,"x":"`), io.LimitReader(zeros{}, 16<<20), strings.NewReader("\"}\n"))
	var out bytes.Buffer
	g := New(line, &out, 1<<10)
	if _, err := io.ReadAll(g); err != nil {
		t.Fatal(err)
	}
	if cap(g.frame) > 2*idPrefix+64<<10 {
		t.Errorf("skipping kept %d bytes", cap(g.frame))
	}
	if !strings.Contains(out.String(), `"id":1`) {
		t.Errorf("reply: %s", out.String())
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}
