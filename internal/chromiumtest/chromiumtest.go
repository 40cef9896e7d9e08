// Package chromiumtest starts the headless Chromium the browser tests
// drive (the console's pages in web, a team game day against real `oncall
// play` processes in cmd/oncall). Without a Chromium they skip, saying how
// to install one; with CI=true a missing browser fails the run.
package chromiumtest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path returns the Chromium to run: $CHROMIUM, or the first of the usual
// names on $PATH; "" when there is none.
func Path() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Start starts a headless Chromium for one test, its window width × height
// pixels, and returns a context whose tab the test drives (or in which it
// makes tabs of new browser contexts). The browser ends with the test.
//
// The context lives as long as the test may: a loaded machine makes every
// step slower, and each wait gives up on its own. It ends 30 s before the
// test binary's -timeout, so that a wait that never ends is reported with
// what it waited for rather than by a panic.
func Start(t testing.TB, width, height int) context.Context {
	t.Helper()
	path := Path()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium found and CI=true: install one with apt-get install -y chromium (or set CHROMIUM to its path)")
		}
		t.Skip("no Chromium found: install one with apt-get install -y chromium (or set CHROMIUM to its path) to run the browser tests")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(width, height),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-extensions", true),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelA() })
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := d.Deadline(); ok {
			var cancelT context.CancelFunc
			ctx, cancelT = context.WithDeadline(ctx, end.Add(-30*time.Second))
			t.Cleanup(cancelT)
		}
	}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium at %s: %v", path, err)
	}
	return ctx
}
