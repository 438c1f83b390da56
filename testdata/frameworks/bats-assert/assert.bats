#!/usr/bin/env bats
# bats-assert 2.2.4 and bats-support 0.3.0 (npm), as projects load them:
# every assertion of bats-assert's README, each passing and each failing,
# so that bats-support's failure output (batslib_print_kv_single_or_multi,
# batslib_decorate, the multi-line layout) is compared too. Failing tests
# are marked "(fails)": bash and sandsh must fail them the same way.

setup() {
	load 'node_modules/bats-support/load'
	load 'node_modules/bats-assert/load'
}

@test "assert and refute" {
	touch /tmp/bats-assert-x.$$
	assert [ -e "/tmp/bats-assert-x.$$" ]
	refute [ -e "/tmp/nope.$$" ]
	rm -f /tmp/bats-assert-x.$$
}

@test "assert (fails)" {
	assert [ 1 -gt 2 ]
}

@test "refute (fails)" {
	refute [ 2 -gt 1 ]
}

@test "assert_equal and assert_not_equal" {
	assert_equal "$(echo a b)" 'a b'
	assert_not_equal 'a' 'b'
}

@test "assert_equal (fails, multi-line)" {
	assert_equal "$(printf 'one\ntwo')" 'one'
}

@test "assert_success and assert_failure" {
	run bash -c 'echo out; exit 0'
	assert_success
	run bash -c 'echo err >&2; exit 3'
	assert_failure
	assert_failure 3
}

@test "assert_success (fails)" {
	run bash -c 'echo "Error!"; exit 1'
	assert_success
}

@test "assert_failure with status (fails)" {
	run bash -c 'exit 2'
	assert_failure 3
}

@test "assert_output: literal, partial, regexp, stdin" {
	run echo 'have-0102'
	assert_output 'have-0102'
	assert_output --partial '01'
	assert_output --regexp '^have-[0-9]{4}$'
	echo 'have-0102' | assert_output -
	refute_output 'want'
	refute_output --partial 'xyz'
	refute_output --regexp '^[0-9]+$'
}

@test "assert_output (fails)" {
	run echo 'have'
	assert_output 'want'
}

@test "assert_output --partial (fails, multi-line)" {
	run printf 'ERROR: no\nsecond line\n'
	assert_output --partial 'ok'
}

@test "assert_output --regexp bad pattern (fails)" {
	run echo x
	assert_output --regexp '[[:digit:]'
}

@test "refute_output (fails)" {
	run echo 'want'
	refute_output 'want'
}

@test "assert_line and refute_line" {
	run printf 'have-0\nhave-1\nhave-2\n'
	assert_line 'have-1'
	assert_line --index 2 'have-2'
	assert_line --partial 've-0'
	assert_line --index 0 --regexp '^have-[0-9]$'
	refute_line 'want'
	refute_line --index 1 'have-0'
	refute_line --partial 'xyz'
	refute_line --regexp '^want'
}

@test "assert_line (fails)" {
	run printf 'have-0\nhave-1\n'
	assert_line 'want'
}

@test "assert_line --index (fails)" {
	run printf 'have-0\nhave-1\n'
	assert_line --index 1 'have-0'
}

@test "refute_line --partial (fails)" {
	run printf 'have-0\nhave-1\n'
	refute_line --partial 'have'
}

@test "assert_regex and refute_regex" {
	assert_regex 'what' 't$'
	assert_regex 'abc-123' '^[a-z]+-[0-9]+$'
	refute_regex 'WhatEver' '^what'
}

@test "assert_regex (fails)" {
	assert_regex 'WhatEver' '^what'
}

@test "refute_regex (fails)" {
	refute_regex 'whatever' 't.*r$'
}

@test "run with --separate-stderr and output lines" {
	bats_require_minimum_version 1.5.0
	run --separate-stderr bash -c 'echo out; echo err >&2'
	assert_output 'out'
	assert_equal "$stderr" 'err'
	assert_equal "${#lines[@]}" 1
}

@test "run with an expected status" {
	bats_require_minimum_version 1.5.0
	run -3 bash -c 'exit 3'
	assert_equal "$status" 3
}

@test "fail and batslib helpers from bats-support" {
	run batslib_count_lines "$(printf 'a\nb\nc')"
	assert_output 3
	run batslib_is_single_line 'one'
	assert_success
	run batslib_prefix '> ' <<<"$(printf 'x\ny')"
	assert_output "$(printf '> x\n> y')"
}

@test "fail (fails)" {
	fail 'custom failure message'
}

@test "assert_output with no run (fails)" {
	assert_output 'x'
}
