// Real-window e2e harness for Gatehouse: the one module the tests import.
//
// It re-exports the public API of the modules that do the work:
//
//   launch-app.mjs    launchApp() and the App handle (session, screenshots, close)
//   wait-for.mjs      waitFor() polling and fatal() to abort a wait
//   locations.mjs     repo/artifact/fixture paths, app binary, commands on PATH
//   xvfb.mjs          the virtual X display and its framebuffer → PNG
//   session-bus.mjs   private D-Bus session bus + unlocked gnome-keyring
//   tauri-driver.mjs  finding and starting tauri-driver on free ports
//   processes.mjs     process groups: spawn, wait until ready, stop, sweep by env marker
//   run-dir.mjs       the per-run temp dir (app data, XDG dirs) and the app's environment
//   screenshots.mjs   screenshots and failure evidence under artifacts/
//   log.mjs           harness log lines and child-process output capture
//
// Environment:
//   GATEHOUSE_APP            app binary (default: $CARGO_TARGET_DIR or <repo>/target, + /debug/gatehouse-app)
//   TAURI_DRIVER             tauri-driver binary (default: PATH, then $CARGO_HOME/bin, ~/.cargo/bin)
//   GATEHOUSE_E2E_XVFB=1     start a private Xvfb even when DISPLAY is set
//   GATEHOUSE_E2E_HOST_DBUS=1  use the caller's D-Bus session (and keyring) instead of a private one
//   GATEHOUSE_E2E_KEEP_TMP=1 keep the temp dir (app data dir, XDG dirs) after the run
//   GATEHOUSE_E2E_SCREENSHOT=webdriver  screenshots via WebDriver even when the harness owns Xvfb
//   GATEHOUSE_E2E_DEBUG=1    echo tauri-driver / WebKitWebDriver / app output to stderr live

export { launchApp, App } from './launch-app.mjs';
export { waitFor, fatal } from './wait-for.mjs';
export {
  E2E_DIR,
  REPO_ROOT,
  ARTIFACTS_DIR,
  FIXTURES_DIR,
  SERVER_EVERYTHING_ENTRY,
  PARTIAL_SERVER_ENTRY,
  TS_SDK_V2_PACKAGE,
  resolveAppPath,
} from './locations.mjs';
export { resolveTauriDriver, freePort } from './tauri-driver.mjs';
export { startXvfb, xwdToPng } from './xvfb.mjs';
