// The theme: as the system says, light or dark (radio buttons; the header's toggle picks light
// or dark too, and both follow each other).

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
    <fieldset className="setting theme-setting" data-testid="setting-theme">
      <legend className="setting-label">Theme</legend>
      <div className="theme-choices">
        {CHOICES.map(([value, label]) => (
          <label key={value} className="theme-choice">
            <input type="radio" name="theme" value={value} checked={choice === value} onChange={() => choose(value)} data-testid={`theme-${value}`} />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
