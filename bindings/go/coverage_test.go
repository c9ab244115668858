package xsession

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// packageSources is the text of the package's non-test Go files.
func packageSources(t *testing.T) map[string]string {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

// Every function xsession.h and xsession_storage.h declare is called by the binding.
func TestEveryHeaderFunctionIsWrapped(t *testing.T) {
	var decls [][]string
	for header, least := range map[string]int{"xsession.h": 60, "xsession_storage.h": 3} {
		src, err := os.ReadFile(filepath.Join("..", "..", "capi", "include", header))
		if err != nil {
			t.Fatal(err)
		}
		found := regexp.MustCompile(`(?m)^XS_API [^(;]*?\b(xs_\w+)\(`).FindAllStringSubmatch(string(src), -1)
		if len(found) < least {
			t.Fatalf("found only %d XS_API functions in %s", len(found), header)
		}
		decls = append(decls, found...)
	}
	// Called from Go (C.xs_f(...)), or from C in a cgo preamble: a callback's trampoline.
	var goCalls, cCalls strings.Builder
	preamble := regexp.MustCompile(`(?s)/\*(.*?)\*/\s*import "C"`)
	for _, s := range packageSources(t) {
		goCalls.WriteString(s)
		for _, m := range preamble.FindAllStringSubmatch(s, -1) {
			cCalls.WriteString(m[1])
		}
	}
	for _, d := range decls {
		if !strings.Contains(goCalls.String(), "C."+d[1]+"(") && !strings.Contains(cCalls.String(), d[1]+"(") {
			t.Errorf("%s is not wrapped", d[1])
		}
	}
}

// Every exported name, method and struct field has a doc comment (go vet does not check it).
func TestEveryExportedNameIsDocumented(t *testing.T) {
	fset := token.NewFileSet()
	for name, src := range packageSources(t) {
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		missing := func(pos token.Pos, what string) {
			t.Errorf("%s: exported %s has no doc comment", fset.Position(pos), what)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && d.Doc == nil {
					missing(d.Pos(), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					checkSpec(spec, d.Doc, missing)
				}
			}
		}
	}
}

func checkSpec(spec ast.Spec, groupDoc *ast.CommentGroup, missing func(token.Pos, string)) {
	switch s := spec.(type) {
	case *ast.TypeSpec:
		if !s.Name.IsExported() {
			return
		}
		if s.Doc == nil && groupDoc == nil {
			missing(s.Pos(), s.Name.Name)
		}
		if st, ok := s.Type.(*ast.StructType); ok {
			for _, field := range st.Fields.List {
				for _, n := range field.Names {
					if n.IsExported() && field.Doc == nil && field.Comment == nil {
						missing(field.Pos(), s.Name.Name+"."+n.Name)
					}
				}
			}
		}
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.IsExported() && s.Doc == nil && s.Comment == nil && groupDoc == nil {
				missing(n.Pos(), n.Name)
			}
		}
	}
}

// Every Go file of the package, tests included, is gofmt'd.
func TestSourcesAreGofmted(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
		} else if string(want) != string(src) {
			t.Errorf("%s is not gofmt'd", f)
		}
	}
}

// The README's examples are the tested ones, word for word.
func TestReadmeShowsTheTestedExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for file, start := range map[string]string{
		"example_test.go":         "// An agent loop",
		"example_keys_test.go":    "// The keyed store",
		"example_history_test.go": "// The prompt history",
		"example_index_test.go":   "// The session index",
		"example_storage_test.go": "// Storage of your own",
		"example_bundle_test.go":  "// Bundles and HTML pages",
	} {
		example, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		body := string(example)
		body = body[strings.Index(body, start):]
		if !strings.Contains(string(readme), "```go\n"+body+"```\n") {
			t.Errorf("README.md does not show %s's example as it is", file)
		}
	}
}
