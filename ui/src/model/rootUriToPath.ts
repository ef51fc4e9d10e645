// Turns a root as the engine stores it (a file:// URI) back into the plain path the user typed.

const FILE_PREFIX = "file://";

/**
 * `file:///home/me/my%20project` → `/home/me/my project`. Any root that would not survive the
 * trip back through the form as a path is returned unchanged: another scheme or a host, a query
 * or fragment, a malformed escape, a line break, or a Windows drive path (`file:///C:/…`).
 */
export function rootUriToPath(uri: string): string {
  if (!uri.startsWith(`${FILE_PREFIX}/`)) return uri;
  const encodedPath = uri.slice(FILE_PREFIX.length);
  if (/[?#]/.test(encodedPath)) return uri;
  let path: string;
  try {
    path = decodeURIComponent(encodedPath);
  } catch {
    return uri;
  }
  if (/[\r\n]/.test(path) || /^\/[A-Za-z]:/.test(path)) return uri;
  return path;
}
