package bench

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/PARAMETERS.md lists every parameter bench params searches, in its
// fitted section, and every FIT tag of the device parameters is one of them.
func TestParametersDocListsEveryFitParam(t *testing.T) {
	doc, err := os.ReadFile("../docs/PARAMETERS.md")
	require.NoError(t, err)
	i := strings.Index(string(doc), "## Fitted parameters")
	require.Positive(t, i)
	fitted := string(doc[i:])
	names := map[string]bool{}
	for _, p := range FitParams() {
		names[p.Name] = true
		assert.Contains(t, fitted, "| "+p.Name+" |", "the windows table has %s", p.Name)
		pkg, field, _ := strings.Cut(p.Name, ".")
		section := deviceSection(string(doc[:i]), pkg)
		require.NotEmpty(t, section, "docs/PARAMETERS.md has a section for devices/%s Params", pkg)
		fit := regexp.MustCompile(`(?m)^\| \*\*` + regexp.QuoteMeta(field) + `\*\* \|.*\| \*\*FIT\*\* \|`)
		assert.Equal(t, strings.HasPrefix(p.Source, "FIT"), fit.MatchString(section),
			"%s: FIT in bench.FitParams if and only if FIT in the list of all parameters", p.Name)
	}
	for _, f := range []struct{ pkg, file string }{{"acb4000", "../devices/acb4000/params.go"}, {"mcd403", "../devices/mcd403/params.go"}} {
		src, err := os.ReadFile(f.file)
		require.NoError(t, err)
		tagged := fitFields(string(src))
		require.NotEmpty(t, tagged, f.file)
		for _, field := range tagged {
			assert.True(t, names[f.pkg+"."+field], "%s.%s is tagged FIT but bench params does not search it", f.pkg, field)
			assert.True(t, strings.HasPrefix(fitParamSource(f.pkg+"."+field), "FIT"), "%s.%s: source tag FIT in bench.FitParams", f.pkg, field)
		}
		for _, p := range FitParams() {
			if pkg, field, _ := strings.Cut(p.Name, "."); pkg == f.pkg && strings.HasPrefix(p.Source, "FIT") {
				assert.Contains(t, tagged, field, "%s is FIT in bench.FitParams: its comment in %s says so", p.Name, f.file)
			}
		}
	}
}

// At most six parameters are fitted, in the code and in docs/PARAMETERS.md
// alike: the bold FIT rows of the list of all parameters are the FIT
// entries of bench.FitParams, and the table of the 21 once fitted says FIT for
// exactly those.
func TestParametersDocFittedCount(t *testing.T) {
	doc, err := os.ReadFile("../docs/PARAMETERS.md")
	require.NoError(t, err)
	i := strings.Index(string(doc), "## Fitted parameters")
	require.Positive(t, i)
	all, fittedSec := string(doc[:i]), string(doc[i:])
	bold := regexp.MustCompile(`(?m)^\| \*\*(\w+)\*\* \|.*\| \*\*FIT\*\* \|`)
	var inDoc []string
	for _, pkg := range []string{"acb4000", "mcd403"} {
		for _, m := range bold.FindAllStringSubmatch(deviceSection(all, pkg), -1) {
			inDoc = append(inDoc, pkg+"."+m[1])
		}
	}
	var inCode []string
	for _, f := range FittedParams() {
		inCode = append(inCode, f.Name)
	}
	assert.ElementsMatch(t, inCode, inDoc, "the fitted parameters in the code and in the list of all parameters")
	assert.LessOrEqual(t, len(inCode), 6, "at most six fitted parameters (docs/PARAMETERS.md)")
	assert.True(t, strings.Contains(fittedSec, []string{"", "One", "Two", "Three", "Four", "Five", "Six"}[len(inCode)]+" are fitted"),
		"the text says how many are fitted")

	rows := tableRowsAfter(t, fittedSec, "| The 21 once fitted | Now | Why |")
	assert.Len(t, rows, 21)
	for _, r := range rows {
		src := fitParamSource(r[0])
		fit := strings.HasPrefix(r[1], "FIT")
		assert.Equal(t, strings.HasPrefix(src, "FIT"), fit, "%s: FIT in the table of 21 if and only if in bench.FitParams", r[0])
		if src == "" {
			assert.False(t, fit, "%s is no longer searched, so it cannot be fitted", r[0])
		}
	}
	windows := fittedSec[strings.Index(fittedSec, "### Windows"):]
	for _, p := range FitParams() {
		assert.True(t, strings.Contains(windows, "| "+p.Name+" |"), "the windows table has %s", p.Name)
	}
}

// deviceSection is the part of the list of all parameters about package
// pkg's Params (its "### ... (devices/pkg Params)" heading to the next).
func deviceSection(doc, pkg string) string {
	for _, sec := range strings.Split(doc, "\n### ") {
		if head, _, _ := strings.Cut(sec, "\n"); strings.Contains(head, "devices/"+pkg+" Params") {
			return sec
		}
	}
	return ""
}

// fitTag is a source tag in brackets that says FIT ([FIT], [A mechanism,
// FIT length]).
var fitTag = regexp.MustCompile(`\[[^\]]*\bFIT\b[^\]]*\]`)

// fitFields returns the fields of a Params struct whose doc comment carries
// the FIT tag.
func fitFields(src string) []string {
	var out []string
	var comment strings.Builder
	for _, line := range strings.Split(src, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "//"):
			comment.WriteString(l)
		case l == "":
			comment.Reset()
		default:
			f := strings.Fields(l)
			if len(f) == 2 && fitTag.MatchString(comment.String()) && (f[1] == "sched.Time" || f[1] == "int") {
				out = append(out, f[0])
			}
			comment.Reset()
		}
	}
	return out
}

func fitParamSource(name string) string {
	for _, p := range FitParams() {
		if p.Name == name {
			return p.Source
		}
	}
	return ""
}
