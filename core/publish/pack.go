package publish

// Packing the offline file's payloads (the wasm, the bundled data files,
// and a published run's manifest and data). Each payload is gzipped and
// written as text in base-122 (below); web/js/unpack.js undoes both with
// the browser's DecompressionStream. Two data files have a codec that stores what their
// text encodes rather than the text, because gzip does poorly on digits:
//
//   - "csv-f64" (landmine): a CSV whose numeric columns hold arbitrary
//     doubles. Those columns are stored as little-endian float64, byte
//     planes apart (all first bytes, then all second bytes, ...), which
//     gzips to 609 KB against 833 KB for the text. The decoder writes each
//     number with JavaScript's shortest round-trip form, so the text
//     differs but every value reads back to the same double. Packed
//     "csv-f64-exact" (a published run's data, which must come back byte
//     for byte), every number written otherwise in the file ("0.10",
//     "3.2e-05") is stored verbatim as an exception.
//   - "svm-tfidf" (sentiment): sparse rows whose values are TF-IDF weights
//     printed with six significant digits, c·idf(df)/‖row‖ (SOURCE.md). The
//     codec stores the feature indices, the term counts c and the idf of
//     each document frequency, and the decoder recomputes every value with
//     the same float64 operations the encoder simulated here; any value
//     whose six digits could come out differently (a different double, or
//     a tie in the rounding) is stored verbatim as an exception.
//
//   - "csv-codes" (school's split file): a CSV whose first column numbers
//     the rows 0, 1, 2, ... and whose other columns each take a few words
//     ("train", "test"). Each of those columns is stored as one byte per
//     row, a code into its words, column after column, which gzips to
//     about a quarter of the text; the decoder writes the same text back,
//     byte for byte (the packer checks that it would).
//
// Every codec's output is checked against the original file, value by
// value, by the tests (through node: web/offline's TestPayloadsRoundTrip).

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Payload is one packed file as the page carries it.
type Payload struct {
	Codec string // "bin" (the wasm), "gz", "csv-f64" or "svm-tfidf"
	Text  string // base-122 of the gzip stream
	Raw   int    // bytes before packing
	Gz    int    // bytes of the gzip stream
}

// b122Illegal are the 7-bit values base-122 never writes as themselves in a
// <script> element: NUL (replaced by the HTML parser), CR (turned into LF)
// and '<' (which could end the element).
var b122Illegal = [...]byte{0, '\r', '<'}

// EncodeB122 writes b as text, 7 bits a character: a 7-bit group that is
// not illegal is one ASCII character; an illegal one and the group after it
// are one character U+0080 + (index<<7 | next), two bytes in UTF-8. The
// decoder stops after the byte count it is given, so the last group is
// padded with zero bits. It is about 8/7 of the input, against 4/3 for base64.
func EncodeB122(b []byte) string {
	var groups []byte
	var acc uint32
	nbits := 0
	for _, c := range b {
		acc = acc<<8 | uint32(c)
		nbits += 8
		for nbits >= 7 {
			nbits -= 7
			groups = append(groups, byte(acc>>nbits)&0x7f)
		}
	}
	if nbits > 0 {
		groups = append(groups, byte(acc<<(7-nbits))&0x7f)
	}
	var sb strings.Builder
	sb.Grow(len(groups) + len(groups)/16)
	for i := 0; i < len(groups); i++ {
		g := groups[i]
		ill := -1
		for k, v := range b122Illegal {
			if g == v {
				ill = k
			}
		}
		if ill < 0 {
			sb.WriteByte(g)
			continue
		}
		next := byte(0)
		if i+1 < len(groups) {
			next = groups[i+1]
			i++
		}
		sb.WriteRune(rune(0x80 + (ill<<7 | int(next))))
	}
	return sb.String()
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// Pack packs raw with codec ("bin", "gz", "csv-f64", "csv-f64-exact",
// "svm-tfidf" or "csv-codes"); name is for errors.
func Pack(name, codec string, raw []byte) (Payload, error) {
	return PackWith(name, codec, raw, nil)
}

// PackWith is Pack with another gzip encoder: gz, when not nil, returns a
// gzip stream of its argument (a build may have a smaller one than Go's
// level 9, as GNU gzip's -9 is, by about 1%). Its stream is checked to
// unpack to the body, and the smaller of it and Go's is kept.
func PackWith(name, codec string, raw []byte, gz func([]byte) ([]byte, error)) (Payload, error) {
	var body []byte
	switch codec {
	case "bin", "gz":
		body = raw
	case "csv-f64", "csv-f64-exact":
		b, err := packCSVF64(string(raw), codec == "csv-f64-exact")
		if err != nil {
			return Payload{}, fmt.Errorf("pack %s: %w", name, err)
		}
		body, codec = b, "csv-f64"
	case "svm-tfidf":
		b, err := packTFIDF(string(raw))
		if err != nil {
			return Payload{}, fmt.Errorf("pack %s: %w", name, err)
		}
		body = b
	case "csv-codes":
		b, err := packCSVCodes(string(raw))
		if err != nil {
			return Payload{}, fmt.Errorf("pack %s: %w", name, err)
		}
		body = b
	default:
		return Payload{}, fmt.Errorf("pack %s: unknown codec %q", name, codec)
	}
	z := gzipBytes(body)
	if gz != nil {
		other, err := gz(body)
		if err != nil {
			return Payload{}, fmt.Errorf("pack %s: %w", name, err)
		}
		if len(other) < len(z) {
			back, err := gunzip(other)
			if err != nil || !bytes.Equal(back, body) {
				return Payload{}, fmt.Errorf("pack %s: the gzip stream does not unpack to the payload (%v)", name, err)
			}
			z = other
		}
	}
	return Payload{Codec: codec, Text: EncodeB122(z), Raw: len(raw), Gz: len(z)}, nil
}

// container joins a codec's description (JSON) and its byte streams: a
// uvarint length, the JSON, then the streams in order; the JSON's
// "streams" lists their lengths.
func container(meta map[string]any, streams ...[]byte) []byte {
	lens := make([]int, len(streams))
	for i, s := range streams {
		lens[i] = len(s)
	}
	meta["streams"] = lens
	js, _ := json.Marshal(meta)
	out := binary.AppendUvarint(nil, uint64(len(js)))
	out = append(out, js...)
	for _, s := range streams {
		out = append(out, s...)
	}
	return out
}

// lines splits text into its lines; the text must end with one newline
// and hold no CR (the codecs write LF line ends).
func lines(text string) ([]string, error) {
	if strings.Contains(text, "\r") {
		return nil, fmt.Errorf("has CR line ends")
	}
	if !strings.HasSuffix(text, "\n") {
		return nil, fmt.Errorf("does not end with a newline")
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n"), nil
}

// planes writes float64s little-endian, byte plane by byte plane.
func planes(v []float64) []byte {
	out := make([]byte, 8*len(v))
	for i, x := range v {
		u := math.Float64bits(x)
		for p := 0; p < 8; p++ {
			out[p*len(v)+i] = byte(u >> (8 * p))
		}
	}
	return out
}

// packCSVF64: the header and the text columns as lines of text, the
// numeric columns (every value a finite double, not -0, and more than two
// distinct values: labels stay text) as float64 planes. exact keeps every
// number that JavaScript would write otherwise as an exception: its
// position among the numbers (as gaps) and its text.
func packCSVF64(text string, exact bool) ([]byte, error) {
	ls, err := lines(text)
	if err != nil {
		return nil, err
	}
	if strings.Contains(text, `"`) {
		return nil, fmt.Errorf("has quoted fields, which csv-f64 does not keep")
	}
	header := ls[0]
	ncol := len(strings.Split(header, ","))
	rows := make([][]string, len(ls)-1)
	for i, l := range ls[1:] {
		rows[i] = strings.Split(l, ",")
		if len(rows[i]) != ncol {
			return nil, fmt.Errorf("line %d has %d fields, the header %d", i+2, len(rows[i]), ncol)
		}
	}
	kinds := make([]byte, ncol)
	for c := range kinds {
		kinds[c] = 'f'
		distinct := map[string]bool{}
		for _, r := range rows {
			x, err := strconv.ParseFloat(r[c], 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || (x == 0 && math.Signbit(x)) {
				kinds[c] = 't'
				break
			}
			if len(distinct) <= 2 {
				distinct[r[c]] = true
			}
		}
		if len(distinct) <= 2 {
			kinds[c] = 't'
		}
	}
	var texts []string
	var nums []float64
	var exc []byte
	var excTok []string
	prevExc := 0
	for _, r := range rows {
		for c, v := range r {
			if kinds[c] == 't' {
				texts = append(texts, v)
				continue
			}
			x, _ := strconv.ParseFloat(v, 64)
			if exact && jsNumber(x) != v {
				exc = binary.AppendUvarint(exc, uint64(len(nums)-prevExc))
				prevExc = len(nums)
				excTok = append(excTok, v)
			}
			nums = append(nums, x)
		}
	}
	meta := map[string]any{"header": header, "kinds": string(kinds), "rows": len(rows)}
	streams := [][]byte{[]byte(strings.Join(texts, "\n")), planes(nums)}
	if len(excTok) > 0 {
		meta["exceptions"] = len(excTok)
		streams = append(streams, exc, []byte(strings.Join(excTok, "\n")))
	}
	return container(meta, streams...), nil
}

// sparseRow is one line of a sparse file.
type sparseRow struct {
	task, label string
	idx         []int
	tok         []string // the values as written
	val         []float64
}

func readSparse(text string) ([]sparseRow, error) {
	ls, err := lines(text)
	if err != nil {
		return nil, err
	}
	rows := make([]sparseRow, len(ls))
	for i, l := range ls {
		f := strings.Split(l, " ")
		if len(f) < 2 {
			return nil, fmt.Errorf("line %d: fewer than two fields", i+1)
		}
		r := sparseRow{task: f[0], label: f[1]}
		prev := 0
		for _, p := range f[2:] {
			k, v, ok := strings.Cut(p, ":")
			j, err1 := strconv.Atoi(k)
			x, err2 := strconv.ParseFloat(v, 64)
			if !ok || err1 != nil || err2 != nil || j <= prev || x <= 0 {
				return nil, fmt.Errorf("line %d: %q is not idx:value with increasing indices and a positive value", i+1, p)
			}
			prev = j
			r.idx = append(r.idx, j)
			r.tok = append(r.tok, v)
			r.val = append(r.val, x)
		}
		rows[i] = r
	}
	return rows, nil
}

// round6 is what the decoder writes for v: six significant digits
// (JavaScript's toPrecision(6)), as the double they read back to. ok is
// false when v is so near a rounding boundary that JavaScript's rounding
// of ties (half up) and Go's (correct, half even) could differ: the
// neighbours of v then round to different digits.
func round6(v float64) (float64, bool) {
	s := strconv.FormatFloat(v, 'e', 5, 64)
	up := strconv.FormatFloat(math.Nextafter(v, math.Inf(1)), 'e', 5, 64)
	down := strconv.FormatFloat(math.Nextafter(v, math.Inf(-1)), 'e', 5, 64)
	x, _ := strconv.ParseFloat(s, 64)
	return x, s == up && s == down
}

// tfidfValues is the decoder's computation, operation for operation:
// w_k = c_k · idf_k, ‖w‖ = sqrt(Σ w_k·w_k) in index order, v_k = w_k/‖w‖.
// The explicit float64 conversions keep the compiler from fusing a multiply
// and an add, which JavaScript never does.
func tfidfValues(cnt []int, idf []float64, out []float64) {
	s := 0.0
	for k, c := range cnt {
		w := float64(float64(c) * idf[k])
		s = float64(s + float64(w*w))
	}
	n := math.Sqrt(s)
	for k, c := range cnt {
		out[k] = float64(float64(c)*idf[k]) / n
	}
}

// packTFIDF stores a sparse TF-IDF file: per row its task, label and
// number of entries; the index gaps; the term counts; the idf of each
// document frequency that occurs; and the exceptions.
func packTFIDF(text string) ([]byte, error) {
	rows, err := readSparse(text)
	if err != nil {
		return nil, err
	}
	N := len(rows)
	df := map[int]int{}
	for _, r := range rows {
		for _, j := range r.idx {
			df[j]++
		}
	}
	idfOf := map[int]float64{} // by document frequency
	for _, d := range df {
		idfOf[d] = math.Log(float64(N) / float64(d))
	}
	taskIdx, labelIdx := map[string]int{}, map[string]int{}
	var tasks, labels []string
	var rowMeta, gaps, counts, exc []byte
	var excTok []string
	pos, prevExc := 0, 0
	for _, r := range rows {
		if _, ok := taskIdx[r.task]; !ok {
			taskIdx[r.task] = len(tasks)
			tasks = append(tasks, r.task)
		}
		if _, ok := labelIdx[r.label]; !ok {
			labelIdx[r.label] = len(labels)
			labels = append(labels, r.label)
		}
		rowMeta = binary.AppendUvarint(rowMeta, uint64(taskIdx[r.task]))
		rowMeta = binary.AppendUvarint(rowMeta, uint64(labelIdx[r.label]))
		rowMeta = binary.AppendUvarint(rowMeta, uint64(len(r.idx)))
		// The counts: each value over its idf is proportional to the count;
		// the row's smallest ratio is taken as a count of 1.
		idf := make([]float64, len(r.idx))
		cnt := make([]int, len(r.idx))
		minRatio := math.Inf(1)
		for k, j := range r.idx {
			idf[k] = idfOf[df[j]]
			if idf[k] > 0 {
				minRatio = math.Min(minRatio, r.val[k]/idf[k])
			}
		}
		for k := range r.idx {
			c := 1
			if idf[k] > 0 && minRatio > 0 && !math.IsInf(minRatio, 0) {
				c = int(math.Round(r.val[k] / idf[k] / minRatio))
			}
			cnt[k] = max(c, 1)
		}
		got := make([]float64, len(r.idx))
		tfidfValues(cnt, idf, got)
		prev := 0
		for k, j := range r.idx {
			gaps = binary.AppendUvarint(gaps, uint64(j-prev))
			prev = j
			counts = binary.AppendUvarint(counts, uint64(cnt[k]))
			if x, ok := round6(got[k]); !ok || x != r.val[k] {
				exc = binary.AppendUvarint(exc, uint64(pos-prevExc))
				prevExc = pos
				excTok = append(excTok, r.tok[k])
			}
			pos++
		}
	}
	dfs := make([]int, 0, len(idfOf))
	for d := range idfOf {
		dfs = append(dfs, d)
	}
	sort.Ints(dfs)
	var dfStream []byte
	idfs := make([]float64, len(dfs))
	for i, d := range dfs {
		dfStream = binary.AppendUvarint(dfStream, uint64(d))
		idfs[i] = idfOf[d]
	}
	meta := map[string]any{"tasks": tasks, "labels": labels, "rows": N, "values": pos, "exceptions": len(excTok)}
	return container(meta, rowMeta, gaps, counts, dfStream, planes(idfs), exc, []byte(strings.Join(excTok, "\n"))), nil
}

// packCSVCodes packs a CSV of a row-number column and columns of at most
// 256 distinct words each (no quotes, no empty file): the header, each
// column's words in order of first use, and the codes, one byte per row
// and column, column after column. It refuses a file that its decoder
// (unpackCSVCodes, and web/js/unpack.js) would not write back byte for
// byte.
func packCSVCodes(text string) ([]byte, error) {
	ls, err := lines(text)
	if err != nil {
		return nil, err
	}
	if len(ls) < 2 || strings.ContainsAny(text, "\"") {
		return nil, fmt.Errorf("want a header and rows, unquoted")
	}
	cols := strings.Split(ls[0], ",")
	if len(cols) < 2 {
		return nil, fmt.Errorf("want a row-number column and columns of words")
	}
	rows := len(ls) - 1
	words := make([][]string, len(cols)-1)
	index := make([]map[string]int, len(cols)-1)
	for j := range index {
		index[j] = map[string]int{}
	}
	codes := make([]byte, rows*(len(cols)-1))
	for r, line := range ls[1:] {
		cells := strings.Split(line, ",")
		if len(cells) != len(cols) || cells[0] != strconv.Itoa(r) {
			return nil, fmt.Errorf("line %d: want %d cells, the first %d", r+2, len(cols), r)
		}
		for j, c := range cells[1:] {
			k, ok := index[j][c]
			if !ok {
				if len(words[j]) == 256 {
					return nil, fmt.Errorf("column %s has more than 256 distinct values", cols[j+1])
				}
				k = len(words[j])
				index[j][c] = k
				words[j] = append(words[j], c)
			}
			codes[j*rows+r] = byte(k)
		}
	}
	out := container(map[string]any{"header": ls[0], "rows": rows, "words": words}, codes)
	if back, err := unpackCSVCodes(ls[0], rows, words, codes); err != nil || back != text {
		return nil, fmt.Errorf("does not come back as written (%v)", err)
	}
	return out, nil
}

// unpackCSVCodes writes packCSVCodes' text back, as web/js/unpack.js does.
func unpackCSVCodes(header string, rows int, words [][]string, codes []byte) (string, error) {
	var b strings.Builder
	b.WriteString(header)
	b.WriteByte('\n')
	for r := range rows {
		b.WriteString(strconv.Itoa(r))
		for j, w := range words {
			k := int(codes[j*rows+r])
			if k >= len(w) {
				return "", fmt.Errorf("code %d of column %d out of its %d words", k, j+1, len(w))
			}
			b.WriteByte(',')
			b.WriteString(w[k])
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}
