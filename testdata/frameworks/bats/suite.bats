#!/usr/bin/env bats
# A bats suite exercising the framework's main features; run under bash
# and under sandsh by the end-to-end test in framework_test.go.

bats_require_minimum_version 1.5.0

load helper

setup_file() {
	export SUITE_DIR="$BATS_FILE_TMPDIR/suite"
	mkdir -p "$SUITE_DIR"
	printf 'alpha\nbeta\ngamma\n' >"$SUITE_DIR/words.txt"
}

teardown_file() {
	rm -rf "$SUITE_DIR"
}

setup() {
	WORK=$(mktemp -d "$BATS_TEST_TMPDIR/work.XXXXXX")
	echo "setup ran" >"$WORK/marker"
}

teardown() {
	rm -rf "$WORK"
}

@test "setup ran before the test" {
	[ -f "$WORK/marker" ]
	[ "$(cat "$WORK/marker")" = "setup ran" ]
}

@test "setup_file exported a variable and made a file" {
	[ -n "$SUITE_DIR" ]
	[ "$(count_lines "$SUITE_DIR/words.txt")" -eq 3 ]
}

@test "run captures status and output" {
	run greet bats
	[ "$status" -eq 0 ]
	[ "$output" = "hello, bats" ]
}

@test "run captures lines" {
	run printf 'one\ntwo\nthree\n'
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = one ]
	[ "${lines[2]}" = three ]
}

@test "run with an expected status" {
	run -1 bash -c 'echo failing; exit 1'
	[ "$output" = failing ]
	run ! false
}

@test "run keeps stderr apart with --separate-stderr" {
	run --separate-stderr bash -c 'echo out; echo err >&2'
	[ "$output" = out ]
	[ "$stderr" = err ]
}

@test "pipelines and text tools" {
	result=$(sort -r "$SUITE_DIR/words.txt" | head -n 1 | sed 's/g/G/')
	[ "$result" = Gamma ]
	grep -q beta "$SUITE_DIR/words.txt"
}

@test "a skipped test" {
	skip "not today"
	false
}

@test "a failing test is reported" {
	run echo actual
	[ "$output" = expected ]
}

@test "loops and arithmetic" {
	local total=0
	for i in 1 2 3 4; do
		total=$((total + i))
	done
	[ "$total" -eq 10 ]
}
