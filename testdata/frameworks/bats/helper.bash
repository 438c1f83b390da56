# Loaded by suite.bats with `load helper`.
greet() {
	printf 'hello, %s\n' "${1:-world}"
}

count_lines() {
	wc -l <"$1" | tr -d ' '
}
