package builtins

import "testing"

// TestDataDiffJqIdioms covers common jq idioms against the host jq.
func TestDataDiffJqIdioms(t *testing.T) {
	t.Parallel()
	users := `[{"name":"ann","age":31,"tags":["a","b"],"addr":{"city":"Oslo","zip":"0150"}},` +
		`{"name":"bob","age":25,"tags":[],"addr":{"city":"Bergen","zip":"5003"}},` +
		`{"name":"cid","age":null,"tags":["b"],"addr":null}]`
	var cases []diffCase
	for _, q := range []string{
		`.[] | select(.age > 26) | .name`,
		`map(.name)`, `map(.age) | add`, `map(select(.age != null)) | sort_by(.age) | map(.name)`,
		`.[] | "\(.name)=\(.age)"`, `.[] | [.name, .age] | @tsv`, `.[] | [.name, .age] | @csv`,
		`group_by(.tags | length) | map(length)`, `unique_by(.tags | length) | map(.name)`,
		`map(.addr.city?)`, `map(.addr // "none")`, `[.[] | .tags[]] | unique`, `.[0] | to_entries | map("\(.key)") | join(",")`,
		`.[0] | with_entries(select(.key != "tags"))`, `.[0] | del(.addr, .tags)`, `.[0] | keys`, `.[0] | has("age"), has("x")`,
		`map(.age) | min, max`, `min_by(.age) | .name`, `max_by(.age) | .name`, `length`, `.[0].name | length`,
		`.[0].name | ascii_upcase | explode | implode`, `[.[].name] | join("-")`, `map(.tags | length) | add / length`,
		`[paths(type == "number")]`, `[leaf_paths] | length`, `.[0] | tostream`, `[.[0] | tostream] | fromstream(.[])`,
		`.[0] | getpath(["addr","city"])`, `.[0] | [paths]`, `.[1] | .tags |= . + ["z"]`, `.[0].addr | to_entries`,
		`reduce .[] as $u ({}; .[$u.name] = $u.age)`, `[.[] | .age // 0] | add`, `first(.[]) | .name`, `last(.[]) | .name`,
		`[limit(2; .[])] | length`, `nth(1; .[]) | .name`, `[range(3)] | map(. * 2)`, `[.[] | .name | test("^[ab]")]`,
		`[.[] | .name | sub("(?<x>[aeiou])"; "<\(.x)>")]`, `.[0].name | [match("n"; "g").offset]`, `.[0].name | capture("(?<first>.)")`,
		`[.[].name | scan("[a-c]")]`, `"a,b, c" | split(", *"; null)`, `"a-b-c" | split("-")`, `.[0] | tojson | fromjson | .name`,
		`.[0].age | tostring | tonumber`, `[.[] | .age | type]`, `[.[] | .addr | objects | .zip]`, `[.[] | .age | numbers]`,
		`map(.tags) | flatten`, `[[1,[2]],3] | flatten(1)`, `[1,2,3] | indices(2)`, `"abcb" | indices("b")`, `[3,1,2] | sort | reverse`,
		`{"a":1} + {"b":2} | keys`, `{"a":{"b":1}} * {"a":{"c":2}} | .a | keys`, `[1,2,3] - [2]`, `10 / 3 | floor`, `-1.5 | fabs, floor, ceil, round`,
		`[1,2] | any(. > 1), all(. > 1)`, `"2015-03-05T23:51:47Z" | fromdate`, `1425599507 | todate`, `1425599507 | gmtime | mktime`,
		`1425599507 | strftime("%A, %B %d, %Y")`, `"10:15" | strptime("%H:%M") | .[3:6]`, `[.[] | .name | ascii_downcase | ltrimstr("a") | rtrimstr("b")]`,
		`.[0].name | startswith("a"), endswith("n")`, `@base64 "\(.[0].name)" | @base64d`, `.[0].name | @base32 | @base32d`,
		`"<&>" | @html`, `"a b&c" | @uri`, `[1,"a"] | @sh`, `.[0].name | @json`, `.[0] | @text`, `[.[] | .name] | @sh`,
		`[splits("a")]`, `try error("boom") catch .`, `.[] | .age as $a | select($a) | $a + 1`,
		`. as [$first, $second] | [$first.name, $second.name]`, `.[0] | . as {name: $n, addr: {city: $c}} | "\($n) in \($c)"`,
		`[foreach .[] as $u (0; . + 1; [., $u.name])]`, `label $f | .[] | if .name == "bob" then break $f else .name end`,
		`[.[] | .age] | map(values)`, `[recurse | numbers]`, `[.. | strings] | length`, `def double: . * 2; [.[] | .age // 0 | double]`,
		`def f(g): [g]; f(.[].name)`, `[while(. < 40; . * 2)]`, `[1 | until(. > 100; . * 3)]`, `[limit(5; repeat(1))]`,
		`input_line_number`, `$__loc__`, `[splits(", ")]`, `ascii`, `@text "v: \(.[0].age)"`, `env | type`, `builtins | length > 10`,
		`[.[] | .tags | length] | add`, `map(.addr.zip? // empty)`, `[.[] | .addr | .city?]`, `isvalid(.[0].name)`, `getpath(["x","y"])`,
		`[.[] | select(.tags | index("b"))] | length`, `.[0].tags | index("b"), rindex("b")`, `.[0] | map_values(type)`, `.[0] | to_entries[0]`,
		`transpose`, `[[1,2],[3,4]] | transpose`, `[1,[2,3]] | combinations`, `{"a":[1,2],"b":[3]} | [combinations] | length`,
		`"abc" | .[1:], .[:-1], .[5:]`, `[1,2,3,4] | .[1:3], .[-2:]`, `.[1:]  | length`, `"x" * 3`, `null + 1`, `{} | .a.b.c`,
		`[.[] | .age] | sort`, `[{"a":2},{"a":1}] | sort_by(.a) | .[0]`, `"\u00e9" | utf8bytelength, length`, `[1,2] | contains([1])`,
		`"foobar" | contains("bar")`, `{"a":[1,2,{"b":3}]} | contains({"a":[{"b":3}]})`, `[1,2] | inside([1,2,3])`, `splits("x")`,
		`tojson`, `[.[] | tojson | length]`, `infinite, -infinite, nan | isinfinite, isnan`, `[1,null,2] | map(values)`,
		`ltrimstr(1)`, `@json "x\(1+2)y"`, `"\(1,2) \(3,4)"`, `[.[] | {name, n: (.tags | length)}]`, `{(.[0].name): 1}`,
		`[.[] | {(.name): .age}] | add`, `.[0] | {name, city: .addr.city}`, `{"k": .[0].addr} | .k.zip`, `.[2].addr.city`,
		`[.[] | .name] | index("bob")`, `"a1b22" | [match("\\d+"; "g") | .string]`, `"test" | test("T"; "i")`, `"aXbX" | gsub("x"; "-"; "i")`,
	} {
		cases = append(cases, diffCase{Args: []string{"jq", "-c", q}, Stdin: users})
	}
	runDiff(t, cases)
}
