// The theme the window shows now (the `data-theme` of <html>, set by useTheme), followed as it
// changes, for parts that must tell others about it (an app's host context).

import { useSyncExternalStore } from "react";
import type { Theme } from "./useTheme";

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}

function current(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}

export function useDocumentTheme(): Theme {
  return useSyncExternalStore(subscribe, current);
}
