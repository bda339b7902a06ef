// Package publish makes and reads a published run: the offline page
// (web/offline writes it: the page, its scripts, the wasm and the bundled
// data sets in one HTML file) with two more payloads, a manifest (what was
// run on which data, the recorded run and its model) and the author's
// data file. The page finds them at start-up (web/js/published.js), shows
// the recorded run without training and can rerun it. The payloads are
// packed as the offline page packs its own (pack.go): gzip, a codec,
// base-122 text in a <script type="application/octet-stream"> element,
// which the page reads and never executes. The command line (spmtl
// publish) and the page's "Publish as a page" button (web/js/pack.js)
// write the same elements.
package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The published payloads' element ids.
const (
	ManifestID = "spmtl-publish"
	DataID     = "spmtl-publish-data"
)

// ManifestFormat names a published run's manifest; ManifestVersion is its
// version.
const (
	ManifestFormat  = "spmtl-published"
	ManifestVersion = 1
)

// Manifest is what a published page holds besides the data: where the
// data came from and how it was read, and the recorded run (with its
// model).
type Manifest struct {
	Format  string  `json:"format"`
	Version int     `json:"version"`
	Data    DataRef `json:"data"`
	Run     RunFile `json:"run"`
}

// DataRef says which data the run was trained on and how it was read: a
// bundled data set by name, or the author's file (its base name, size and
// SHA-256, in the data payload) with its column roles.
type DataRef struct {
	// Bundle names a bundled data set (the page carries it); empty for
	// the author's file.
	Bundle string `json:"bundle,omitempty"`
	// File is the file's base name (never a path).
	File   string `json:"file"`
	Bytes  int    `json:"bytes,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	Rows   int    `json:"rows"`
	Tasks  int    `json:"tasks"`
	// Task and Label are the task and label columns; Drop the columns
	// left out and Text those read as words; Missing is "omit" when the
	// rows with a missing value were left out (app.OmitMissing).
	Task    string   `json:"task,omitempty"`
	Label   string   `json:"label,omitempty"`
	Drop    []string `json:"drop,omitempty"`
	Text    []string `json:"text,omitempty"`
	Missing string   `json:"missing,omitempty"`
	// Origin is the features' origin the run read them with
	// (app.LoadOptions.Origin, app.ParseOrigin): where tune moved it
	// ("means", a multiple of the means, or "column=value"); empty as
	// written.
	Origin string `json:"origin,omitempty"`
}

// Sizes are the sizes of a published page's parts, in bytes.
type Sizes struct {
	Page, Template, Manifest, Data int
	// DataCodec is the data payload's codec ("bin" or "csv-f64"; "" with
	// no data payload).
	DataCodec string
}

// wasmMark starts the offline page's first payload element, at the start
// of a line (the page's scripts name the element, never so); the published
// payloads go just before it.
const wasmMark = "\n" + `<script type="application/octet-stream" id="spmtl-wasm"`

// publishedRe matches a published payload element (base-122 text holds
// no '<').
var publishedRe = regexp.MustCompile(`<script type="application/octet-stream" id="spmtl-publish(?:-data)?"[^>]*>[^<]*</script>\n?`)

// element writes a payload as the page's element with this id.
func element(id string, p Payload) string {
	return fmt.Sprintf("<script type=\"application/octet-stream\" id=%q data-codec=%q data-gz=\"%d\" data-bytes=\"%d\">%s</script>\n",
		id, p.Codec, p.Gz, p.Raw, p.Text)
}

// Write returns the offline page template with m and the data file (nil
// for a bundled data set) packed into it, in place of any published run it
// held. It fills in m's data size and SHA-256.
func Write(template string, m Manifest, data []byte) (string, Sizes, error) {
	if strings.Count(template, wasmMark) != 1 {
		return "", Sizes{}, fmt.Errorf("the page template is not the offline page (spmtl-offline.html, built by ./build.sh): it holds no packed learner")
	}
	template = publishedRe.ReplaceAllString(template, "")
	var els strings.Builder
	sizes := Sizes{Template: len(template)}
	m.Format, m.Version = ManifestFormat, ManifestVersion
	if data != nil {
		if m.Data.Bundle != "" {
			return "", Sizes{}, fmt.Errorf("publish: a bundled data set (%s) is in the page already: give no data file", m.Data.Bundle)
		}
		sum := sha256.Sum256(data)
		m.Data.Bytes, m.Data.SHA256 = len(data), hex.EncodeToString(sum[:])
		p, err := PackData(m.Data.File, data)
		if err != nil {
			return "", Sizes{}, err
		}
		els.WriteString(element(DataID, p))
		sizes.Data, sizes.DataCodec = len(p.Text), p.Codec
	} else if m.Data.Bundle == "" {
		return "", Sizes{}, fmt.Errorf("publish: no data: give the data file or a bundled data set")
	}
	js, err := json.Marshal(m)
	if err != nil {
		return "", Sizes{}, fmt.Errorf("encode the manifest: %w", err)
	}
	p, err := Pack("manifest", "gz", js)
	if err != nil {
		return "", Sizes{}, err
	}
	sizes.Manifest = len(p.Text)
	page := strings.Replace(template, wasmMark, "\n"+element(ManifestID, p)+els.String()+wasmMark[1:], 1)
	sizes.Page = len(page)
	return page, sizes, nil
}

// attrRe reads an attribute of a payload element's start tag.
var attrRe = regexp.MustCompile(`\b(data-codec|data-gz|data-bytes)="([^"]*)"`)

// payloadOf returns the payload of the element with this id, and whether
// the page has one.
func payloadOf(page, id string) (Payload, bool, error) {
	start := strings.Index(page, `<script type="application/octet-stream" id="`+id+`"`)
	if start < 0 {
		return Payload{}, false, nil
	}
	tagEnd := strings.IndexByte(page[start:], '>')
	end := strings.Index(page[start:], "</script>")
	if tagEnd < 0 || end < tagEnd {
		return Payload{}, true, fmt.Errorf("the %s element is not closed", id)
	}
	p := Payload{Text: page[start+tagEnd+1 : start+end]}
	for _, a := range attrRe.FindAllStringSubmatch(page[start:start+tagEnd], -1) {
		switch a[1] {
		case "data-codec":
			p.Codec = a[2]
		case "data-gz":
			p.Gz, _ = strconv.Atoi(a[2])
		case "data-bytes":
			p.Raw, _ = strconv.Atoi(a[2])
		}
	}
	return p, true, nil
}

// Read returns a published page's manifest and data file (nil for a
// bundled data set), checking the data against the manifest's SHA-256.
func Read(page string) (*Manifest, []byte, error) {
	p, ok, err := payloadOf(page, ManifestID)
	if err == nil && !ok {
		err = fmt.Errorf("no published run in this page")
	}
	if err != nil {
		return nil, nil, err
	}
	js, err := Unpack(p)
	if err != nil {
		return nil, nil, fmt.Errorf("read the manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(js, &m); err != nil {
		return nil, nil, fmt.Errorf("read the manifest: %w", err)
	}
	if m.Format != ManifestFormat {
		return nil, nil, fmt.Errorf("read the manifest: format %q, want %q", m.Format, ManifestFormat)
	}
	dp, ok, err := payloadOf(page, DataID)
	if err != nil || !ok {
		if err == nil && m.Data.Bundle == "" {
			err = fmt.Errorf("the page names no bundled data set and holds no data")
		}
		return &m, nil, err
	}
	data, err := Unpack(dp)
	if err != nil {
		return nil, nil, fmt.Errorf("read the data: %w", err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != m.Data.SHA256 {
		return nil, nil, fmt.Errorf("read the data: its SHA-256 is not the manifest's: the page is damaged")
	}
	return &m, data, nil
}
