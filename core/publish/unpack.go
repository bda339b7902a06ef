package publish

// The Go side of unpacking: what web/js/unpack.js does in the page, for
// reading a published file back (Read) and for choosing, before a file is
// packed, the codec that gives its bytes back exactly (PackData).

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DecodeB122 reads n bytes back from base-122 text (EncodeB122).
func DecodeB122(text string, n int) ([]byte, error) {
	out := make([]byte, 0, n)
	var acc uint32
	bits := 0
	put := func(g byte) {
		acc = (acc<<7 | uint32(g)) & 0x7fff
		bits += 7
		if bits >= 8 {
			bits -= 8
			if len(out) < n {
				out = append(out, byte(acc>>bits))
			}
		}
	}
	for i, r := range text {
		if len(out) >= n {
			break
		}
		if r < 0x80 {
			put(byte(r))
			continue
		}
		v := int(r) - 0x80
		k := v >> 7
		if k >= len(b122Illegal) {
			return nil, fmt.Errorf("a damaged payload: character %U at byte %d", r, i)
		}
		put(b122Illegal[k])
		put(byte(v & 0x7f))
	}
	if len(out) < n {
		return nil, fmt.Errorf("a payload ends after %d of %d bytes", len(out), n)
	}
	return out, nil
}

// gunzip undoes gzipBytes.
func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// Unpack gives back the file a payload holds, as unpack.js gives it to the
// page: the bytes of "bin" and "gz", the text "csv-f64" decodes to.
func Unpack(p Payload) ([]byte, error) {
	gz, err := DecodeB122(p.Text, p.Gz)
	if err != nil {
		return nil, err
	}
	body, err := gunzip(gz)
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	switch p.Codec {
	case "bin", "gz":
		return body, nil
	case "csv-f64":
		s, err := decodeCSVF64(body)
		return []byte(s), err
	}
	return nil, fmt.Errorf("codec %q is not unpacked here", p.Codec)
}

// decodeCSVF64 is unpack.js's spmtlCSVF64: the header, each row's text
// cells as stored, and its numbers as JavaScript writes them or, for an
// exception, as the file wrote them.
func decodeCSVF64(b []byte) (string, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return "", fmt.Errorf("csv-f64: a damaged container")
	}
	var meta struct {
		Header     string `json:"header"`
		Kinds      string `json:"kinds"`
		Rows       int    `json:"rows"`
		Exceptions int    `json:"exceptions"`
		Streams    []int  `json:"streams"`
	}
	if err := json.Unmarshal(b[k:k+int(n)], &meta); err != nil || len(meta.Streams) < 2 || (meta.Exceptions > 0) != (len(meta.Streams) == 4) {
		return "", fmt.Errorf("csv-f64: a damaged description: %v", err)
	}
	rest := b[k+int(n):]
	var streams [][]byte
	for _, l := range meta.Streams {
		if l < 0 || l > len(rest) {
			return "", fmt.Errorf("csv-f64: streams longer than the container")
		}
		streams, rest = append(streams, rest[:l]), rest[l:]
	}
	if len(rest) != 0 || len(streams[1])%8 != 0 {
		return "", fmt.Errorf("csv-f64: damaged streams")
	}
	texts := strings.Split(string(streams[0]), "\n")
	planes := streams[1]
	nums := len(planes) / 8
	// Exceptions: the numbers kept as written, by their position.
	exc := map[int]string{}
	if meta.Exceptions > 0 {
		toks := strings.Split(string(streams[3]), "\n")
		gaps, pos := streams[2], 0
		for i := 0; i < meta.Exceptions; i++ {
			g, w := binary.Uvarint(gaps)
			if w <= 0 || i >= len(toks) {
				return "", fmt.Errorf("csv-f64: damaged exceptions")
			}
			gaps, pos = gaps[w:], pos+int(g)
			exc[pos] = toks[i]
		}
	}
	var sb strings.Builder
	sb.WriteString(meta.Header)
	sb.WriteByte('\n')
	t, f := 0, 0
	for r := 0; r < meta.Rows; r++ {
		for c := 0; c < len(meta.Kinds); c++ {
			if c > 0 {
				sb.WriteByte(',')
			}
			if meta.Kinds[c] == 't' {
				if t >= len(texts) {
					return "", fmt.Errorf("csv-f64: too few text cells")
				}
				sb.WriteString(texts[t])
				t++
				continue
			}
			if f >= nums {
				return "", fmt.Errorf("csv-f64: too few numbers")
			}
			if tok, ok := exc[f]; ok {
				sb.WriteString(tok)
			} else {
				var u uint64
				for p := 0; p < 8; p++ {
					u |= uint64(planes[p*nums+f]) << (8 * p)
				}
				sb.WriteString(jsNumber(math.Float64frombits(u)))
			}
			f++
		}
		sb.WriteByte('\n')
	}
	return sb.String(), nil
}

// jsNumber writes x as JavaScript's String(x) does: the shortest digits
// that read back to x, in plain notation from 1e-7 up to 1e21 and in
// exponent notation ("1e-7", "1.5e+21") outside it.
func jsNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0"
	case x < 0:
		return "-" + jsNumber(-x)
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	p, _ := strconv.Atoi(exp)
	k, n := len(digits), p+1 // x = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	return fmt.Sprintf("%se%s%d", m, sign, abs(n-1))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// PackData packs a data file so that the page gets back exactly its
// bytes: "csv-f64" (exact: its numbers as planes of doubles, any written
// otherwise than JavaScript writes it kept verbatim) when that gives the
// same bytes and is the smaller, else "bin", the file gzipped as it is.
func PackData(name string, raw []byte) (Payload, error) {
	bin, err := Pack(name, "bin", raw)
	if err != nil {
		return Payload{}, err
	}
	if !utf8.Valid(raw) || bytes.Contains(raw, []byte("\uFEFF")) {
		return bin, nil
	}
	f64, err := Pack(name, "csv-f64-exact", raw)
	if err != nil || f64.Gz >= bin.Gz {
		return bin, nil
	}
	if back, err := Unpack(f64); err != nil || !bytes.Equal(back, raw) {
		return bin, nil
	}
	return f64, nil
}
