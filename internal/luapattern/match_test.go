package luapattern

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAgreesWithLua51 compares find, match, gsub and gmatch with what Lua
// 5.1.5 gives on random subjects and patterns, broken ones included.
// testdata/lua51.jsonl holds Lua's answers, each value written as s<hex of
// the text> or n<number>, an error as E<its message>.
func TestAgreesWithLua51(t *testing.T) {
	f, err := os.Open("testdata/lua51.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c struct {
			S, P                      string
			Init                      int
			Find, Match, Gsub, Gmatch string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		for _, check := range []struct {
			name string
			got  string
			want string
		}{
			{"find", luaFind(c.S, c.P, c.Init, true), c.Find},
			{"match", luaFind(c.S, c.P, c.Init, false), c.Match},
			{"gsub", luaGsub(c.S, c.P), c.Gsub},
			{"gmatch", luaGmatch(c.S, c.P), c.Gmatch},
		} {
			if check.got != check.want {
				t.Errorf("%s(%q, %q, %d) = %s, Lua 5.1 gives %s", check.name, c.S, c.P, c.Init, check.got, check.want)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d cases", n)
	}
}

// The functions below are string.find, match, gsub and gmatch as Lua's
// string library writes them around the matcher, answering as the test
// data does.

func enc(v Value) string {
	if v.IsPos {
		return "n" + strconv.Itoa(v.Pos)
	}
	return "s" + hex.EncodeToString([]byte(v.Text))
}

func encErr(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return "E" + enc(Value{Text: e.Msg})
	}
	return "E" + err.Error()
}

func luaFind(s, p string, init int, find bool) string {
	if init < 0 {
		init += len(s) + 1
	}
	init = max(init-1, 0)
	init = min(init, len(s))
	if find && !strings.ContainsAny(p, Specials) {
		if i := strings.Index(s[init:], p); i >= 0 {
			return "n" + strconv.Itoa(init+i+1) + ",n" + strconv.Itoa(init+i+len(p))
		}
		return "nil"
	}
	var m Matcher
	start, end, err := m.Find(s, p, init)
	if err != nil {
		return encErr(err)
	}
	if start < 0 {
		return "nil"
	}
	caps, err := m.Captures(start, end, !find)
	if err != nil {
		return encErr(err)
	}
	var out []string
	if find {
		out = append(out, "n"+strconv.Itoa(start+1), "n"+strconv.Itoa(end))
	}
	for _, c := range caps {
		out = append(out, enc(c))
	}
	return strings.Join(out, ",")
}

func luaGsub(s, p string) string {
	var m Matcher
	var b strings.Builder
	n, err := m.Gsub(s, p, len(s)+1, func(start, end int) (string, error) {
		return "<" + s[start:end] + ">", nil
	}, func(piece string) error {
		b.WriteString(piece)
		return nil
	})
	if err != nil {
		return encErr(err)
	}
	return enc(Value{Text: b.String()}) + ",n" + strconv.Itoa(n)
}

func luaGmatch(s, p string) string {
	var m Matcher
	var out []string
	for from, k := 0, 0; k < 50; k++ {
		start, end, next, err := m.Next(s, p, from)
		if err != nil {
			return encErr(err)
		}
		if start < 0 {
			break
		}
		caps, err := m.Captures(start, end, true)
		if err != nil {
			return encErr(err)
		}
		item := enc(caps[0])
		if len(caps) > 1 {
			item += "/" + enc(caps[1])
		}
		out = append(out, item)
		from = next
	}
	return strings.Join(out, ";")
}
