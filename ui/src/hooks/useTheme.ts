// Light/dark theme: follows prefers-color-scheme ("system") until the user picks light or dark,
// which is persisted. The choice is shared: the header's toggle and the Settings page's theme
// choice change it for every part of the window at once.

import { useCallback, useEffect, useState } from "react";

export type Theme = "light" | "dark";
export type ThemeChoice = Theme | "system";

export const THEME_STORAGE_KEY = "gatehouse.theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";
const CHOICE_EVENT = "gatehouse-theme-choice";

export function readStoredTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

/** Sets the theme on <html>; the CSS variables in theme.css key off this attribute. */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

export function initialTheme(): Theme {
  return readStoredTheme() ?? systemTheme();
}

/** Stores the choice ("system": none) and tells every part of the window (the command palette's theme actions too). */
export function storeChoice(choice: ThemeChoice): void {
  try {
    if (choice === "system") window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage unavailable: the choice still applies for this session.
  }
  window.dispatchEvent(new CustomEvent<ThemeChoice>(CHOICE_EVENT, { detail: choice }));
}

export function useTheme(): { theme: Theme; choice: ThemeChoice; toggle: () => void; choose: (choice: ThemeChoice) => void } {
  const [chosen, setChosen] = useState<Theme | null>(readStoredTheme);
  const [system, setSystem] = useState<Theme>(systemTheme);
  const theme = chosen ?? system;

  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const query = window.matchMedia(DARK_QUERY);
    const onChange = (e: MediaQueryListEvent) => setSystem(e.matches ? "dark" : "light");
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);

  useEffect(() => {
    const onChoice = (e: Event) => {
      const choice = (e as CustomEvent<ThemeChoice>).detail;
      setChosen(choice === "system" ? null : choice);
    };
    window.addEventListener(CHOICE_EVENT, onChoice);
    return () => window.removeEventListener(CHOICE_EVENT, onChoice);
  }, []);

  useEffect(() => applyTheme(theme), [theme]);

  const choose = useCallback((choice: ThemeChoice) => {
    setChosen(choice === "system" ? null : choice);
    storeChoice(choice);
  }, []);
  const toggle = useCallback(() => choose(theme === "dark" ? "light" : "dark"), [choose, theme]);

  return { theme, choice: chosen ?? "system", toggle, choose };
}
