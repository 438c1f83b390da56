package check

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// jsonFinding is a finding as --format json prints it.
type jsonFinding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	End      Pos    `json:"end"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// WriteText prints one line per finding: file:line:col: severity: message [code].
func WriteText(w io.Writer, fs []Finding) error {
	for _, f := range fs {
		if _, err := fmt.Fprintln(w, f.String()); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON prints the findings as one JSON array.
func WriteJSON(w io.Writer, fs []Finding) error {
	out := make([]jsonFinding, 0, len(fs))
	for _, f := range fs {
		out = append(out, jsonFinding{File: f.File, Line: f.Pos.Line, Column: f.Pos.Column, End: f.End,
			Severity: f.Severity.String(), Code: f.Code, Message: f.Message})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// SARIF 2.1.0, the subset CI systems read to show findings inline.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri,omitempty"`
		Version        string      `json:"version,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		ShortDescription sarifMessage `json:"shortDescription"`
		HelpURI          string       `json:"helpUri,omitempty"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifMessage    `json:"message"`
		Locations []sarifLocation `json:"locations"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

// SARIFSchema is the schema the SARIF output declares.
const SARIFSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// WriteSARIF prints the findings as a SARIF 2.1.0 log with one run.
func WriteSARIF(w io.Writer, fs []Finding, toolVersion string) error {
	var ids []string
	for _, f := range fs {
		if !slices.Contains(ids, f.Code) {
			ids = append(ids, f.Code)
		}
	}
	slices.Sort(ids)
	drv := sarifDriver{Name: "sandsh check", InformationURI: "https://github.com/sandsh/sandsh", Version: toolVersion, Rules: []sarifRule{}}
	for _, id := range ids {
		drv.Rules = append(drv.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{Text: ruleText(id)}, HelpURI: HelpURI})
	}
	run := sarifRun{Tool: sarifTool{Driver: drv}, Results: []sarifResult{}}
	for _, f := range fs {
		level := map[Severity]string{Error: "error", Warning: "warning", Info: "note"}[f.Severity]
		reg := sarifRegion{StartLine: max(f.Pos.Line, 1), StartColumn: max(f.Pos.Column, 1)}
		if f.End.Line >= reg.StartLine && f.End.Column >= 1 {
			reg.EndLine, reg.EndColumn = f.End.Line, f.End.Column
		}
		run.Results = append(run.Results, sarifResult{RuleID: f.Code, RuleIndex: slices.Index(ids, f.Code), Level: level,
			Message: sarifMessage{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: f.File}, Region: reg}}}})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// WriteGCC writes findings as compilers do (file:line:col: error|warning|
// note: message [code]), which editors and CI annotators read.
func WriteGCC(w io.Writer, fs []Finding) error {
	for _, f := range fs {
		sev := map[Severity]string{Error: "error", Warning: "warning", Info: "note"}[f.Severity]
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", f.File, max(f.Pos.Line, 1), max(f.Pos.Column, 1), sev, f.Message, f.Code); err != nil {
			return err
		}
	}
	return nil
}

// HelpURI is where a finding code is explained (SARIF's helpUri).
const HelpURI = "https://github.com/sandsh/sandsh/blob/main/README.md#sandsh-check-the-static-check"

// rules describe each finding code (SARIF's rule descriptions, README).
var rules = map[string]string{
	"syntax":                 "the script does not parse",
	"nested-syntax":          "text handed to a shell (bash -c, eval, trap, alias, backquotes) does not parse",
	"too-deep":               "text nested too deep to check",
	"dynamic-command":        "a command name computed at run time",
	"eval":                   "eval of literal text (checked)",
	"eval-computed":          "eval of computed text",
	"source-file":            "a sourced or run script file this check does not read",
	"source-computed":        "source or . of a computed path (the file is not checked)",
	"shell-computed":         "bash or sh with computed text or options",
	"shell-file-computed":    "bash or sh running a computed script path (the file is not checked)",
	"subscript-substitution": "a command substitution inside an array subscript that is evaluated later as arithmetic (printf -v, declare, let, (( )), a nameref)",
	"ps4-substitution":       "PS4 holding a command substitution, run by set -x at every traced command",
	"xargs-shell":            "xargs running a shell on its input",
	"xargs-shell-input":      "xargs -I putting its input into shell text: input becomes code",
	"suppress-no-reason":     "an inline suppression without a reason (-- reason): it suppresses nothing",
	"shell-stdin":            "bash or sh reading commands from standard input",
	"trap-computed":          "trap with computed text",
	"alias":                  "an alias definition (its text is checked)",
	"alias-call":             "a call to an alias",
	"alias-computed":         "an alias with computed text",
	"wrapper-computed":       "env, xargs, find -exec, timeout, nice, nohup, command or exec running a computed command",
	"awk-file":               "an awk program read from a file",
	"awk-computed":           "a computed awk program",
	"awk-system-computed":    "awk system() or a pipe with computed text",
	"sed-file":               "a sed script read from a file",
	"sed-computed":           "a computed sed script",
	"sed-e-computed":         "sed e or s///e running the pattern space",
	"script-file":            "a command named by path outside the in-process command directories",
	"unavailable":            "neither a shell builtin nor an in-process command: refused in restricted mode",
	"policy-deny":            "denied by the policy",
	"policy-ask":             "the policy asks before running it (deny without a terminal)",
	"command":                "a command the script can run (inventory)",
}

func ruleText(id string) string {
	if t, ok := rules[id]; ok {
		return t
	}
	if len(id) > 10 && id[:10] == "dangerous:" {
		return "a built-in dangerous pattern: " + id[10:]
	}
	return id
}

// Inventory turns the command list into info findings (code "command"),
// for --list.
func Inventory(r *Result) []Finding {
	var out []Finding
	for _, c := range r.Commands {
		out = append(out, Finding{File: r.File, Pos: c.First, End: c.First, Severity: Info, Code: "command",
			Message: fmt.Sprintf("runs %s (%s), %d place(s)", c.Name, c.Kind, c.Count)})
	}
	return out
}
