package publish

import (
	"strings"
	"testing"
)

// FuzzReadPublished: Read, the reader of a published page's run and data,
// never panics on any page text, and what it accepts has the manifest's
// format and data whose SHA-256 the manifest names (Read checks it).
func FuzzReadPublished(f *testing.F) {
	page, _, err := Write(template, testManifest(), []byte("school,score,student\nA,1,1\nB,2,2\n"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(page)
	f.Add(strings.Replace(page, `data-gz="1"`, `data-gz="0"`, 1))
	f.Add(template)
	f.Add(`<script type="application/octet-stream" id="` + ManifestID + `" data-codec="bin" data-gz="0" data-n="99999999999">` + strings.Repeat("[", 64) + `</script>`)
	f.Fuzz(func(t *testing.T, page string) {
		m, _, err := Read(page)
		if err == nil && (m == nil || m.Format != ManifestFormat) {
			t.Fatalf("Read accepted a page whose manifest is %+v", m)
		}
	})
}
