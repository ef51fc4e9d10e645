// Minimal W3C WebDriver client over HTTP using Node's global fetch.
// Only what Gatehouse's e2e tests need; no dependencies.
// Spec: https://www.w3.org/TR/webdriver2/

import { writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** W3C web element identifier key. */
export const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

/** Special keys (W3C "keyboard actions" code points) usable in sendKeys text. */
export const Keys = Object.freeze({
  ENTER: '\uE007',
  RETURN: '\uE006',
  TAB: '\uE004',
  BACKSPACE: '\uE003',
  ESCAPE: '\uE00C',
  CONTROL: '\uE009',
  SHIFT: '\uE008',
});

export class WebDriverError extends Error {
  /**
   * @param {string} message
   * @param {{ error?: string, status?: number, command?: string, stacktrace?: string }} [info]
   */
  constructor(message, info = {}) {
    super(message);
    this.name = 'WebDriverError';
    this.error = info.error; // W3C error code, e.g. "no such element"
    this.status = info.status;
    this.command = info.command;
    this.remoteStacktrace = info.stacktrace;
  }
}

/**
 * Low-level request to a WebDriver remote end. Resolves to the response's `value`.
 * @param {string} baseUrl e.g. http://127.0.0.1:4444
 * @param {'GET'|'POST'|'DELETE'} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {{ timeoutMs?: number, signal?: AbortSignal }} [opts] `signal` aborts the request early
 */
export async function wdRequest(baseUrl, method, path, body, { timeoutMs = 30_000, signal } = {}) {
  const command = `${method} ${path}`;
  const timeout = AbortSignal.timeout(timeoutMs);
  const init = {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  };
  // W3C: POST always carries a JSON body (an empty object when there are no parameters).
  if (method === 'POST') init.body = JSON.stringify(body ?? {});
  let res;
  try {
    res = await fetch(baseUrl + path, init);
  } catch (err) {
    const why = signal?.aborted
      ? `aborted: ${signal.reason?.message ?? signal.reason}`
      : timeout.aborted
        ? `timed out after ${timeoutMs} ms`
        : String(err?.cause ?? err);
    throw new WebDriverError(`WebDriver ${command} failed: ${why}`, { command });
  }
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw new WebDriverError(
      `WebDriver ${command} → HTTP ${res.status} with non-JSON body: ${text.slice(0, 500)}`,
      { status: res.status, command },
    );
  }
  const value = json?.value;
  if (!res.ok || (value && typeof value === 'object' && typeof value.error === 'string')) {
    const code = value?.error ?? `HTTP ${res.status}`;
    throw new WebDriverError(`WebDriver ${command} → ${code}: ${value?.message ?? text.slice(0, 500)}`, {
      error: value?.error,
      status: res.status,
      command,
      stacktrace: value?.stacktrace,
    });
  }
  return value;
}

/** Returns the element id of a W3C element reference (or a legacy {ELEMENT} one). */
export function elementId(el) {
  if (typeof el === 'string') return el;
  const id = el?.[ELEMENT_KEY] ?? el?.ELEMENT;
  if (!id) throw new TypeError(`not a WebDriver element reference: ${JSON.stringify(el)}`);
  return id;
}

export class WebDriverSession {
  /**
   * @param {string} baseUrl
   * @param {string} sessionId
   * @param {object} capabilities the capabilities the remote end returned
   */
  constructor(baseUrl, sessionId, capabilities = {}) {
    this.baseUrl = baseUrl;
    this.sessionId = sessionId;
    this.capabilities = capabilities;
  }

  /**
   * POST /session. `capabilities` is the full W3C body, e.g.
   * {capabilities: {alwaysMatch: {...}}}.
   */
  static async create(baseUrl, body, { timeoutMs = 90_000, signal } = {}) {
    const value = await wdRequest(baseUrl, 'POST', '/session', body, { timeoutMs, signal });
    if (!value?.sessionId) {
      throw new WebDriverError(`POST /session returned no sessionId: ${JSON.stringify(value)}`);
    }
    return new WebDriverSession(baseUrl, value.sessionId, value.capabilities);
  }

  /** GET /status on a remote end; resolves to the status value. */
  static status(baseUrl, { timeoutMs = 2_000 } = {}) {
    return wdRequest(baseUrl, 'GET', '/status', undefined, { timeoutMs });
  }

  cmd(method, path, body, opts) {
    return wdRequest(this.baseUrl, method, `/session/${this.sessionId}${path}`, body, opts);
  }

  /** DELETE /session/{id}. Closes the app window(s). */
  async delete({ timeoutMs = 15_000 } = {}) {
    return wdRequest(this.baseUrl, 'DELETE', `/session/${this.sessionId}`, undefined, { timeoutMs });
  }

  // --- navigation / document --------------------------------------------------

  getUrl() {
    return this.cmd('GET', '/url');
  }

  navigateTo(url) {
    return this.cmd('POST', '/url', { url });
  }

  getTitle() {
    return this.cmd('GET', '/title');
  }

  getPageSource() {
    return this.cmd('GET', '/source');
  }

  setTimeouts({ implicit, pageLoad, script } = {}) {
    return this.cmd('POST', '/timeouts', { implicit, pageLoad, script });
  }

  // --- windows ----------------------------------------------------------------

  /** The handle of the current top-level browsing context (a webview of the app). */
  getWindowHandle() {
    return this.cmd('GET', '/window');
  }

  /** The handles of every top-level browsing context (each webview of the app has one). */
  getWindowHandles() {
    return this.cmd('GET', '/window/handles');
  }

  /** Switch To Window: later commands act in that webview's top-level document. */
  switchToWindow(handle) {
    return this.cmd('POST', '/window', { handle });
  }

  // --- frames -----------------------------------------------------------------

  /** Switch To Frame: later commands act in the document of the iframe element `el`. */
  switchToFrame(el) {
    return this.cmd('POST', '/frame', { id: { [ELEMENT_KEY]: elementId(el) } });
  }

  /** Switch To Parent Frame. */
  switchToParentFrame() {
    return this.cmd('POST', '/frame/parent', {});
  }

  /** Switch To Frame with id null: back to the top-level document. */
  switchToTopFrame() {
    return this.cmd('POST', '/frame', { id: null });
  }

  // --- elements ---------------------------------------------------------------

  /** Finds one element by CSS selector (optionally inside `from`). Throws "no such element". */
  findElement(css, from) {
    const base = from ? `/element/${elementId(from)}` : '';
    return this.cmd('POST', `${base}/element`, { using: 'css selector', value: css });
  }

  /** Finds all elements matching a CSS selector (optionally inside `from`); [] if none. */
  findElements(css, from) {
    const base = from ? `/element/${elementId(from)}` : '';
    return this.cmd('POST', `${base}/elements`, { using: 'css selector', value: css });
  }

  click(el) {
    return this.cmd('POST', `/element/${elementId(el)}/click`, {});
  }

  clear(el) {
    return this.cmd('POST', `/element/${elementId(el)}/clear`, {});
  }

  /** Types `text` into the element (W3C Element Send Keys; use Keys.* for special keys). */
  sendKeys(el, text) {
    return this.cmd('POST', `/element/${elementId(el)}/value`, { text: String(text) });
  }

  getText(el) {
    return this.cmd('GET', `/element/${elementId(el)}/text`);
  }

  /** Resolves to the attribute's string value, or null when absent. */
  getAttribute(el, name) {
    return this.cmd('GET', `/element/${elementId(el)}/attribute/${encodeURIComponent(name)}`);
  }

  /** DOM property, e.g. "value" or "checked". */
  getProperty(el, name) {
    return this.cmd('GET', `/element/${elementId(el)}/property/${encodeURIComponent(name)}`);
  }

  isSelected(el) {
    return this.cmd('GET', `/element/${elementId(el)}/selected`);
  }

  isEnabled(el) {
    return this.cmd('GET', `/element/${elementId(el)}/enabled`);
  }

  isDisplayed(el) {
    // Not in W3C proper, but every driver implements it (WebKitWebDriver included).
    return this.cmd('GET', `/element/${elementId(el)}/displayed`);
  }

  getTagName(el) {
    return this.cmd('GET', `/element/${elementId(el)}/name`);
  }

  // --- input actions ----------------------------------------------------------

  /** Perform Actions (W3C input sources), e.g. key presses to the focused element. */
  performActions(actions) {
    return this.cmd('POST', '/actions', { actions });
  }

  /** Release Actions: lets go of every key and button still pressed. */
  releaseActions() {
    return this.cmd('DELETE', '/actions');
  }

  /**
   * Types `text` as key actions (each character pressed and released) into whatever has the
   * focus in the current browsing context, as a person's keyboard would.
   */
  async typeKeys(text) {
    const actions = [...String(text)].flatMap((value) => [
      { type: 'keyDown', value },
      { type: 'keyUp', value },
    ]);
    await this.performActions([{ type: 'key', id: 'keyboard', actions }]);
    await this.releaseActions();
  }

  // --- scripts ----------------------------------------------------------------

  /**
   * Runs a synchronous script in the page (`return ...;` to get a value).
   * Element references in `args` arrive as DOM elements; returned elements come back as references.
   */
  executeScript(script, args = []) {
    return this.cmd('POST', '/execute/sync', { script, args });
  }

  /** Async script: the last argument is a callback to call with the result. */
  executeAsyncScript(script, args = [], { timeoutMs = 30_000 } = {}) {
    return this.cmd('POST', '/execute/async', { script, args }, { timeoutMs: timeoutMs + 5_000 });
  }

  // --- screenshots ------------------------------------------------------------

  /** Resolves to a PNG Buffer of the current top-level browsing context. */
  async screenshot() {
    const b64 = await this.cmd('GET', '/screenshot', undefined, { timeoutMs: 30_000 });
    return Buffer.from(b64, 'base64');
  }

  /** Saves a PNG screenshot to `file` (parent dirs are created). Resolves to the path. */
  async saveScreenshot(file) {
    const png = await this.screenshot();
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, png);
    return file;
  }
}
