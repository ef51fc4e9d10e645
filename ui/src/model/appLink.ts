// Which links an app may ask the host to open (SEP-1865 `ui/open-link`): only absolute http and
// https URLs are ever offered to the person; anything else (javascript:, file:, data:, custom
// schemes, relative paths) is refused without asking.

/** Why `url` is refused outright, or null when it may be offered to the person. */
export function linkRefusal(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "The app asked to open something that is not a URL.";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return `Only http and https links are opened; this one is ${parsed.protocol}`;
  }
  return null;
}
