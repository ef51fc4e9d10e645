// The theme: as the system says, light or dark (radio buttons; the header's toggle picks light
// or dark too, and both follow each other), drawn as the other settings' rows.

import { useTheme } from "../../hooks/useTheme";
import type { ThemeChoice } from "../../hooks/useTheme";

const CHOICES: [ThemeChoice, string][] = [
  ["system", "System"],
  ["light", "Light"],
  ["dark", "Dark"],
];

export function ThemeSetting() {
  const { choice, choose } = useTheme();
  return (
    <div className="setting theme-setting" role="radiogroup" aria-labelledby="theme-setting-label" data-testid="setting-theme">
      <span className="setting-label" id="theme-setting-label">
        Theme
      </span>
      <div className="theme-choices">
        {CHOICES.map(([value, label]) => (
          <label key={value} className="theme-choice">
            <input type="radio" name="theme" value={value} checked={choice === value} onChange={() => choose(value)} data-testid={`theme-${value}`} />
            {label}
          </label>
        ))}
      </div>
    </div>
  );
}
