// Checks that a server URL is an absolute http:// or https:// URL, as the engine requires.

/** Returns an error message, or null when the URL is acceptable. */
export function validateHttpUrl(raw: string): string | null {
  const text = raw.trim();
  if (text === "") return "url must not be empty";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "url must be http(s): could not parse it as a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "url must be http(s)";
  if (url.hostname === "") return "url must include a host";
  return null;
}
