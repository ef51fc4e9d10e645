// Screenshots and failure evidence, saved under tests/e2e/artifacts/.
//
// When the harness owns the Xvfb server the picture is the X framebuffer
// (the whole screen: the real window as a person would see it), because
// WebKitWebDriver's own screenshot under Xvfb was seen to lag behind the DOM
// (blank, or missing the last click), and to hang when
// WEBKIT_DISABLE_DMABUF_RENDERER / WEBKIT_DISABLE_COMPOSITING_MODE is set
// (WebKitGTK 2.50). Otherwise (DISPLAY given, or
// GATEHOUSE_E2E_SCREENSHOT=webdriver) it is the WebDriver screenshot of the
// webview, with the framebuffer as fallback.

import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ARTIFACTS_DIR } from './locations.mjs';
import { log } from './log.mjs';
import { xwdToPng } from './xvfb.mjs';

/** Lets the webview paint the latest DOM state (two animation frames + a short pause). */
export async function settle(session) {
  if (session) {
    await session
      .executeAsyncScript(
        'const done = arguments[arguments.length - 1];' +
          'requestAnimationFrame(() => requestAnimationFrame(() => done(true)));',
        [],
        { timeoutMs: 3_000 },
      )
      .catch(() => {});
  }
  await sleep(300);
}

/**
 * Saves a screenshot into tests/e2e/artifacts/<name>.png and resolves to its
 * path. `session` is the WebDriver session (or null), `framebuffer` the Xvfb
 * XWD file when the harness owns Xvfb (or null/undefined).
 */
export async function saveScreenshot(name, { session, framebuffer }) {
  const file = join(ARTIFACTS_DIR, `${name}.png`);
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const preferWebDriver = !framebuffer || process.env.GATEHOUSE_E2E_SCREENSHOT === 'webdriver';
  await settle(session);
  if (session && preferWebDriver) {
    try {
      await session.saveScreenshot(file);
      return file;
    } catch (err) {
      log(`WebDriver screenshot failed (${err.message}); falling back to the Xvfb framebuffer`);
    }
  }
  if (framebuffer && existsSync(framebuffer)) {
    await writeFile(file, xwdToPng(readFileSync(framebuffer)));
    return file;
  }
  if (session && !preferWebDriver) {
    await session.saveScreenshot(file);
    return file;
  }
  throw new Error(`could not take screenshot ${name}: no WebDriver session and no Xvfb framebuffer`);
}

/**
 * Best-effort failure evidence: failure-<name>.png (screenshot) and
 * failure-<name>.html (page source). Resolves to the saved paths. Never throws.
 */
export async function saveFailureEvidence(name, { session, framebuffer }) {
  const safe = name.replace(/[^\w.-]+/g, '_').slice(0, 80);
  const saved = [];
  try {
    saved.push(await saveScreenshot(`failure-${safe}`, { session, framebuffer }));
  } catch (err) {
    log(`failure screenshot failed: ${err.message}`);
  }
  if (session) {
    try {
      const html = await session.getPageSource();
      const file = join(ARTIFACTS_DIR, `failure-${safe}.html`);
      await writeFile(file, html);
      saved.push(file);
    } catch (err) {
      log(`page source capture failed: ${err.message}`);
    }
  }
  if (saved.length) log(`failure artifacts: ${saved.join(', ')}`);
  return saved;
}
