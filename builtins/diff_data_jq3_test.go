package builtins

import "testing"

// TestDataDiffJqEdges covers jq 1.6 behaviours where gojq differs.
func TestDataDiffJqEdges(t *testing.T) {
	t.Parallel()
	var cases []diffCase
	for _, q := range []string{
		`"!*'()-_.~ é/?" | @uri`, `[1,null,"a"] | join("-")`, `" 12" | tonumber`, `"\(1e17) \(0.1+0.2) \(100000000000000000000)"`,
		`[1e17, 1.5] | @text`, `{"a":1e17} | tostring`, `@json "x\(1e17)"`, `[splits("a")]`, `[.[]?]`,
		`65 | [.] | implode`, `[3,1] | sort_by(-.)`, `"abc" | sub("(?<x>b)";"[\(.x)]";"g")`,
		`{"a":[1,2]} | .a[1:] = ["x"]`, `"a b" | @sh`, `[[1,2],[3]] | add`, `{} | .["a","b"] = 1`, `infinite | tostring`,
		`[limit(3;.[]?)]`, `1 as $x | 2 as $y | [$x,$y,$__loc__]`, `"test" | ltrimstr("te") | rtrimstr("t")`, `tojson`,
		`"1 2" | [splits(" ")]`, `[paths(..)]`, `error`, `{"b":2,"a":1} | tojson`, `{"b":2,"a":1} | tostring`,
		`[{"b":2,"a":1}] | .[0] | @json`, `{"b":2,"a":1} | "v=\(.)"`, `[1,[2]] | tostring`, `"\([1,{"b":1,"a":2}])"`,
		`{"a":1.0,"b":1e3} | @text`, `[.[]] | length`, `[1,2,3] | .[1:] | length`, `{} | .a += 1`, `null | not`,
		`[true, false, null, 1, "a"] | map(not)`, `[1,2,3] | IN(2)`, `[1,2] | isempty(.[])`, `"abc" | ascii_downcase | @base64`,
		`[range(0; 10; 3)]`, `[range(5; 0; -2)]`, `{"a":"x"} | has("a"), has("b")`, `[1,2] | has(0), has(5)`,
		`"a,b" | split(",") | map({(.) : 1}) | add`, `[.[]?] | first // "none"`, `"2015-03-05T23:51:47Z" | strptime("%Y-%m-%dT%H:%M:%SZ")`,
		`"2015-03-05T23:51:47Z" | strptime("%Y-%m-%dT%H:%M:%SZ") | mktime`, `1425599507 | localtime | mktime`,
		`1425599507.9 | todate`, `[1425599507 | gmtime | .[] | floor]`, `"1.50" | tonumber`, `"1e2" | tonumber`,
		`[.[] ?]`, `{"a":{"b":{"c":1}}} | [leaf_paths]`, `{"a":[{"b":1}]} | [paths]`, `{"a":1,"b":2} | to_entries | map(.value) | add`,
		`{"a":1,"b":2} | with_entries(.value += 1)`, `{"b":1,"a":2} | map_values(. * 10)`, `{"b":1,"a":2} | [.[] | . + 1]`,
		`[{"b":1,"a":2},{"b":3,"a":4}] | map(del(.b))`, `[{"b":1,"a":2}] | .[0].c = 3`, `{"z":1,"y":{"x":2,"w":3}} | walk(if type == "number" then -. else . end)`,
		`{"z":1,"y":2} | [keys_unsorted[] as $k | "\($k)"]`, `{"z":{"y":1}} | getpath(["z","y"])`,
		`{"b":1,"a":2} | delpaths([["b"]])`, `{"b":1,"a":2} | to_entries`, `{"b":1,"a":2} | add`, `{"b":1,"a":2} | any`,
		`{"b":1,"a":2} | length`, `{"b":1,"a":2} | [.[]] | add`, `{"b":{"d":1,"c":2},"a":3} | [.. | numbers]`,
		`{"b":{"d":1,"c":2},"a":3} | tostream`, `{"b":{"d":1,"c":2},"a":3} | [tostream] | fromstream(.[])`,
		`{"b":1,"a":2} | keys[] as $k | "\($k)=\(.[$k])"`, `[{"n":"x","v":1},{"n":"y","v":2}] | INDEX(.n)`,
		`{"b":1,"a":2} | with_entries(select(.value > 1))`, `{"b":1,"a":2} + {"c":3}`, `{"y":{"b":1,"a":2}} | .y + {"c":3}`, `{"y":{"b":1,"a":2}} | .y.c = 3 | .y`, "\"{\\\"z\\\":1}\" | fromjson | .y = 2", `{"b":1,"a":2} * {"b":{"x":1}}`,
		`{"b":1,"a":2} | .c = .a + .b`, `{"b":1,"a":2} | {a, b}`, `{"b":1,"a":2} | {(.a|tostring): .b}`,
	} {
		cases = append(cases, diffCase{Args: []string{"jq", "-c", q}, Stdin: `"abc"`})
	}
	runDiff(t, cases)
}
