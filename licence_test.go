package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestThirdPartyLicences: every fork under third_party/ keeps its
// upstream licence file next to its code and is named in NOTICE, and the
// repository's own licence is the Apache-2.0 text, so that nobody who
// adopts sandsh receives code without the terms it came under.
func TestThirdPartyLicences(t *testing.T) {
	own, err := os.ReadFile("LICENSE")
	if err != nil {
		t.Fatalf("reading the repository's licence: %v", err)
	}
	for _, want := range []string{"Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS"} {
		if !strings.Contains(string(own), want) {
			t.Errorf("LICENSE lacks %q: not the Apache-2.0 text", want)
		}
	}
	notice, err := os.ReadFile("NOTICE")
	if err != nil {
		t.Fatalf("reading NOTICE: %v", err)
	}
	forks, err := os.ReadDir("third_party")
	if err != nil {
		t.Fatalf("listing third_party: %v", err)
	}
	n := 0
	for _, fork := range forks {
		if !fork.IsDir() {
			continue
		}
		n++
		dir := filepath.Join("third_party", fork.Name())
		lic := filepath.Join(dir, "LICENSE")
		text, err := os.ReadFile(lic)
		switch {
		case err != nil:
			t.Errorf("%s: no licence file next to the code: %v", dir, err)
		case !strings.Contains(strings.ToLower(string(text)), "copyright"):
			t.Errorf("%s: holds no copyright line", lic)
		}
		if !strings.Contains(string(notice), "\n"+dir+"\n") {
			t.Errorf("NOTICE does not list %s", dir)
		}
	}
	if n == 0 {
		t.Fatal("no directory under third_party: the test would pass on nothing")
	}
}
