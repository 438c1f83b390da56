package check

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

const formatSrc = "$cmd x\nfrob\nbash -c 'ls; eval \"$y\"'\n"

func findings(t *testing.T) []Finding {
	t.Helper()
	r, err := Script(context.Background(), "dir/t.sh", []byte(formatSrc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 3 {
		t.Fatalf("want 3 findings, got %v", r.Findings)
	}
	return r.Findings
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, findings(t)); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		for _, k := range []string{"file", "line", "column", "end", "severity", "code", "message"} {
			if _, ok := f[k]; !ok {
				t.Errorf("finding %v lacks %q", f, k)
			}
		}
	}
	if got[2]["line"] != 3.0 || got[2]["column"] != 19.0 || got[2]["code"] != "eval-computed" {
		t.Errorf("third finding: %v", got[2])
	}
	b.Reset()
	WriteJSON(&b, nil)
	if b.String() != "[]\n" {
		t.Errorf("no findings: %q", b.String())
	}
}

// TestSARIF checks the output against what the SARIF 2.1.0 schema
// requires of the objects it uses: sarifLog (version, runs), run (tool),
// tool (driver), toolComponent (name), reportingDescriptor (id), result
// (message with text; level from the enum; ruleIndex into the rules),
// physicalLocation and region (startLine, startColumn >= 1, end not
// before start).
func TestSARIF(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, findings(t), "test"); err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	obj := func(v any, what string) map[string]any {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: not an object: %v", what, v)
		}
		return m
	}
	arr := func(v any, what string) []any {
		a, ok := v.([]any)
		if !ok {
			t.Fatalf("%s: not an array: %v", what, v)
		}
		return a
	}
	str := func(m map[string]any, k, what string) string {
		s, ok := m[k].(string)
		if !ok || s == "" {
			t.Fatalf("%s.%s: not a non-empty string: %v", what, k, m[k])
		}
		return s
	}
	num := func(m map[string]any, k, what string) int {
		n, ok := m[k].(float64)
		if !ok || n != float64(int(n)) {
			t.Fatalf("%s.%s: not an integer: %v", what, k, m[k])
		}
		return int(n)
	}
	if log["version"] != "2.1.0" {
		t.Fatalf("version %v", log["version"])
	}
	str(log, "$schema", "log")
	runs := arr(log["runs"], "runs")
	if len(runs) != 1 {
		t.Fatalf("%d runs", len(runs))
	}
	run := obj(runs[0], "run")
	driver := obj(obj(run["tool"], "tool")["driver"], "driver")
	str(driver, "name", "driver")
	var ids []string
	for _, r := range arr(driver["rules"], "rules") {
		rule := obj(r, "rule")
		ids = append(ids, str(rule, "id", "rule"))
		str(obj(rule["shortDescription"], "shortDescription"), "text", "shortDescription")
	}
	results := arr(run["results"], "results")
	if len(results) != 3 {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		res := obj(r, "result")
		str(obj(res["message"], "message"), "text", "message")
		switch lv := str(res, "level", "result"); lv {
		case "none", "note", "warning", "error":
		default:
			t.Errorf("level %q not in the enum", lv)
		}
		id := str(res, "ruleId", "result")
		if i := num(res, "ruleIndex", "result"); i < 0 || i >= len(ids) || ids[i] != id {
			t.Errorf("ruleIndex %d does not name rule %q in %q", i, id, ids)
		}
		locs := arr(res["locations"], "locations")
		if len(locs) != 1 {
			t.Fatalf("%d locations", len(locs))
		}
		pl := obj(obj(locs[0], "location")["physicalLocation"], "physicalLocation")
		if u := str(obj(pl["artifactLocation"], "artifactLocation"), "uri", "artifactLocation"); u != "dir/t.sh" {
			t.Errorf("uri %q", u)
		}
		reg := obj(pl["region"], "region")
		sl, sc := num(reg, "startLine", "region"), num(reg, "startColumn", "region")
		if sl < 1 || sc < 1 {
			t.Errorf("region starts at %d:%d", sl, sc)
		}
		if el, ok := reg["endLine"]; ok {
			if e := int(el.(float64)); e < sl || e == sl && num(reg, "endColumn", "region") < sc {
				t.Errorf("region ends before it starts: %v", reg)
			}
		}
	}
	if obj(results[0], "r")["level"] != "error" || obj(results[1], "r")["level"] != "warning" {
		t.Errorf("levels: %v %v", results[0], results[1])
	}
}
