#!/bin/bash
# A shunit2 test file; run under bash and under sandsh by the end-to-end
# test in framework_test.go. SHUNIT2 names the framework's file.

oneTimeSetUp() {
	DATA=$(mktemp -d)
	printf '3\n1\n2\n' >"$DATA/nums"
}

oneTimeTearDown() {
	rm -rf "$DATA"
}

setUp() {
	COUNTER=0
	SCRATCH="$DATA/scratch"
	: >"$SCRATCH"
}

tearDown() {
	rm -f "$SCRATCH"
}

testEquality() {
	assertEquals "sum" 3 $((1 + 2))
	assertNotEquals "different" a b
}

testStrings() {
	local s="hello world"
	assertContains "contains" "$s" "lo wo"
	assertNotContains "not contains" "$s" "xyz"
	assertNull "empty" ""
	assertNotNull "not empty" "$s"
}

testTrueFalse() {
	assertTrue "true" "[ 1 -eq 1 ]"
	assertFalse "false" "[ 1 -eq 2 ]"
	assertTrue 0
}

testSetUpRan() {
	assertEquals 0 "$COUNTER"
	COUNTER=5
	assertTrue "scratch exists" "[ -f '$SCRATCH' ]"
}

testSetUpRanAgain() {
	# setUp resets COUNTER before every test.
	assertEquals 0 "$COUNTER"
}

testPipeline() {
	local got
	got=$(sort -n "$DATA/nums" | tr '\n' ' ')
	assertEquals "1 2 3 " "$got"
}

testFailure() {
	assertEquals "deliberate failure" expected actual
}

testSkipping() {
	startSkipping
	assertEquals "skipped" 1 2
	endSkipping
}

# shellcheck disable=SC1090
. "${SHUNIT2:-/usr/share/shunit2/shunit2}"
